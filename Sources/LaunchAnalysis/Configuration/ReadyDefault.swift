/// The one place the default ready condition (no `--ready`) is decided: a
/// launch is ready at its first frame when the program is instrumented, and at
/// its exit otherwise.
///
/// - The launcher waits for the first frame (``launchCondition(_:)``) and, by
///   default only, accepts the exit as ready when the program exits without
///   reporting one (``acceptsExitFallback(_:)``).
/// - A run's time to ready is then its first frame on the trace's own clock, or,
///   launched into the background, the end of its hooks (``timeToReady(given:firstFrameMs:backgroundReadyMs:observedMs:)``).
/// - The report records first-frame when any run reported frames or a
///   background launch (or none ran), exit otherwise (``reported(_:runs:)``).
///
/// ```swift
/// ReadyDefault.launchCondition(nil)        // .firstFrame
/// ReadyDefault.acceptsExitFallback(.exit)  // false: a condition given is met or the run failed
/// ```
public enum ReadyDefault {
    /// The condition the launcher waits for, given `--ready` (nil for the default).
    public static func launchCondition(_ given: ReadyCondition?) -> ReadyCondition { given ?? .firstFrame }

    /// True when a program that exits without reporting ready counts as ready at
    /// its exit: only by default (an uninstrumented program).
    public static func acceptsExitFallback(_ given: ReadyCondition?) -> Bool { given == nil }

    /// A successful run's time to ready from what was observed: by default its
    /// first frame, else the end of its background launch, else the time the
    /// launcher saw (`observedMs`); a condition given keeps what the launcher saw.
    public static func timeToReady(
        given: ReadyCondition?, firstFrameMs: Double?, backgroundReadyMs: Double?, observedMs: Double?
    ) -> Double? {
        guard given == nil else { return observedMs }
        return firstFrameMs ?? backgroundReadyMs ?? observedMs
    }

    /// The condition a report says applied to `runs`.
    public static func reported(_ given: ReadyCondition?, runs: [RunRecord]) -> ReadyCondition {
        if let given { return given }
        let reportsFrames = runs.contains {
            $0.timeline?.milestones[.firstFrame] != nil || $0.timeline?.isBackground == true
        }
        return reportsFrames || runs.isEmpty ? .firstFrame : .exit
    }
}
