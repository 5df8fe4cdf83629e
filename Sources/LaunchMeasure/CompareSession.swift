import LaunchAnalysis
import LaunchTracing

/// Launches two programs alternately on this machine, each launch exactly as
/// ``MeasureSession`` makes it: warm-ups first (discarded), then counted runs in
/// ABBA order (base, head, head, base, …), so that a machine getting busier or
/// quieter weighs on both sides alike.
///
/// `--setup` and `--cleanup` are the base request's and run once for the
/// session; each side's `--prepare` runs before each of its launches (the
/// command line gives both sides the same commands).
///
/// Counted launches come in stages: at each stage's count per side the stop
/// rule (``ComparisonRule``, the comparison plan's look) looks at what was
/// collected and says whether to stop (a verdict reached) or go on to the next stage. Interruption and launches that cannot be started
/// follow ``MeasureSession``: nothing measured is lost.
///
/// ```swift
/// var rule = ComparisonRule(plan: plan, base: base.plan, head: head.plan, budget: budget)
/// let compared = try CompareSession.run(base: base, head: head, stages: plan.stages, progress: nil, rule: &rule)
/// ```
public enum CompareSession {
    /// Compares `base` and `head` (their plans' `runs` are ignored: `stages`
    /// sets the counted launches per side, cumulatively; their warm-ups are used).
    ///
    /// - Parameter rule: Asked at the end of each stage, with both sides so far
    ///   and the stage's index, whether to stop there; it keeps what it saw.
    /// - Throws: ``LaunchError`` when the first launch of either side cannot be started.
    public static func run(
        base: SessionRequest, head: SessionRequest, stages: [Int], progress: (any MeasureProgress)?,
        rule: inout some StopRule
    ) throws(LaunchError) -> ComparedLaunches {
        try run(
            base: base, head: head, stages: stages, progress: progress, rule: &rule, platform: SystemLaunchPlatform())
    }

    /// Compares `base` and `head` on `platform` (tests give one that launches nothing).
    package static func run(
        base: SessionRequest, head: SessionRequest, stages: [Int], progress: (any MeasureProgress)?,
        rule: inout some StopRule, platform: any LaunchPlatform
    ) throws(LaunchError) -> ComparedLaunches {
        precondition(
            !stages.isEmpty && stages[0] > 0 && zip(stages, stages.dropFirst()).allSatisfy(<),
            "stages must be increasing and positive")
        let scope = SessionScope(progress: progress, platform: platform)
        defer { scope.end() }
        let sides = [LaunchSide(request: base), LaunchSide(request: head)]
        let names = ComparisonSide.allCases.map(\.rawValue)
        let total = stages.last!
        var stagesRun = 0
        var countedLaunches: (runs: [[RunRecord]], stop: SessionStop?) = ([[], []], nil)
        guard try scope.setUp(base.commands) else {
            return ComparedLaunches(
                base: sides[0].collected(in: scope, stopSignal: scope.stopSignal),
                head: sides[1].collected(in: scope, stopSignal: scope.stopSignal), stagesRun: 0)
        }

        /// One launch of side `which`; false when the session must end.
        func launch(_ which: Int) throws(LaunchError) -> Bool {
            if scope.stopRequested { return false }
            let side = sides[which]
            let record = try side.launchNext(scope: scope)
            if side.stop != nil { return false }
            if let record {
                progress?.runFinished(
                    record, side: names[which], counted: record.index, of: total, warmup: record.isWarmup,
                    elapsedSeconds: scope.elapsed)
            }
            return !scope.stopRequested
        }

        do {
            session: do {
                let warmup = max(base.plan.warmup, head.plan.warmup)
                for round in 0..<warmup {
                    for which in round % 2 == 0 ? [0, 1] : [1, 0] {
                        guard try launch(which) else { break session }
                    }
                }
                var counted = 0
                for (stage, target) in stages.enumerated() {
                    while counted < target {
                        // ABBA: even rounds base first, odd rounds head first.
                        for which in counted % 2 == 0 ? [0, 1] : [1, 0] {
                            guard try launch(which) else { break session }
                        }
                        counted += 1
                    }
                    stagesRun = stage + 1
                    let (a, b) = (
                        sides[0].collected(in: scope, stopSignal: nil), sides[1].collected(in: scope, stopSignal: nil)
                    )
                    if rule.stop(afterStage: stage, base: a, head: b) { break }
                }
                if base.plan.countedLaunches > 0, !scope.stopRequested,
                    sides.allSatisfy({ $0.stop == nil && !$0.runs.successful.isEmpty })
                {
                    countedLaunches = CountedLaunches.run(
                        [base, head], sides: ComparisonSide.allCases, timed: sides.map(\.runs), scope: scope,
                        progress: progress)
                }
            }
        } catch {
            _ = scope.cleanUp(base.commands)
            throw error
        }
        let cleanupFailure = scope.cleanUp(base.commands)
        progress?.finished()
        let signal = scope.stopSignal
        // The side that stopped keeps its own stop; the other's names that side.
        let stop =
            zip(ComparisonSide.allCases, sides).compactMap { which, side in
                side.stop.map { stop in
                    var named = stop
                    named.side = which
                    return named
                }
            }.first ?? countedLaunches.stop ?? cleanupFailure
        var compared = ComparedLaunches(
            base: sides[0].collected(in: scope, stopSignal: signal, stop: stop),
            head: sides[1].collected(in: scope, stopSignal: signal, stop: stop),
            stagesRun: stagesRun)
        (compared.base.countedRuns, compared.head.countedRuns) = (countedLaunches.runs[0], countedLaunches.runs[1])
        return compared
    }
}
