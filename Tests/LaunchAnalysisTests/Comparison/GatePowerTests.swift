import Foundation
import Testing
import _LaunchProfTestSupport

@testable import LaunchAnalysis

/// Issue 21's power promise, "not lower than today's", put to the test: the gate's
/// rule and the rule before it (commit f6bc482) judge the same seeded launches side
/// by side, at one look of n launches a side, CV 5 %, ε 5 %, α 0.01, 1,000 trials per
/// cell (the ids and draws of ``GateAuditTests/power()``, so the new rule's rates are
/// those the README quotes).
///
/// The rule before: the Holm-adjusted p of "slower at all" below α **and** the lower
/// bound of a fixed 95 % Moses interval above e = ln(1 + ε), a test of "slower by more
/// than ε" at 2.5 % one-sided whatever α. The rule now: the Mann–Whitney test of
/// log(head) − e against log(base) below α (Holm and the stage split play no part at
/// one look of one metric). The Moses lower bound at level a is above e exactly when
/// that shifted test rejects at a (the interval is the test inverted), so at equal
/// size the two rules are one test: the power the new rule lacks is the size the old
/// one had beyond α at ε. No test at level α does better on these launches than the
/// z-test of the mean log time with σ known (Neyman–Pearson, log-normal launches):
/// its power, Φ(δ/(σ√(2/n)) − z₁₋α) with δ = ln(1 + shift) − e, is printed beside.
@Suite("Gate power: the rule before and now, side by side")
struct GatePowerTests {
    static let alpha = 0.01
    static let effect = log(1.05)
    static let noise = GateAudit.Noise.cv(0.05)

    /// What one trial's launches give under each rule.
    struct Verdicts {
        /// The rule before (Holm p of "slower" < α, 95 % Moses lower bound > e).
        var old: Bool
        /// The rule before at equal size: the Moses lower bound one-sided at α (a 98 % interval).
        var oldAtAlpha: Bool
        /// The rule now, as ``GateDecision`` decides.
        var new: Bool
        /// The rule now at 2.5 %, the old rule's level for "more than ε".
        var newAtOldLevel: Bool
        /// The rule now with U's exact null distribution whatever n.
        var newExact: Bool
    }

    /// Both rules on one draw of `n` launches a side, the head `slowdown` slower
    /// (drawn as ``GateAudit/stagedVerdict(stages:metrics:slowdown:noise:settings:using:)`` draws them).
    static func verdicts(n: Int, slowdown: Double, using generator: inout SeededGenerator) -> Verdicts {
        let baseMs = noise.draw(n, scale: 1, using: &generator)
        let headMs = noise.draw(n, scale: slowdown, using: &generator)
        let base = baseMs.map { log($0) }
        let head = headMs.map { log($0) }
        let slower = RankStatistics.mannWhitney(head: head, base: base, alternative: .greater).pValue
        func new(_ alpha: Double) -> Bool {
            GateDecision.compare(
                [(name: "timeToFirstFrame", gated: true, baseMs: baseMs, headMs: headMs)],
                settings: GateSettings(alpha: alpha), alpha: alpha)[0].verdict == .regression
        }
        // U of head − e against base, and its exact upper tail P(U ≥ u).
        let u = RankStatistics.mannWhitneyU(head: head.map { $0 - effect }, base: base)
        let counts = RankStatistics.exactNullCounts(n, n)
        let exactP = counts[Int(u.rounded())...].reduce(0, +) / counts.reduce(0, +)
        return Verdicts(
            old: slower < alpha && RankStatistics.mosesInterval(head: head, base: base, alpha: 0.025).lower > effect,
            oldAtAlpha: slower < alpha
                && RankStatistics.mosesInterval(head: head, base: base, alpha: alpha).lower > effect,
            new: new(alpha), newAtOldLevel: new(0.025), newExact: exactP < alpha)
    }

    /// The most power any level-`alpha` test has against `slowdown` at `n` a side (σ known).
    static func neymanPearsonBound(n: Int, slowdown: Double, alpha: Double) -> Double {
        let delta = log(slowdown) - effect
        return RankStatistics.normalCDF(
            delta / (noise.sigma * (2 / Double(n)).squareRoot()) - RankStatistics.normalQuantile(1 - alpha))
    }

    /// Each rule's regressions over 1,000 trials of scenario `id`: every rule judges
    /// the same launches (one draw per trial, seeded as ``GateAudit/count(id:trials:_:)`` seeds).
    static func rates(id: UInt64, n: Int, slowdown: Double) async -> Rates {
        let rates = await GateAudit.counts(id: id, trials: 1_000, rules: 5) { generator in
            let v = verdicts(n: n, slowdown: slowdown, using: &generator)
            return [v.old, v.oldAtAlpha, v.new, v.newAtOldLevel, v.newExact]
        }
        return Rates(old: rates[0], oldAtAlpha: rates[1], new: rates[2], newAtOldLevel: rates[3], newExact: rates[4])
    }

    /// The rate of each rule of ``Verdicts``.
    struct Rates {
        var old, oldAtAlpha, new, newAtOldLevel, newExact: GateAudit.Rate
    }

    @Test("power at +10 %, +15 %, +30 % for n = 10, 20, 40: the rule before and now, and at equal size")
    func powerSideBySide() async {
        var id: UInt64 = 100
        for n in [10, 20, 40] {
            for slowdown in [1.10, 1.15, 1.30] {
                let rates = await Self.rates(id: id, n: n, slowdown: slowdown)
                let old = rates.old
                let oldAtAlpha = rates.oldAtAlpha
                let new = rates.new
                let atOldLevel = rates.newAtOldLevel
                let exact = rates.newExact
                let bound = Self.neymanPearsonBound(n: n, slowdown: slowdown, alpha: Self.alpha)
                print(
                    "power n=\(n) +\(Int((slowdown - 1) * 100 + 0.5)) % (id \(id)): before \(old); now \(new); "
                        + "before at α (98 % Moses) \(oldAtAlpha); now at 2.5 % \(atOldLevel); now, exact U \(exact); "
                        + String(format: "best level-α test (σ known) %.1f %%", 100 * bound))
                // At equal size the two rules are one test (a Moses bound is the shifted test inverted).
                #expect(abs(oldAtAlpha.count - new.count) <= 10, "n \(n) ×\(slowdown): \(oldAtAlpha) against \(new)")
                // The old rule's level for "more than ε" accounts for what the new rule lacks.
                #expect(atOldLevel.count >= old.count - 15, "n \(n) ×\(slowdown): \(atOldLevel) against \(old)")
                // No level-α test beats Neyman–Pearson's (beyond the simulation's own error).
                #expect(new.wilson.lower <= bound, "n \(n) ×\(slowdown): \(new) above the bound \(bound)")
                id += 1
            }
        }
    }

    /// The price of the old rule's power: its size at ε. The promise "not lower than
    /// today's" at +10 % cannot hold together with "a change of exactly ε is a
    /// regression in at most α": at n = 20 and 40 the best level-α test's power is
    /// below what the old rule found, and the old rule found it by calling a true
    /// +5 % a regression in more than α.
    @Test(
        "at exactly ε the rule before is a regression in more than α, the rule now in at most α; the best level-α test cannot reach the old power at +10 %"
    )
    func theOldPowerWasBoughtWithSize() async {
        for (offset, n) in [10, 20, 40].enumerated() {
            let rates = await Self.rates(id: 120 + UInt64(offset), n: n, slowdown: 1.05)
            print(
                "size at ε (+5 %) n=\(n) (id \(120 + offset)): before \(rates.old); now \(rates.new); "
                    + "before at α \(rates.oldAtAlpha); now, exact U \(rates.newExact)")
            #expect(rates.new.value <= Self.alpha, "\(rates.new)")
            #expect(rates.newExact.value <= Self.alpha, "\(rates.newExact)")
            #expect(rates.old.value > Self.alpha, "the old rule's ε test was at 2.5 %: \(rates.old)")
        }
        // The old rule's +10 % rates (GateAuditTests, ids 100, 103, 106): 43.1, 81.0 and 98.7 %.
        for (n, old) in [(20, 0.810), (40, 0.987)] {
            let bound = Self.neymanPearsonBound(n: n, slowdown: 1.10, alpha: Self.alpha)
            print(
                String(
                    format: "n=%d +10 %%: the best level-α test finds %.1f %%, the old rule %.1f %%", n, 100 * bound,
                    100 * old))
            #expect(bound < old)
        }
    }

    /// The stage split: α spent evenly over the looks (Bonferroni, α/L each: what
    /// ``StagedGate`` did before) against the spending it does now, α·t³ (Kim–DeMets,
    /// O'Brien–Fleming-like: most of α kept for the last look; ``AlphaSpending``), on
    /// the same launches. Each look tests at its increment, so by the union bound both
    /// hold the chance of a false claim over the looks at α.
    static func staged(stages: [Int], slowdown: Double, using generator: inout SeededGenerator) -> (
        even: MetricVerdict, spent: MetricVerdict
    ) {
        let most = stages.last!
        let baseMs = noise.draw(most, scale: 1, using: &generator)
        let headMs = noise.draw(most, scale: slowdown, using: &generator)
        func input(_ count: Int) -> [(name: String, gated: Bool, baseMs: [Double], headMs: [Double])] {
            [
                (
                    name: "timeToFirstFrame", gated: true, baseMs: Array(baseMs.prefix(count)),
                    headMs: Array(headMs.prefix(count))
                )
            ]
        }
        func even() -> MetricVerdict {
            for (index, count) in stages.enumerated() {
                let verdict = GateDecision.compare(
                    input(count), settings: GateSettings(), alpha: alpha / Double(stages.count))[0].verdict
                if verdict != .inconclusive || index == stages.count - 1 { return verdict }
            }
            return .inconclusive
        }
        func spent() -> MetricVerdict {
            let gate = StagedGate(stages: stages, settings: GateSettings())
            for (index, count) in stages.enumerated() {
                let look = gate.look(index, metrics: input(count), primary: "timeToFirstFrame")
                if look.stop { return look.verdict }
            }
            return .inconclusive
        }
        return (even(), spent())
    }

    /// Power and size of the stage split (1,000 trials a cell, ids 130–133 and 140–143):
    /// the gate's α·t³ against α spent evenly on the same launches, at stages 10/20/30 and
    /// 20/40/60, CV 5 %, ε 5 %. At ε both are regressions in at most α; above it, α·t³
    /// finds at least what the even split found, less the simulation's own noise
    /// (paired draws: 1 % of trials).
    @Test("the stage split: α·t³ against α spent evenly, at ε and at +10 %, +15 %, +30 %, stages 10/20/30 and 20/40/60")
    func stageSplit() async {
        for (base, stages) in [(130, [10, 20, 30]), (140, [20, 40, 60])] {
            for (offset, slowdown) in [1.05, 1.10, 1.15, 1.30].enumerated() {
                let id = UInt64(base + offset)
                let rates = await GateAudit.counts(id: id, trials: 1_000, rules: 2) { generator in
                    let verdicts = Self.staged(stages: stages, slowdown: slowdown, using: &generator)
                    return [verdicts.even == .regression, verdicts.spent == .regression]
                }
                let even = rates[0]
                let spent = rates[1]
                print(
                    "stages \(stages.map(String.init).joined(separator: "/")) +\(Int((slowdown - 1) * 100 + 0.5)) % (id \(id)): "
                        + "regression with α even over the looks \(even); with α·t³ \(spent)")
                if slowdown <= 1.05 {
                    #expect(even.value <= Self.alpha && spent.value <= Self.alpha, "at ε: \(even), \(spent)")
                } else {
                    #expect(
                        spent.count >= even.count - 10, "\(stages) ×\(slowdown): α·t³ \(spent) against even \(even)")
                }
            }
        }
    }
}
