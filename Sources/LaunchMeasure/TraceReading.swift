import LaunchAnalysis
import LaunchTracing

/// A launch's trace, read when the program wrote one, and what it changes in the diagnosis.
struct TraceReading {
    /// True when something is at the trace's path.
    var exists = false
    /// The trace, when it was read and agrees with launchprof's clock.
    var trace: Trace?
    /// Its launches (one, or in hot mode one per launch).
    var timelines: [LaunchTimeline] = []
    /// Why the trace is not counted: it could not be read, or it disagrees with the launch.
    var fault: Fault?

    enum Fault: Equatable {
        /// Not read (a link, not a regular file, truncated, out of range): the reader's error.
        case unreadable(String)
        /// Read, but at odds with the launcher's own clock (``TraceCheck``).
        case disagrees(String)
    }

    /// Reads the trace at `path`, named `name` in what it says (where the file will
    /// be once its runs folder is committed). The program could have put anything
    /// there: a link is not followed, and only a regular file of bounded size is read.
    init(at path: String, naming name: String, outcome: LaunchResult) {
        guard Platform.entryExists(path) else { return }
        exists = true
        do {
            let read = try Trace.read(from: path, followingLinks: false)
            _ = try read.checkedAppBudget()  // a budget out of range makes this run's trace invalid
            let timelines = LaunchTimeline.build(from: read)
            // A trace that disagrees with launchprof's own clock is not counted.
            if let reason = TraceCheck.problem(timelines, trace: read, outcome: outcome) {
                fault = .disagrees(reason)
                return
            }
            trace = read
            self.timelines = timelines
        } catch let error as TraceFileError {
            fault = .unreadable("\(error.renamed(name))")
        } catch {
            fault = .unreadable("\(error)")
        }
    }

    /// `problem` as the trace revises it: a trace at odds with the clock makes an
    /// ok or never-ready run invalid, an unreadable one an ok run; a trace proves
    /// the program instrumented, so a never-ready run is told what it did not do.
    func revised(_ problem: LaunchProblem?, ready: ReadyCondition) -> LaunchProblem? {
        let status = problem?.diagnosis.status ?? .ok
        switch fault {
        case .disagrees(let reason) where status == .ok || status == .neverReady:
            return LaunchProblem(.invalidTrace(reason: reason))
        case .unreadable(let reason) where status == .ok:
            return LaunchProblem(.invalidTrace(reason: reason))
        default:
            break
        }
        guard status == .neverReady, let timeline = timelines.first else { return problem }
        // The milestone the program marks to meet the condition (ReadyCondition answers that, for every kind).
        switch ready.milestone {
        case .firstFrame? where timeline.isBackground: return LaunchProblem(.backgroundDrawsNoFrame)
        case .firstFrame?: return LaunchProblem(.noFirstFrame)
        case .fullyDrawn?: return LaunchProblem(.neverFullyDrawn)
        default: return problem
        }
    }
}
