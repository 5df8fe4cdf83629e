// The signals that stop a measurement: handlers that only count them.

import LaunchAnalysis

#if canImport(Glibc)
    import Glibc
#else
    // Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, PR_SET_PDEATHSIG.
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

extension Platform {
    /// The handlers in force before ``installStopHandlers()``, to put back.
    struct SavedHandlers {
        var actions: [(signal: Int32, action: sigaction)]
    }

    /// The signals that stop a measurement: SIGINT (Ctrl-C), SIGTERM (a CI
    /// cancelling its job), SIGHUP (the terminal went away).
    /// Their numbers come from ``ExitCode/StopSignal``, which the help's exit codes are made from.
    static let stopSignals: [Int32] = ExitCode.StopSignal.allCases.map(\.rawValue)

    /// Installs handlers for the stop signals that only count them in
    /// `sig_atomic_t`s, unblocks them on the calling thread, and puts SIGCHLD back
    /// to its default action (a parent that ignores it would have the kernel reap
    /// our children before we can). Clears earlier counts. Undo with ``restoreStopHandlers(_:)``.
    static func installStopHandlers() -> SavedHandlers {
        _ = stopState  // initialize the global before a signal can touch it
        stopState[0] = 0
        stopState[1] = 0
        var saved = SavedHandlers(actions: [])
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            stopState[0] += 1
            stopState[1] = signal
            // write(2) is async-signal-safe; the message was laid out in advance.
            if stopState[0] == 1, signal == SIGINT, let message = stopMessage.pointee {
                _ = write(2, message, strlen(message))
            }
        }
        action.sa_flags = 0  // no SA_RESTART: a blocking poll returns at once
        sigemptyset(&action.sa_mask)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in stopSignals {
            var old = sigaction()
            sigaction(signal, &action, &old)
            saved.actions.append((signal, old))
            sigaddset(&unblock, signal)
        }
        var childDefault = sigaction()
        childDefault.__sigaction_handler.sa_handler = nil  // SIG_DFL
        sigemptyset(&childDefault.sa_mask)
        var oldChild = sigaction()
        sigaction(SIGCHLD, &childDefault, &oldChild)
        saved.actions.append((SIGCHLD, oldChild))
        // A parent may have started us with them blocked (Foundation's Process does).
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        return saved
    }

    /// Sets the line written to standard error at the first Ctrl-C (nil: none).
    static func setFirstInterruptMessage(_ text: String?) {
        let old = stopMessage.pointee
        stopMessage.pointee = text.map { strdup($0) }
        free(old)
    }

    /// Puts back the handlers ``installStopHandlers()`` replaced.
    static func restoreStopHandlers(_ saved: SavedHandlers) {
        for (signal, action) in saved.actions {
            var action = action
            sigaction(signal, &action, nil)
        }
    }

    /// How many stop signals arrived since ``installStopHandlers()``.
    static var stopRequests: Int32 { stopState[0] }

    /// The last stop signal that arrived (0 for none).
    static var lastStopSignal: Int32 { stopState[1] }

    /// True when the launch under way must be ended now: a second Ctrl-C, or SIGTERM or SIGHUP.
    static var mustAbortLaunch: Bool {
        stopState[0] >= 2 || (stopState[0] >= 1 && stopState[1] != SIGINT)
    }
}

/// The line the handler writes at the first Ctrl-C, laid out before any signal.
nonisolated(unsafe) private let stopMessage: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let slot = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
    slot.initialize(to: nil)
    return slot
}()

/// The stop-signal counters: [0] how many arrived, [1] the last one. Written
/// only by the signal handler (aligned words, the `volatile sig_atomic_t` idiom);
/// read through a pointer so every read loads them.
nonisolated(unsafe) private let stopState: UnsafeMutablePointer<sig_atomic_t> = {
    let state = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 2)
    state.initialize(repeating: 0, count: 2)
    return state
}()
