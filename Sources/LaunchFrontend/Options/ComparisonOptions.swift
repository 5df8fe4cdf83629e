import Foundation
import LaunchAnalysis
import LaunchTracing

/// What `compare` decides with, read once from the options and the budget
/// file: the gated metrics, the significance level and least effect (options
/// first, then the budget file, then the defaults), and whether a head over
/// budget fails.
public struct ComparisonOptions {
    /// The metrics besides the primary one that decide (`--gate`, else the budget file's `gate`).
    var gate: GatedMetrics
    /// The spans the budget file names: what `--gate all` counts before launching.
    var budgetSpans: Int
    var settings: GateSettings
    /// `--fail-over-budget`.
    var failOverBudget: Bool
    /// `--metric`, as ``LaunchCommandOptions`` read it: what decides (wall time, CPU time, instructions).
    var metrics: [LaunchMetric]
    /// `--session-sd`: the between-session standard deviation of log time the user states; nil when not given.
    var sessionSD: Double?

    /// True when a time metric decides (wall time, CPU time, or a `--gate` name): the
    /// launch counts the time test needs are checked then, not for instructions alone.
    var gatesTime: Bool { metrics.contains(.wall) || metrics.contains(.cpu) || gate != .listed([]) }

    /// `gate` with CPU time among the gated metrics when it decides beside wall time, for ``checkMinimumRuns(stages:settings:gate:budgetSpans:metrics:)``.
    var checkedGate: GatedMetrics {
        guard metrics.contains(.cpu), metrics.contains(.wall), case .listed(let ids) = gate, !ids.contains(.cpuTime)
        else { return gate }
        return .listed(ids + [.cpuTime])
    }

    /// Reads the options, rejecting bad values before any launch; which source wins is
    /// ``GateResolution``'s (LaunchAnalysis), not decided here.
    init(_ parsed: Arguments, budget: LaunchBudget?, metrics: [LaunchMetric] = [.wall]) throws {
        self.metrics = metrics
        var resolution = GateResolution()
        resolution.gateNames = try parsed[Self.gate]
        resolution.alpha = try parsed[Self.alpha]
        resolution.minimumEffectPercent = try parsed[Self.minimumEffect]
        resolution.minimumEffectMs = try parsed[Self.minimumEffectMs]
        resolution.sessionSD = try parsed[Self.sessionSD].map { log(1 + $0 / 100) }
        do { (gate, settings) = try resolution.resolve(budget: budget) } catch { throw UsageError("\(error)") }
        sessionSD = resolution.sessionSD
        budgetSpans = budget?.spansMs.count ?? 0
        failOverBudget = parsed[Self.failOverBudget]
    }

    /// The stages: `--stages`, else `--runs` and twice and three times it.
    static func stages(_ parsed: Arguments, runs: Int) throws -> [Int] {
        guard let values = try parsed[Self.stages] else { return [runs, 2 * runs, 3 * runs] }
        if parsed.givenText(LaunchCommandOptions.runs(.compare).option) != nil, values[0] != runs {
            let list = parsed.givenText(Self.stages) ?? ""
            throw UsageError("--runs \(runs) and --stages \(list) disagree: --runs is the first stage")
        }
        return values
    }

    /// Refuses stages too small for the test ever to decide at some look, counting
    /// every metric `gate` can make decide (`all`: every metric a comparison with
    /// `budgetSpans` budgeted spans and `metrics` can have): each look must be able
    /// to reach its share of α (α·t³, ``AlphaSpending``) after Holm. Stages of
    /// `--runs` r (r, 2r, 3r, or r alone) are named by `--runs` and the least r
    /// that can; other stages by the look that cannot.
    /// `takesStages`: the command has `--stages`, so a refusal of `--runs` names the
    /// single look (`--stages r`) that makes r legal, where one does.
    static func checkMinimumRuns(
        stages: [Int], settings: GateSettings, gate: GatedMetrics, budgetSpans: Int = 0,
        metrics: [LaunchMetric] = [.wall], takesStages: Bool = false
    ) throws {
        let gated = gate.count(among: ComparisonMetrics.most(budgetSpans: budgetSpans, metrics: metrics))
        guard let first = stages.first, let short = settings.shortStage(stages: stages, gatedMetrics: gated) else {
            return
        }
        let looks = stages.count
        if stages == (1...looks).map({ $0 * first }) {
            let least = settings.minimumRuns(gatedMetrics: gated, looks: looks)
            let spent =
                looks > 1 ? " spent over \(looks) looks as α·t³ (the first look at α/\(looks * looks * looks))" : ""
            // One look keeps α whole: where it can decide at `first`, say so.
            let oneLook =
                takesStages && looks > 1 && settings.shortStage(stages: [first], gatedMetrics: gated) == nil
                ? " (or --stages \(first): a single look at \(first) launches per side keeps α whole and can decide)"
                : ""
            throw UsageError(
                "--runs \(first) is too few: with α \(settings.alpha)\(spent) and \(gated) gated metric(s), "
                    + "no difference could be significant with fewer than \(least) launches per side" + oneLook)
        }
        throw UsageError("--stages \(stages.map(String.init).joined(separator: ",")): \(short)")
    }

    /// The rule of a comparison named `name` of sides from `source`, deciding at `stages`.
    func rule(name: String, source: ComparisonPlan.Source, stages: [Int], stratifyByMachine: Bool = false)
        -> ComparisonPlan
    {
        var plan = ComparisonPlan(
            name: name, source: source, settings: settings, gate: gate, stages: stages, failOverBudget: failOverBudget,
            stratifyByMachine: stratifyByMachine)
        plan.metrics = metrics
        plan.sessionEvidence.statedSD = sessionSD
        return plan
    }
}
