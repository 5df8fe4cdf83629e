/// How launchprof's own process treats a write to a pipe whose reader has gone
/// (`launchprof measure … | head -1`).
///
/// By default such a write kills the writer with SIGPIPE (exit 141): no report,
/// no `--cleanup`, a staging runs folder left behind. With SIGPIPE ignored the
/// write fails with `EPIPE` instead, an error like a full disk, and the command
/// keeps what it measured and ends with its one line and exit code 2.
///
/// The programs launchprof starts still get SIGPIPE's default action: an
/// ignored signal would survive `execve`, so `lp_spawn` puts every signal that
/// is not at its default (ignored ones included) back to it in the child.
///
/// ```swift
/// BrokenPipe.ignore()   // first thing in main
/// ```
public enum BrokenPipe {
    /// Ignores SIGPIPE in this process (`sigaction(SIGPIPE, SIG_IGN)`); writes to
    /// a closed pipe or socket then fail with `EPIPE`. Call it once, at start-up.
    public static func ignore() {
        Platform.ignoreBrokenPipeSignal()
    }
}
