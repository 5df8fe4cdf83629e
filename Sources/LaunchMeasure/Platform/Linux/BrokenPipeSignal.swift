// SIGPIPE: ignored by launchprof, so a write to a pipe whose reader has gone is an error it handles.

#if canImport(Glibc)
    import Glibc
#else
    // Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, PR_SET_PDEATHSIG.
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

extension Platform {
    /// Sets SIGPIPE's action to ignore (`SIG_IGN`).
    static func ignoreBrokenPipeSignal() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&action.sa_mask)
        sigaction(SIGPIPE, &action, nil)
    }
}
