// The one place a launch's problem is put into words: what a run record's
// `problem` says, on standard error and in every report.

extension LaunchDiagnosis {
    /// The sentence a run's `problem` holds, lowercase, with the fix when there is one.
    public var text: String {
        switch self {
        case .exitedBeforeReady(let ready):
            return "exited before it was ready (\(ready) never held)"
        case .exitedWithoutAnnouncing(let ready):
            return
                "exited without reporting \(ready) (does it call LaunchTracer.mark(.firstFrame), or run LaunchHarness? else use --ready exit)"
        case .stopped:
            return "ended when launchprof was told to stop"
        case .failedExit(let code):
            return "exited with code \(code)"
        case .crashed(let signal, let name):
            return "killed by signal \(signal)" + (name.map { " (SIG\($0))" } ?? "")
        case .timedOut(let seconds, let silentStdout):
            return "not ready within \(Self.seconds(seconds)) s (timed out; its process group was killed)"
                + (silentStdout
                    ? "; it wrote nothing on stdout: a program whose stdout is not a terminal may buffer it "
                        + "(--pty gives it a terminal; python3 -u, or stdbuf -oL before the command, make it write each line at once)"
                    : "")
        case .invalidTrace(let reason):
            return reason
        case .backgroundDrawsNoFrame:
            return "a launch into the background draws no first frame (leave --ready out, or use --ready exit)"
        case .noFirstFrame:
            return "the app exited without drawing its first frame"
        case .neverFullyDrawn:
            return "the app never called reportFullyDrawn() (measure to first-frame instead)"
        case .hotModeNeedsHooks:
            return "hot mode needs an instrumented program (one that links LaunchHarness); no launch hooks were traced"
        case .hotLaunchesNotRun(let launches):
            return "the program ran its hooks once, not \(launches) more times (LAUNCHPROF_HOT_LAUNCHES)"
        case .countsMissing(let reason):
            return reason
        }
    }

    /// `20` for whole seconds, `0.5` otherwise.
    public static func seconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}

extension LaunchProblem {
    /// The diagnosis's text, then `(stderr: <line>)` when the program said something;
    /// a counted launch's exit, crash or timeout is said to be under valgrind.
    public var text: String {
        let stderr = stderrLine.map { " (stderr: \($0))" } ?? ""
        guard isCounted else { return diagnosis.text + stderr }
        switch diagnosis {
        case .timedOut(let seconds, _):
            return "did not exit or mark ready within \(LaunchDiagnosis.seconds(seconds)) s under valgrind "
                + "(\(Int(LaunchMetric.countedSlowdownAllowance)) × --timeout); callgrind writes its counts only at the exit "
                + "or at the tracer's ready mark (LaunchTracer.markReady())"
        case .failedExit, .crashed:
            return diagnosis.text + " under valgrind" + stderr
        default:
            return diagnosis.text + stderr
        }
    }
}
