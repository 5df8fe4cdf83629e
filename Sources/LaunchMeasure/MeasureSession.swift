import LaunchAnalysis
import LaunchTracing

/// Runs a whole measurement: warm-up and counted launches, one after another,
/// each turned into a ``RunRecord``, collected with what the runs told about the
/// program and the machine. It decides nothing about them: LaunchAnalysis
/// assembles the report (``MeasurementReport/init(plan:collected:budget:)``).
///
/// A launch that crashes, fails, hangs or leaves an unreadable trace is recorded
/// as a failed run and the others go on. A launch that cannot even be started
/// after others were measured ends the session, and the outcome keeps what was
/// measured and says why it stopped. Ctrl-C (SIGINT) stops it after the current
/// launch; a second Ctrl-C, SIGTERM or SIGHUP ends the current launch at once
/// (that launch is not counted). The signal handlers are put back afterwards.
///
/// ```swift
/// let collected = try MeasureSession.run(request, progress: nil)
/// let report = MeasurementReport(plan: request.plan, collected: collected, budget: BudgetResolution())
/// ```
public enum MeasureSession {
    /// The trace file each launch writes, in its own directory.
    public static let traceFileName = "trace.lptrace"

    /// Measures `request`.
    ///
    /// - Throws: ``LaunchError`` when the first launch cannot be started (nothing
    ///   was measured). Later failures end the session with
    ///   ``LaunchAnalysis/CollectedLaunches/stopReason`` set instead, so no measured run is lost.
    public static func run(_ request: SessionRequest, progress: (any MeasureProgress)?) throws(LaunchError)
        -> CollectedLaunches
    {
        try run(request, progress: progress, platform: SystemLaunchPlatform())
    }

    /// Measures `request` on `platform` (tests give one that launches nothing).
    package static func run(
        _ request: SessionRequest, progress: (any MeasureProgress)?, platform: any LaunchPlatform
    ) throws(LaunchError) -> CollectedLaunches {
        let scope = SessionScope(progress: progress, platform: platform)
        defer { scope.end() }
        let side = LaunchSide(request: request)
        guard try scope.setUp(request.commands) else {
            return side.collected(in: scope, stopSignal: scope.stopSignal)
        }
        var collected: CollectedLaunches
        do { collected = try measure(side, scope: scope, progress: progress) } catch {
            _ = scope.cleanUp(request.commands)
            throw error
        }
        if let failure = scope.cleanUp(request.commands), collected.stopReason == nil {
            (collected.stop, collected.stopReason) = (failure, failure.text)
        }
        return collected
    }

    /// The launches of a measurement, between its setup and its cleanup.
    private static func measure(
        _ side: LaunchSide, scope: SessionScope, progress: (any MeasureProgress)?
    ) throws(LaunchError) -> CollectedLaunches {
        let plan = side.request.plan
        if plan.mode == .hot {
            try side.launchHot(scope: scope)
            let counted = side.countedRuns
            for run in side.runs {
                progress?.runFinished(
                    run, side: nil, counted: run.isWarmup ? 0 : run.index, of: counted, warmup: run.isWarmup,
                    elapsedSeconds: scope.elapsed)
            }
        } else {
            for _ in 0..<(plan.warmup + plan.runs) {
                if scope.stopRequested { break }  // a stop signal that came between launches
                let record = try side.launchNext(scope: scope)
                if side.stop != nil { break }
                if let record {
                    progress?.runFinished(
                        record, side: nil, counted: record.index, of: plan.runs, warmup: record.isWarmup,
                        elapsedSeconds: scope.elapsed)
                }
                if scope.stopRequested { break }
            }
        }
        var collected = side.collected(in: scope, stopSignal: scope.stopSignal)
        // Counted launches only after timed ones that worked: a program that fails or hangs would
        // fail each counted launch too, at 20–50× the cost.
        if plan.countedLaunches > 0, collected.stopReason == nil, !scope.stopRequested,
            !collected.runs.successful.isEmpty
        {
            let counted = CountedLaunches.run(
                [side.request], sides: nil, timed: [side.runs], scope: scope, progress: progress)
            collected = side.collected(in: scope, stopSignal: scope.stopSignal, stop: counted.stop)
            collected.countedRuns = counted.runs[0]
        }
        progress?.finished()
        return collected
    }
}
