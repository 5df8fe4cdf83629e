import Foundation
import LaunchAnalysis
import Testing
import _LaunchProfTestSupport

/// The audit's simulations (issue 21) as seeded tests; see ``GateAudit`` for how
/// launches are drawn. Every scenario runs 1,000 trials from its own seed
/// (``GateSimulationTests/seed`` = 20,240,611 xor the scenario id × 0x9E3779B97F4A7C15;
/// `LAUNCHPROF_TEST_SEED` replays another), at the defaults unless said (α 0.01,
/// ε 5 % / 5 ms — 5 % at 400 ms), and prints its rate with a Wilson 95 % interval.
/// 1,000 trials give a rate of 1 % to within about ±0.7 % (Wilson), enough to tell
/// α = 1 % from the 3–16 % the audit found. The whole suite took 40 s of CPU in a
/// debug build (`time swift test --filter GateAuditTests`: user 40.3 s); the
/// eight-metric, A/A and power tests are the longest, each about 10 s of CPU.
@Suite("Gate audit simulations")
struct GateAuditTests {
    static let staged = [20, 40, 60]

    /// Issue 21: 4.8 % of trials staged and 15.7 % with eight gated metrics before.
    @Test("a true +5 % (= ε) is a regression in at most α of 1,000 trials, staged and with eight gated metrics")
    func exactlyTheMinimumEffect() async {
        let staged = await GateAudit.count(id: 200, trials: 1_000) { generator in
            GateAudit.stagedVerdict(stages: Self.staged, slowdown: 1.05, noise: .cv(0.05), using: &generator)
                == .regression
        }
        print("audit +5 % = ε, stages 20/40/60, CV 5 %: regression in \(staged)")
        #expect(staged.value <= 0.01, "\(staged)")
        let eight = await GateAudit.count(id: 201, trials: 1_000) { generator in
            GateAudit.stagedVerdict(
                stages: Self.staged, metrics: 8, slowdown: 1.05, noise: .cv(0.05), using: &generator) == .regression
        }
        print("audit +5 % = ε on eight gated metrics, stages 20/40/60, CV 5 %: regression in \(eight)")
        #expect(eight.value <= 0.01, "\(eight)")
    }

    /// The README's claim "a regression of ε or more passes in at most α": a pass is
    /// the non-inferiority test "slower by less than ε" at the metric's level, so a true
    /// change of exactly ε (the hardest case) or more passes in at most α over the looks.
    @Test(
        "a true change of ε (+5 %) or more passes in at most α of 1,000 trials, staged, noisy and with eight gated metrics"
    )
    func aRegressionOfTheMinimumEffectDoesNotPass() async {
        for (id, slowdown, cv, metrics) in [
            (211, 1.05, 0.05, 1), (212, 1.05, 0.15, 1), (213, 1.05, 0.05, 8), (214, 1.10, 0.15, 1),
        ] {
            let rate = await GateAudit.count(id: UInt64(id), trials: 1_000) { generator in
                let verdict = GateAudit.stagedVerdict(
                    stages: Self.staged, metrics: metrics, slowdown: slowdown, noise: .cv(cv), using: &generator)
                return verdict == .pass || verdict == .improvement
            }
            print(
                "audit +\(Int((slowdown - 1) * 100)) %, CV \(Int(cv * 100)) %, \(metrics) gated metric(s), stages 20/40/60: pass in \(rate)"
            )
            #expect(rate.value <= 0.01, "\(rate)")
        }
    }

    /// Issue 21: +3 % at CV 15 %, n = 10 was a regression in 1.0 % before.
    @Test("a true +3 % is a regression in none of 1,000 trials")
    func belowTheMinimumEffect() async {
        let rate = await GateAudit.count(id: 202, trials: 1_000) { generator in
            GateAudit.stagedVerdict(stages: Self.staged, slowdown: 1.03, noise: .cv(0.05), using: &generator)
                == .regression
        }
        print("audit +3 %, stages 20/40/60, CV 5 %: regression in \(rate)")
        #expect(rate.count == 0, "\(rate)")
        let noisy = await GateAudit.count(id: 203, trials: 1_000) { generator in
            GateAudit.stagedVerdict(stages: [10, 20, 30], slowdown: 1.03, noise: .cv(0.15), using: &generator)
                == .regression
        }
        print("audit +3 %, stages 10/20/30, CV 15 %: regression in \(noisy)")
        #expect(noisy.value <= 0.01, "\(noisy)")
    }

    /// Issue 21: a real +10 % with one run a side passed in 29.7 % of trials before.
    @Test("one run a side is refused, however far apart, in all of 1,000 trials")
    func oneRunASide() async {
        let refused = await GateAudit.count(id: 204, trials: 1_000) { generator in
            let base = GateAudit.Noise.cv(0.05).draw(1, scale: 1, using: &generator)
            let head = GateAudit.Noise.cv(0.05).draw(1, scale: 1.10, using: &generator)
            let plan = ComparisonPlan(name: "c", source: .storedReports, settings: GateSettings(), stages: [1])
            let report = ComparisonReport(
                plan: plan, base: ComparisonReportTests.measured(base), head: ComparisonReportTests.measured(head),
                stagesRun: 1,
                createdAt: "2026-11-25T10:00:00Z")
            // Refused (too few launches): no verdict, and the JSON's says so (issue 31: it said inconclusive).
            return report.outcome.exitCode.rawValue == 2 && report.verdict == .error
        }
        print("audit one run a side, +10 %: refused (exit 2) in \(refused)")
        #expect(refused.count == 1_000, "\(refused)")
    }

    @Test("A/A at CV 5 %, 15 % and the 10 %-doubled mixture: a regression in at most α of 1,000 trials each")
    func sameBuild() async {
        for (id, noise, label) in [
            (205, GateAudit.Noise.cv(0.05), "CV 5 %"), (206, .cv(0.15), "CV 15 %"),
            (
                207, GateAudit.Noise(coefficientOfVariation: 0.10, doubledShare: 0.10),
                "CV 10 %, 10 % of launches at twice it"
            ),
        ] {
            let rate = await GateAudit.count(id: UInt64(id), trials: 1_000) { generator in
                GateAudit.stagedVerdict(stages: Self.staged, slowdown: 1, noise: noise, using: &generator)
                    == .regression
            }
            print("audit A/A \(label), stages 20/40/60: regression in \(rate)")
            #expect(rate.value <= 0.01, "\(label): \(rate)")
        }
    }

    /// Power at one look of n launches a side, CV 5 %, 1,000 trials each (ids 100…108).
    ///
    /// The same simulation on the rule before issue 21 (commit f6bc482: Holm p of
    /// "slower at all" < α and a fixed 95 % Moses lower bound above ε) gave, for
    /// +10 / +15 / +30 %: n = 10: 43.1 / 95.4 / 100 %; n = 20: 81.0 / 100 / 100 %;
    /// n = 40: 98.7 / 100 / 100 %. That rule tested "more than ε" at 2.5 %, not α,
    /// which is why it called a true +5 % a regression in 3–5 % of trials; a test
    /// at α = 1 % has less power just above ε by construction. The floors below are
    /// this rule's rates less about three standard errors.
    @Test("power at +10 %, +15 %, +30 % for n = 10, 20, 40 (printed)")
    func power() async {
        let floors: [Int: [Double]] = [10: [0.26, 0.88, 0.99], 20: [0.63, 0.99, 0.99], 40: [0.94, 0.99, 0.99]]
        var id: UInt64 = 100
        for n in [10, 20, 40] {
            for (column, slowdown) in [1.10, 1.15, 1.30].enumerated() {
                let rate = await GateAudit.count(id: id, trials: 1_000) { generator in
                    GateAudit.stagedVerdict(stages: [n], slowdown: slowdown, noise: .cv(0.05), using: &generator)
                        == .regression
                }
                print("audit power n=\(n) +\(Int((slowdown - 1) * 100 + 0.5)) %: \(rate)")
                #expect(rate.value >= floors[n]![column], "n = \(n), ×\(slowdown): \(rate)")
                id += 1
            }
        }
    }

    /// Issue 21: a head with half its launches +40 % was a regression in 18–45 % and
    /// otherwise inconclusive, with no word about the two modes.
    @Test(
        "a bimodal head is a regression or named bimodal in at least 90 % of 1,000 trials; a unimodal A/A is named bimodal in at most 5 %"
    )
    func bimodal() async {
        let flagged = await GateAudit.count(id: 208, trials: 1_000) { generator in
            let noise = GateAudit.Noise.cv(0.05)
            let base = noise.draw(20, scale: 1, using: &generator)
            let head = noise.draw(10, scale: 1, using: &generator) + noise.draw(10, scale: 1.4, using: &generator)
            let metric = GateDecision.compare(
                [(name: "timeToFirstFrame", gated: true, baseMs: base, headMs: head)], settings: GateSettings(),
                alpha: 0.01)[0]
            return metric.verdict == .regression || metric.shape?.bimodal != nil
        }
        print("audit bimodal head (half +40 %), 20 a side, CV 5 %: regression or bimodal warning in \(flagged)")
        #expect(flagged.value >= 0.90, "\(flagged)")
        let falseWarnings = await GateAudit.count(id: 209, trials: 1_000) { generator in
            let noise = GateAudit.Noise.cv(0.05)
            let base = noise.draw(20, scale: 1, using: &generator)
            let head = noise.draw(20, scale: 1, using: &generator)
            return ShapeCheck(baseMs: base, headMs: head)?.bimodal != nil
        }
        print("audit A/A, 20 a side, CV 5 %: bimodal warning in \(falseWarnings)")
        #expect(falseWarnings.value <= 0.05, "\(falseWarnings)")
    }

    /// Issue 21: the percentile bootstrap covered 88–92 %.
    @Test(
        "the fleet interval (van Elteren inverted) covers the true shift in at least 95 % of 1,000 trials at 5 launches per machine"
    )
    func fleetCoverage() async {
        let truth = log(1.05)
        let covered = await GateAudit.count(id: 210, trials: 1_000) { generator in
            let strata = [1.0, 1.1, 1.3].map { speed in
                RankStatistics.Stratum(
                    head: GateAudit.Noise.cv(0.05).draw(5, scale: speed * 1.05, using: &generator).map { log($0) },
                    base: GateAudit.Noise.cv(0.05).draw(5, scale: speed, using: &generator).map { log($0) })
            }
            let (lower, upper) = RankStatistics.vanElterenInterval(strata, alpha: 0.025)
            return lower <= truth && truth <= upper
        }
        print("audit fleet 95 % interval, 3 machines × 5 launches a side, CV 5 %, +5 %: covers in \(covered)")
        #expect(covered.value >= 0.95, "\(covered)")
        #expect(covered.wilson.upper >= 0.95)
    }
}
