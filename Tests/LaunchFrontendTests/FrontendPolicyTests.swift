import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

@testable import LaunchFrontend

/// The Frontend's decisions, tested as values: option declarations, gate and
/// budget precedence, stages and the minimum-runs check, the calibrate rule and
/// the one comparison-naming rule. Nothing here launches a process.
@Suite("Frontend policy")
struct FrontendPolicyTests {
    static let compareOptions: [OptionSpec] =
        LaunchCommandOptions.table(.compare) + [ComparisonOptions.stagesSpec] + ComparisonOptions.table

    static func parsed(_ arguments: [String]) throws -> Arguments { try Arguments(arguments, options: compareOptions) }

    // MARK: Declarations

    @Test func theHelpShowsTheDeclaredDefaultAndTheValueFallsBackToIt() throws {
        let rounds = DefaultedOption<Int>.wholeNumber(
            "--rounds", "N", "A/A comparisons to make", in: 1...100, default: 3)
        #expect(rounds.spec.help == "A/A comparisons to make (default 3)")
        let parsed = try Arguments([], options: [rounds.spec])
        #expect(try parsed[rounds] == 3)
        #expect(try Arguments(["--rounds", "7"], options: [rounds.spec])[rounds] == 7)
        #expect(
            OptionSpec.value(
                "--mode", "MODE", "warm (default)", type: .choice(["warm"]), default: "warm", showsDefault: false
            ).help
                == "warm (default)")
    }

    @Test func aChoiceNamesEveryWordItTakesAndTheNearest() throws {
        let parsed = try Self.parsed(["--mode", "cole"])
        #expect(throws: UsageError.self) { try parsed[LaunchCommandOptions.mode] }
        do { _ = try parsed[LaunchCommandOptions.mode] } catch {
            #expect(error.message == "--mode takes warm, cold or hot, not 'cole'; did you mean 'cold'?")
        }
        #expect(try Self.parsed([])[LaunchCommandOptions.mode] == .warm)
    }

    @Test func aWholeNumberOutOfItsDeclaredRangeIsNamed() throws {
        do {
            _ = try Self.parsed(["--runs", "0"])[LaunchCommandOptions.runs(.compare)]
            Issue.record("--runs 0 was taken")
        } catch let error as UsageError {
            #expect(error.message == "--runs takes a whole number from 1 to 100000, not '0'")
        }
        #expect(try Self.parsed([])[LaunchCommandOptions.runs(.compare)] == 20)  // compare's declared default
    }

    // MARK: Gate and budget precedence

    @Test func optionsWinOverTheBudgetFileWhichWinsOverTheDefaults() throws {
        var budget = LaunchBudget()
        budget.alpha = 0.05
        budget.minimumEffectPercent = 10
        budget.gate = ["phase:didFinishLaunching"]
        let fromFile = try ComparisonOptions(Self.parsed([]), budget: budget)
        #expect(
            fromFile.settings.alpha == 0.05 && fromFile.settings.minimumEffectPercent == 10
                && fromFile.settings.minimumEffectMs == 5)
        #expect(fromFile.gate == .listed([.phase(.didFinishLaunching)]))
        let given = try ComparisonOptions(
            Self.parsed(["--alpha", "0.02", "--min-effect", "3%", "--gate", "span:A, span:B"]), budget: budget)
        #expect(given.settings.alpha == 0.02 && given.settings.minimumEffectPercent == 3)
        #expect(given.gate == .listed([.span("A"), .span("B")]))
        #expect(try ComparisonOptions(Self.parsed(["--gate", "all"]), budget: budget).gate == .all)
        // A misspelt phase is refused before anything is launched, with the nearest phase.
        #expect(throws: UsageError.self) {
            try ComparisonOptions(Self.parsed(["--gate", "phase:didFinishLaunchnig"]), budget: nil)
        }
        let none = try ComparisonOptions(Self.parsed([]), budget: nil)
        #expect(none.settings == GateSettings() && none.gate == .listed([]) && !none.failOverBudget)
    }

    // MARK: Stages and the minimum-runs check

    @Test func stagesDefaultToRunsTwiceAndThriceAndMustAgreeWithRuns() throws {
        #expect(try ComparisonOptions.stages(Self.parsed([]), runs: 20) == [20, 40, 60])
        #expect(try ComparisonOptions.stages(Self.parsed(["--stages", "10,30"]), runs: 20) == [10, 30])
        #expect(throws: UsageError.self) { try ComparisonOptions.stages(Self.parsed(["--stages", "30,10"]), runs: 20) }
        #expect(throws: UsageError.self) {
            try ComparisonOptions.stages(Self.parsed(["--runs", "20", "--stages", "10,30"]), runs: 20)
        }
    }

    @Test func aFirstStageTooSmallToEverDecideIsRefused() throws {
        func check(_ runs: Int, gate: GatedMetrics = .listed([]), metrics: [LaunchMetric] = [.wall]) throws {
            try ComparisonOptions.checkMinimumRuns(
                stages: [runs, 2 * runs, 3 * runs], settings: GateSettings(), gate: gate, metrics: metrics)
        }
        #expect(throws: UsageError.self) { try check(3) }
        try check(20)
        // α spent as α·t³: the first of three looks tests at 0.01/27, which 6 a side cannot reach (1/924) and 7 can (1/3,432).
        #expect(throws: UsageError.self) { try check(6) }
        try check(7)
        do {
            try check(6)
        } catch let error as UsageError {
            #expect(
                "\(error)".contains("--runs 6 is too few") && "\(error)".contains("fewer than 7 launches per side"),
                "\(error)")
        }
        // Where the command takes --stages, the refusal names the single look that makes --runs 6 legal.
        do {
            try ComparisonOptions.checkMinimumRuns(
                stages: [6, 12, 18], settings: GateSettings(), gate: .listed([]), takesStages: true)
            Issue.record("--runs 6 over three looks was accepted")
        } catch let error as UsageError {
            #expect("\(error)".contains("(or --stages 6: a single look"), "\(error)")
        }
        // One look (a baseline, stored reports) keeps α whole: 5 a side.
        try ComparisonOptions.checkMinimumRuns(stages: [5], settings: GateSettings(), gate: .listed([]))
        // Issue 21: --gate all counted as one metric, so --runs 6 was accepted over three looks and could never decide.
        #expect(throws: UsageError.self) { try check(7, gate: .all) }
        let least = GateSettings().minimumRuns(gatedMetrics: ComparisonMetrics.most(budgetSpans: 0), looks: 3)
        try check(least, gate: .all)
        #expect(throws: UsageError.self) { try check(least - 1, gate: .all) }
        // With --metric wall,cpu, --gate all gates CPU time too: one metric more to count.
        #expect(
            ComparisonMetrics.most(budgetSpans: 0, metrics: [.wall, .cpu]) == ComparisonMetrics.most(budgetSpans: 0) + 1
        )
        let withCPU = GateSettings().minimumRuns(
            gatedMetrics: ComparisonMetrics.most(budgetSpans: 0, metrics: [.wall, .cpu]), looks: 3)
        #expect(throws: UsageError.self) { try check(withCPU - 1, gate: .all, metrics: [.wall, .cpu]) }
        // Stages of another shape are refused by the look that cannot decide: 8 a side at (8/100)³ of α.
        #expect(throws: UsageError.self) {
            try ComparisonOptions.checkMinimumRuns(stages: [8, 100], settings: GateSettings(), gate: .listed([]))
        }
        try ComparisonOptions.checkMinimumRuns(stages: [20, 100], settings: GateSettings(), gate: .listed([]))
    }

    // MARK: The calibrate rule and naming

    /// One A/A round of the primary metric with the given launches a side.
    static func round(base: [Double], head: [Double], interval: Interval = [-2.2, 1.1]) -> MetricComparison {
        MetricComparison(
            name: "timeToFirstFrame", gated: true, baseMs: base, headMs: head, shiftMs: 1, shiftPercent: 1,
            intervalMs: [-0.3, 3.01], intervalPercent: interval, mannWhitneyU: 0, pValue: 1, adjustedPValue: 1,
            verdict: .pass, method: .exact)
    }

    @Test func theRecommendationComesFromTheTargetAndFindsItWithEightyPercentPower() {
        var rule = CalibrationRule()
        // Launches spread about ±4 % around 100 ms (log-normal-like, symmetric in log), two rounds.
        let values = (0..<20).map { 100 * exp(0.04 * RankStatistics.normalQuantile((Double($0) + 0.5) / 20)) }
        rule.add(Self.round(base: values, head: values.reversed()))
        rule.add(Self.round(base: values.map { $0 * 1.02 }, head: values.map { $0 * 1.02 }, interval: [-3, 2.5]))
        #expect(abs(rule.noise - 0.04) < 0.004, "σ of log time: \(rule.noise)")
        #expect(rule.widestPercent == 3)
        for target in [0.05, 0.10, 0.30] {
            let (effect, reached) = rule.recommendedEffect(target: target, runs: 20, alpha: 0.01)
            #expect(reached && effect > 0 && effect < target)
            // The recommendation catches the target by compare's last default stage, at that look's
            // share of α (α·t³: 19/27 of it), and a half percent more would not.
            let level = 0.01 * 19 / 27
            #expect(abs(CalibrationRule.lookLevels(alpha: 0.01).last! - level) < 1e-15)
            #expect(rule.minimumDetectable(runs: 60, effect: effect, level: level) <= target)
            // The largest such ε when the noise is at its interval's upper end, the most it may be.
            let largest = rule.largestEffect(
                target: target, runs: 20, alpha: 0.01, sigma: rule.noiseInterval().upperBound)
            #expect(effect <= largest && largest < effect + 0.005)
            #expect(rule.launchesNeeded(target: target, effect: effect, level: level)! <= 60)
            #expect(
                rule.minimumDetectable(runs: 20, effect: effect, level: level)
                    > rule.minimumDetectable(runs: 60, effect: effect, level: level))
        }
        // The recommendation falls as the noise grows and never jumps back up (issue 34: 5.0 % then 1.0 %
        // back to back on the same binary): noisier rounds never recommend a larger ε.
        var previous = 1.0
        for spread in stride(from: 0.005, through: 0.2, by: 0.005) {
            var noisy = CalibrationRule()
            let launches = (0..<20).map { 100 * exp(spread * RankStatistics.normalQuantile((Double($0) + 0.5) / 20)) }
            noisy.add(Self.round(base: launches, head: launches))
            let (effect, _) = noisy.recommendedEffect(target: 0.10, runs: 20, alpha: 0.01)
            #expect(effect <= previous, "σ \(spread): ε \(effect) after \(previous)")
            previous = effect
        }
        // A target inside the noise at these launch counts: the smallest step, and the launches it needs are more than 60.
        let (small, reached) = rule.recommendedEffect(target: 0.01, runs: 20, alpha: 0.01)
        #expect(!reached && small == 0.005)
        #expect(rule.launchesNeeded(target: 0.01, effect: small, level: 0.01 * 19 / 27)! > 60)
        #expect(rule.launchesNeeded(target: 0.05, effect: 0.05, level: 0.01) == nil)
        // The rounds are the sessions stored beside a baseline.
        let spread = rule.spread(metric: "timeToFirstFrame")
        #expect(spread.source == .sessions && spread.sessionMediansMs.count == 2)
        #expect(abs(spread.percent - 2) < 1e-9)
        #expect(rule.milliseconds(effect: 0.05) == 5)
    }

    @Test func aComparisonIsNamedByOneRuleCutWithTheHashWhenLong() {
        #expect(ReportName.comparison("naive", "slowed", hashing: ["a", "--vs--", "b"]) == "compare-naive-vs-slowed")
        let long = ReportName.comparison(String(repeating: "x", count: 50), "y", hashing: ["a", "--vs--", "b"])
        #expect(long.count <= ReportFileName.maximumLength)
        #expect(long.hasSuffix(ReportFileName.hash(of: ["a", "--vs--", "b"])))
    }
}
