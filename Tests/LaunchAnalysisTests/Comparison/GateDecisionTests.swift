import Foundation
import LaunchAnalysis
import Testing

/// Hand-made comparisons, one per verdict, and the rules around them.
@Suite("Gate decision")
struct GateDecisionTests {
    /// Twenty base launches, 390.0 … 409.0 ms, no two equal.
    static let base = (0..<20).map { 390 + Double($0) }

    static func compare(
        _ head: [Double], base: [Double] = base, settings: GateSettings = GateSettings(), alpha: Double = 0.01
    ) -> MetricComparison {
        GateDecision.compare(
            [(name: "timeToFirstFrame", gated: true, baseMs: base, headMs: head)], settings: settings, alpha: alpha)[0]
    }

    // MARK: Verdicts

    @Test("20 % slower everywhere is a regression")
    func regression() {
        let result = Self.compare(Self.base.map { $0 * 1.2 })
        #expect(result.verdict == .regression)
        #expect(result.method == .exact)
        #expect(result.mannWhitneyU == 400)
        #expect(result.slowerPValue < 1e-10)
        #expect(result.pValue < 1e-10)  // "more than ε slower", tested directly
        #expect(result.level == 0.01 && abs(result.confidence - 0.98) < 1e-12)  // the interval at the decision's level
        #expect(abs(result.shiftPercent - 20) < 1e-9)
        #expect(result.intervalPercent.lower > 5 && result.intervalPercent.upper > result.intervalPercent.lower)
        #expect(abs(result.shiftMs - 399.5 * 0.2) < 1e-9)  // at the base median
    }

    @Test("20 % faster everywhere is an improvement")
    func improvement() {
        let result = Self.compare(Self.base.map { $0 * 0.8 })
        #expect(result.verdict == .improvement)
        #expect(result.pValue > 0.99)  // the stored p is the "slower" one
        #expect(result.intervalPercent.upper < -5)
    }

    @Test("no change is a pass")
    func pass() {
        let result = Self.compare(Self.base.map { $0 + 0.25 })
        #expect(result.verdict == .pass)
        #expect(result.intervalPercent.upper < 5)
    }

    @Test("three launches a side, far apart, cannot tell")
    func inconclusive() {
        let result = Self.compare([320, 510, 390], base: [300, 500, 400])
        #expect(result.verdict == .inconclusive)
    }

    @Test("a significant change smaller than ε passes")
    func significantButSmall() {
        let tight = (0..<20).map { 400 + Double($0) / 10 }
        let result = Self.compare(tight.map { $0 * 1.03 }, base: tight)
        #expect(result.slowerPValue < 1e-10)
        #expect(result.pValue > 0.5)  // "more than ε slower" is far from significant
        #expect(result.passPValue < 1e-10)  // "less than ε slower" is significant: a pass
        #expect(result.verdict == .pass)
        // With ε = 2 % it is a regression.
        #expect(
            Self.compare(tight.map { $0 * 1.03 }, base: tight, settings: GateSettings(minimumEffectPercent: 2)).verdict
                == .regression)
    }

    @Test("the absolute ε governs a short metric: 8 % of 50 ms is under 5 ms")
    func absoluteEffectFloor() {
        let short = (0..<20).map { 50 + Double($0) / 100 }
        #expect(Self.compare(short.map { $0 * 1.08 }, base: short).verdict == .pass)
        #expect(Self.compare(short.map { $0 * 1.15 }, base: short).verdict == .regression)
    }

    @Test("Holm across the gated metrics: five launches clear one metric, not three")
    func holmAcrossGatedMetrics() {
        let base = [400.0, 401, 402, 403, 404]
        let head = [500.0, 501, 502, 503, 504]
        func run(gated: Int) -> [MetricComparison] {
            let metrics = (0..<3).map { (name: "m\($0)", gated: $0 < gated, baseMs: base, headMs: head) }
            return GateDecision.compare(metrics, settings: GateSettings(), alpha: 0.01)
        }
        // p = 1/252 each: Holm gives 3/252 > 0.01 with three gated metrics, 1/252 with one.
        #expect(run(gated: 3).map(\.verdict) == [.inconclusive, .inconclusive, .inconclusive])
        let one = run(gated: 1)
        #expect(one[0].verdict == .regression)
        #expect(one[0].adjustedPValue == one[0].pValue)
        #expect(one[1].verdict == .regression && one[1].adjustedPValue == one[1].pValue)  // ungated: no adjustment
        let two = run(gated: 2)
        #expect(two[0].adjustedPValue == RankStatistics.holm([two[0].pValue, two[1].pValue])[0])
        #expect(two.map(\.verdict) == [.regression, .regression, .regression])  // 2/252 < 0.01
        #expect(GateSettings().minimumRuns(gatedMetrics: 3) == 6)
    }

    @Test("values below 1 µs count as 0.001 ms; an empty side is inconclusive")
    func edgeValues() {
        let tiny = GateDecision.compare(
            [(name: "span:Tiny", gated: true, baseMs: [0, -1, 0.0005], headMs: [0.0001, 0, 0.001])],
            settings: GateSettings(), alpha: 0.01)[0]
        #expect(tiny.mannWhitneyU == 4.5)  // every log is ln 0.001: all ties
        #expect(tiny.shiftPercent == 0)
        #expect(tiny.verdict != .regression)
        let empty = Self.compare([])
        #expect(empty.verdict == .inconclusive)
        #expect(empty.pValue == 1)
    }

    @Test("the report's JSON form round-trips, with the method as text")
    func codable() throws {
        let result = Self.compare(Self.base.map { $0 * 1.2 })
        let data = try JSONEncoder().encode(result)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["method"] as? String == "exact")
        #expect(object["verdict"] as? String == "regression")
        #expect((object["intervalMs"] as? [Double])?.count == 2)
        #expect(try JSONDecoder().decode(MetricComparison.self, from: data) == result)
    }

    // MARK: Overall

    static func metric(_ name: String, _ verdict: MetricVerdict, gated: Bool = true) -> MetricComparison {
        MetricComparison(
            name: name, gated: gated, baseMs: [], headMs: [], shiftMs: 0, shiftPercent: 0, intervalMs: [0, 0],
            intervalPercent: [0, 0], mannWhitneyU: 0, pValue: 1, adjustedPValue: 1, verdict: verdict, method: .exact)
    }

    @Test("overall: any gated regression wins; ungated metrics do not count")
    func overallRegression() {
        let ttff = "timeToFirstFrame"
        #expect(
            GateDecision.overall([Self.metric(ttff, .improvement), Self.metric("phase:x", .regression)], primary: ttff)
                == .regression)
        #expect(
            GateDecision.overall(
                [Self.metric(ttff, .pass), Self.metric("span:y", .regression, gated: false)], primary: ttff) == .pass)
        #expect(
            GateDecision.overall(
                [Self.metric(ttff, .inconclusive), Self.metric("phase:x", .regression)], primary: ttff) == .regression)
    }

    @Test("overall: improvement needs the primary metric improved and the other gated ones fine")
    func overallImprovement() {
        let ttff = "timeToFirstFrame"
        #expect(
            GateDecision.overall([Self.metric(ttff, .improvement), Self.metric("phase:x", .pass)], primary: ttff)
                == .improvement)
        #expect(
            GateDecision.overall([Self.metric(ttff, .pass), Self.metric("phase:x", .improvement)], primary: ttff)
                == .pass)
        #expect(
            GateDecision.overall(
                [Self.metric(ttff, .improvement), Self.metric("phase:x", .inconclusive)], primary: ttff)
                == .inconclusive)
        #expect(
            GateDecision.overall([Self.metric(ttff, .inconclusive), Self.metric("phase:x", .pass)], primary: ttff)
                == .inconclusive)
        #expect(
            GateDecision.overall(
                [Self.metric(ttff, .pass), Self.metric("phase:x", .inconclusive, gated: false)], primary: ttff) == .pass
        )
    }

    // MARK: Settings

    @Test("minimumRuns: 5 for one metric at 0.01, and the exact test agrees")
    func minimumRuns() {
        let settings = GateSettings()
        #expect(settings.minimumRuns(gatedMetrics: 1) == 5)
        // the first look's 0.01/27: 1/924 ≥ 0.00037 > 1/3,432
        #expect(settings.minimumRuns(gatedMetrics: 1, looks: 3) == 7)
        #expect(settings.minimumRuns(gatedMetrics: 3, looks: 3) == 8)  // 0.01/27/3: 1/3,432 ≥ 0.00012 > 1/12,870
        #expect(GateSettings.minimumRuns(level: 0.01) == 5 && GateSettings.minimumRuns(level: 0) == .max)
        #expect(GateSettings(alpha: 0.05).minimumRuns(gatedMetrics: 1) == 4)  // 1/20 is not below 0.05
        #expect(settings.minimumRuns(gatedMetrics: 10) == 7)  // 1/3432 < 0.001 ≤ 1/924
        // The smallest p the exact test can give with n launches a side is 1/C(2n, n).
        for gated in 1...4 {
            let n = settings.minimumRuns(gatedMetrics: gated)
            let threshold = settings.alpha / Double(gated)
            func smallestP(_ n: Int) -> Double {
                let base = (0..<n).map(Double.init)
                return RankStatistics.mannWhitney(head: base.map { $0 + 100 }, base: base, alternative: .greater).pValue
            }
            #expect(smallestP(n) < threshold)
            #expect(smallestP(n - 1) >= threshold)
        }
    }

    @Test("minimumEffectRatio is the larger of the relative and the absolute threshold")
    func minimumEffectRatio() {
        let settings = GateSettings()
        #expect(settings.minimumEffectRatio(baseMedianMs: 400) == 0.05)
        #expect(settings.minimumEffectRatio(baseMedianMs: 50) == 0.1)
        #expect(settings.minimumEffectRatio(baseMedianMs: 100) == 0.05)
        #expect(settings.minimumEffectRatio(baseMedianMs: 0) == .infinity)
        #expect(GateSettings(minimumEffectPercent: 2, minimumEffectMs: 0).minimumEffectRatio(baseMedianMs: 0) == 0.02)
    }

    // MARK: Staged gate

    @Test("α·t³: each look's share of α by its information fraction, adding up to α")
    func alphaSpending() {
        #expect(AlphaSpending.spent(0.5) == 0.125 && AlphaSpending.spent(2) == 1 && AlphaSpending.spent(-1) == 0)
        // 10/20/30 and 20/40/60 spend alike: the fractions are the same.
        #expect(
            AlphaSpending.levels(alpha: 0.01, stages: [10, 20, 30])
                == AlphaSpending.levels(alpha: 0.01, stages: [20, 40, 60]))
        // Unequal stages: 10 of 40 is t = 1/4, so the first look gets α/64.
        let uneven = AlphaSpending.levels(alpha: 0.05, stages: [10, 40])
        #expect(abs(uneven[0] - 0.05 / 64) < 1e-15 && abs(uneven[1] - 0.05 * 63 / 64) < 1e-15)
        for stages in [[5], [7, 9], [3, 30, 31, 100], [20, 20, 40]] {
            let levels = AlphaSpending.levels(alpha: 0.01, stages: stages)
            #expect(levels.count == stages.count && levels.allSatisfy { $0 >= 0 })
            #expect(abs(levels.reduce(0, +) - 0.01) < 1e-15, "\(stages): \(levels)")
        }
        // A stage that adds no launches adds no information: it spends nothing.
        #expect(AlphaSpending.levels(alpha: 0.01, stages: [20, 20, 40])[1] == 0)
        #expect(AlphaSpending.level(alpha: 0.01, stages: [], look: 3) == 0.01)
    }

    @Test("a staged gate spends α as α·t³ over the looks and stops on a decision or at the last stage")
    func stagedGate() {
        let gate = StagedGate(stages: [3, 6, 9], settings: GateSettings())
        let levels = gate.alphaPerLook
        #expect(levels.count == 3)
        for (level, share) in zip(levels, [1.0, 7, 19]) { #expect(abs(level - 0.01 * share / 27) < 1e-15, "\(levels)") }
        #expect(abs(levels.reduce(0, +) - 0.01) < 1e-15)
        #expect(gate.alpha(atLook: 1) == levels[1] && gate.alpha(atLook: 7) == levels[2])
        #expect(StagedGate(stages: [20], settings: GateSettings()).alpha(atLook: 0) == 0.01)
        #expect(StagedGate(stages: [], settings: GateSettings()).alpha(atLook: 0) == 0.01)
        let unclear = [(name: "timeToFirstFrame", gated: true, baseMs: [300.0, 500, 400], headMs: [320.0, 510, 390])]
        let first = gate.look(0, metrics: unclear, primary: "timeToFirstFrame")
        #expect(first.verdict == .inconclusive && !first.stop)
        let last = gate.look(2, metrics: unclear, primary: "timeToFirstFrame")
        #expect(last.verdict == .inconclusive && last.stop)
        let slower = [(name: "timeToFirstFrame", gated: true, baseMs: Self.base, headMs: Self.base.map { $0 * 1.2 })]
        let decided = gate.look(0, metrics: slower, primary: "timeToFirstFrame")
        #expect(decided.verdict == .regression && decided.stop)
        #expect(decided.metrics.count == 1)
        // The look decides at its own share: the metric's level and interval are the first look's α/27.
        #expect(abs(decided.metrics[0].level - 0.01 / 27) < 1e-15)
    }
}
