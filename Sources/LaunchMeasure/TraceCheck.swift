import LaunchAnalysis
import LaunchTracing

/// Checks a launch's trace against what launchprof knows by its own clock, before
/// the trace's clock is trusted: a trace the program replayed from another run,
/// or wrote to claim times it did not have, is not counted.
///
/// What is checked:
/// - the trace's spawn stamp, when it says it came from the parent, is exactly the
///   `LAUNCHPROF_SPAWN_NS` this launch was given;
/// - every milestone falls between this launch's spawn and its end (the exit, or
///   the moment launchprof ended it);
/// - when the ready word that announced the first `firstFrame` (or `fullyDrawn`)
///   carried the moment it was announced, that moment lies between the spawn and
///   the word's arrival, and the trace's mark (recorded just before it was
///   announced) is no later than it. (A bare word, from a program built before words carried
///   their time, was written before its mark: only the spawn and end bound it.)
/// - a milestone announced by a word (`firstFrame`, `fullyDrawn`) is no earlier
///   than the word's arrival by more than ``announcementLateness(arrival:spawn:)``:
///   the tracer announces a milestone the moment it marks it, so a trace that puts
///   the first frame at 5 ms while its word arrived at 1,456 ms lies.
///
/// A small ``tolerance`` allows for the conversion of CPU ticks to nanoseconds.
///
/// ```swift
/// if let reason = TraceCheck.problem(timelines, trace: trace, outcome: outcome) {
///     record.status = .invalidTrace
///     record.problem = reason
/// }
/// ```
public enum TraceCheck {
    /// How far a milestone may stray past a bound: 2 ms, for the tick conversion.
    public static let tolerance: UInt64 = 2_000_000
    /// How much later than its arrival stamp a word may say it was announced: the
    /// launcher stamps what it reads with the clock read just before the read, and a
    /// loaded machine can preempt it in between.
    public static let arrivalSkew: UInt64 = 50_000_000

    /// How much earlier than its word's arrival a milestone may be: at least 50 ms
    /// (``arrivalSkew``, the preemption of launchprof between a word's write and its
    /// read a loaded machine shows), or 5 % of the time from the spawn to the
    /// arrival, for a long launch on a loaded machine. A trace that claims a
    /// milestone earlier than that can make a launch look faster by at most this much.
    public static func announcementLateness(arrival: UInt64, spawn: UInt64) -> UInt64 {
        max(arrivalSkew, arrival.subtractingClamped(spawn) / 20)
    }

    /// Why the trace cannot be trusted, or nil when it agrees with the launch.
    public static func problem(_ timelines: [LaunchTimeline], trace: Trace, outcome: LaunchResult) -> String? {
        let spawn = outcome.spawnNanoseconds
        let end = outcome.exitNanoseconds ?? .max
        func ms(_ nanoseconds: UInt64, from origin: UInt64) -> String {
            nanoseconds >= origin
                ? Milliseconds.text(Double(nanoseconds - origin) / 1e6)
                : "-" + Milliseconds.text(Double(origin - nanoseconds) / 1e6)
        }
        if let stamp = trace.spawn, stamp.source == .parent, stamp.nanoseconds != spawn {
            return
                "the trace is not this launch's: its spawn stamp \(stamp.nanoseconds) is not the \(spawn) it was given "
                + "(\(LaunchContract.Variable.spawnNanoseconds)); was it written by another run?"
        }
        for timeline in timelines {
            for (milestone, nanoseconds) in timeline.milestones.sorted(by: { $0.value < $1.value })
            where milestone != .spawn {
                if nanoseconds.addingClamped(tolerance) < spawn || nanoseconds > end.addingClamped(tolerance) {
                    return
                        "the trace's \(milestone.id) at \(ms(nanoseconds, from: spawn)) after the spawn lies outside the launch "
                        + "(0 to \(ms(end, from: spawn)) by launchprof's clock)"
                }
            }
        }
        guard let first = timelines.first else { return nil }
        for (milestone, word) in [
            (Milestone.firstFrame, LaunchContract.ReadyWord.firstFrame), (.fullyDrawn, .fullyDrawn),
        ] {
            guard let marked = first.milestones[milestone],
                let line = outcome.readyLines.first(where: { $0.announcement?.word == word })
            else { continue }
            // Announced the moment it was marked: a mark much earlier than the word's arrival is made up.
            let lateness = announcementLateness(arrival: line.nanoseconds, spawn: spawn)
            if marked.addingClamped(lateness) < line.nanoseconds {
                return "the trace's \(milestone.id) at \(ms(marked, from: spawn)) is earlier than its announcement "
                    + "arrived (at \(ms(line.nanoseconds, from: spawn)) by launchprof's clock) by more than "
                    + "\(ms(lateness, from: 0)), while the program announces it as it marks it: the trace is not believed"
            }
            // A bare word (a program built before words carried their time) announced
            // the milestone before marking it: the two cannot be ordered.
            guard let said = line.announcement?.markedNanoseconds else { continue }
            // launchprof reads its clock, then the pipe: preempted in between, it stamps a
            // word that arrived after the clock read with the earlier time.
            if said.addingClamped(tolerance) < spawn || said > line.nanoseconds.addingClamped(arrivalSkew) {
                return
                    "the program announced \(word.rawValue) at \(ms(said, from: spawn)), outside the launch until the "
                    + "announcement arrived (0 to \(ms(line.nanoseconds, from: spawn)) by launchprof's clock)"
            }
            // The mark is recorded before it is announced.
            if marked > said.addingClamped(tolerance) {
                return "the trace's \(milestone.id) at \(ms(marked, from: spawn)) comes after the program announced it "
                    + "(at \(ms(said, from: spawn)), arriving at \(ms(line.nanoseconds, from: spawn)) by launchprof's clock)"
            }
        }
        return nil
    }
}
