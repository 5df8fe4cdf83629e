import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

/// Issue 21's rules around the test: the minimum launches, intervals that never
/// claim more coverage than they have, gate names, and ε per metric.
@Suite("Gate rules")
struct GateRulesTests {
    @Test("too few launches: the number needed counts every gated metric and the look's share of α")
    func shortfall() throws {
        let settings = GateSettings()
        let one = try #require(settings.shortfall(baseCount: 1, headCount: 1, gatedMetrics: 1, stages: [1], look: 0))
        #expect(one.neededPerSide == 5)
        #expect(one.description.contains("at least 5 per side"))
        // 1/252 < 0.01
        #expect(settings.shortfall(baseCount: 5, headCount: 5, gatedMetrics: 1, stages: [5], look: 0) == nil)
        #expect(
            // 1/70 ≥ 0.01
            settings.shortfall(baseCount: 4, headCount: 4, gatedMetrics: 1, stages: [4], look: 0)?.neededPerSide == 5)
        // `--runs 7 --gate all`, nine gated metrics: the first of three looks tests at 0.01/27/9 ≈ 0.000041, which
        // 1/C(14, 7) = 1/3,432 and 1/C(16, 8) = 1/12,870 cannot reach and 1/C(18, 9) = 1/48,620 can.
        let first = try #require(
            settings.shortfall(baseCount: 7, headCount: 7, gatedMetrics: 9, stages: [7, 14, 21], look: 0))
        #expect(first.neededPerSide == 9)
        #expect(first.description.contains("level 0.000041: α 0.01's share at look 1 of 3"), "\(first)")
        #expect(settings.shortfall(baseCount: 9, headCount: 9, gatedMetrics: 9, stages: [9, 18, 27], look: 0) == nil)
        // The last look keeps 19/27 of α: 0.0078 over nine metrics, which 7 a side reach (1/3,432) and 6 do not (1/924).
        #expect(settings.shortfall(baseCount: 7, headCount: 7, gatedMetrics: 9, stages: [1, 2, 3], look: 2) == nil)
        #expect(
            settings.shortfall(baseCount: 6, headCount: 6, gatedMetrics: 9, stages: [1, 2, 3], look: 2)?.neededPerSide
                == 7)
        // Per side, not both together: 3 head launches against 30 (1/C(33, 3) < 0.01) are too few, and one against a hundred.
        #expect(
            settings.shortfall(baseCount: 30, headCount: 3, gatedMetrics: 1, stages: [30], look: 0)?.neededPerSide == 5)
        #expect(
            settings.shortfall(baseCount: 100, headCount: 1, gatedMetrics: 1, stages: [100], look: 0)?.neededPerSide
                == 5)
        #expect(settings.shortfall(baseCount: 5, headCount: 100, gatedMetrics: 1, stages: [100], look: 0) == nil)
        #expect(settings.shortfall(baseCount: 30, headCount: 0, gatedMetrics: 1, stages: [30], look: 0) != nil)
    }

    @Test("every look of the stages must be able to decide at its share of α")
    func shortStage() throws {
        let settings = GateSettings()
        // 6, 12, 18 a side: the first look's α/27 needs 7 a side (1/924 ≥ 0.00037 > 1/3,432); 7, 14, 21 can.
        let six = try #require(settings.shortStage(stages: [6, 12, 18], gatedMetrics: 1))
        #expect(six.neededPerSide == 7 && six.subject.contains("6 launches"), "\(six)")
        #expect(settings.shortStage(stages: [7, 14, 21], gatedMetrics: 1) == nil)
        #expect(settings.minimumRuns(gatedMetrics: 1, looks: 3) == 7)
        // A first look far from the last spends almost nothing: (8/100)³ of α is 0.0000051, out of reach of 8 a side (11 reach it).
        let early = try #require(settings.shortStage(stages: [8, 100], gatedMetrics: 1))
        #expect(
            early.neededPerSide == GateSettings.minimumRuns(level: 0.01 * pow(0.08, 3)) && early.neededPerSide > 8,
            "\(early)")
        #expect(early.neededPerSide == 11 && early.subject.contains("8 launches"))
        #expect(
            early.description.contains("level 0.0000051: α 0.01's share at look 1 of 2 (α·t³, t = 8/100)"), "\(early)")
        // A late look with a thin share: 20, 100, 101 leaves (1 − (100/101)³)·α ≈ 0.0003 for the third look, which 101 reach.
        #expect(settings.shortStage(stages: [20, 100, 101], gatedMetrics: 1) == nil)
        // One look: α whole, as before.
        #expect(settings.shortStage(stages: [5], gatedMetrics: 1) == nil)
        #expect(settings.shortStage(stages: [4], gatedMetrics: 1)?.neededPerSide == 5)
    }

    @Test("one run a side is refused on every path: stored reports, baselines and fleets alike")
    func oneRunASideIsRefused() throws {
        for source in [ComparisonPlan.Source.storedReports, .baseline, .interleaved] {
            let plan = ComparisonPlan(name: "c", source: source, settings: GateSettings(), stages: [1])
            let report = ComparisonReport(
                plan: plan, base: ComparisonReportTests.measured([100]), head: ComparisonReportTests.measured([110]),
                stagesRun: 1,
                createdAt: "2026-11-25T10:00:00Z")
            #expect(report.outcome.exitCode.rawValue == 2, "\(source)")
            #expect(report.problem?.contains("at least 5 per side") == true, "\(String(describing: report.problem))")
        }
    }

    @Test("a fleet comparison needs 5 launches per machine and side")
    func fleetStrata() throws {
        let plan = ComparisonPlan(
            name: "c", source: .storedReports, settings: GateSettings(), stages: [1], stratifyByMachine: true)
        let metrics = try ComparisonMetrics(
            base: ComparisonReportTests.measured(ComparisonReportTests.around(100, 10)),
            head: ComparisonReportTests.measured(ComparisonReportTests.around(100, 10)),
            gate: .listed([]))
        var split = metrics
        // Two machines, one with 4 launches a side.
        split.series[0].machines = GateDecision.Machines(
            base: (0..<10).map { $0 < 6 ? "a" : "b" }, head: (0..<10).map { $0 < 6 ? "a" : "b" })
        let short = try #require(plan.shortfall(split, look: 0))
        #expect(short.neededPerSide == 5 && short.subject.contains("machine 'b'"), "\(short)")
        split.series[0].machines = GateDecision.Machines(
            base: (0..<10).map { $0 < 5 ? "a" : "b" }, head: (0..<10).map { $0 < 5 ? "a" : "b" })
        #expect(plan.shortfall(split, look: 0) == nil)
    }

    /// The Moses interval at 95 % cannot reach its level with 1 to 3 launches a side
    /// (1/C(2n, n) = 1/2, 1/6, 1/20 > 2.5 %): no finite bound is reported.
    @Test("no interval is reported below its nominal coverage", arguments: [1, 2, 3])
    func noIntervalBelowItsLevel(_ n: Int) {
        let base = (0..<n).map { 400 + Double($0) }
        let head = (0..<n).map { 440 + Double($0) }
        let interval = RankStatistics.mosesInterval(head: head, base: base)
        #expect(interval.lower == -.infinity && interval.upper == .infinity)
        let four = RankStatistics.mosesInterval(head: head + [444], base: base + [404])
        #expect(n != 3 || (four.lower.isFinite && four.upper.isFinite))  // 1/C(8, 4) = 1/70 ≤ 2.5 %
    }

    @Test("a misspelt gate name is named with the nearest metric the comparison has")
    func gateNames() throws {
        #expect(Spelling.editDistance("kitten", "sitting") == 3)
        #expect(Spelling.editDistance("", "abc") == 3)
        let available: [MetricID] = [
            .total(.timeToFirstFrame), .phase(.didFinishLaunching), .phase(.willFinishLaunching),
            .span("DecodeCatalog"),
        ]
        let unknown = try #require(
            GateNames.firstUnknown(.listed([.phase(.didFinishLaunching), .span("Nope")]), available: available))
        #expect(unknown.name == "span:Nope" && unknown.nearest == "span:DecodeCatalog")
        #expect(GateNames.firstUnknown(.all, available: available) == nil)
        #expect(GateNames.firstUnknown(try GatedMetrics(parsing: ["all", "span:Nope"]), available: available) == nil)

        // A misspelt phase is refused where the names are read, before anything is measured.
        #expect(
            throws: ComparisonError.unknownGateName(
                name: "phase:didFinishLaunchnig", nearest: "phase:didFinishLaunching")
        ) {
            try GatedMetrics(parsing: ["phase:didFinishLaunchnig"])
        }
        // A span the comparison does not have is refused by the comparison, with the nearest metric it has.
        let side = try MeasurementReportTests.instrumented()
        #expect(throws: ComparisonError.self) {
            try ComparisonMetrics(base: side, head: side, gate: .listed([.span("Nope")]))
        }
        let report = ComparisonReportTests.compare(side, side, gate: ["span:Nope"])
        #expect(report.outcome.exitCode.rawValue == 2)
        #expect(report.outcome.reason.hasPrefix("unknown gate metric 'span:Nope': did you mean"))
    }

    /// Issue 21: a 0.73 ms phase was held to the 5 ms floor, about 680 %.
    @Test("ε per metric: the absolute floor is scaled by the metric's share of the launch")
    func effectPerMetric() {
        let settings = GateSettings()
        #expect(abs(settings.minimumEffectRatio(baseMedianMs: 0.73) - 5 / 0.73) < 1e-12)  // the whole floor: ≈ 685 %
        // the relative 5 % decides
        #expect(abs(settings.minimumEffectRatio(baseMedianMs: 0.73, floorShare: 0.73 / 400) - 0.05) < 1e-12)
        let base = (0..<20).map { 400 + Double($0) }
        let head = base.map { $0 * 1.01 }
        let phaseBase = (0..<20).map { 0.73 + Double($0) / 1_000 }
        let phaseHead = phaseBase.map { $0 * 1.5 }
        let metrics = [
            (name: "timeToFirstFrame", gated: true, baseMs: base, headMs: head),
            (name: "phase:didFinishLaunching", gated: true, baseMs: phaseBase, headMs: phaseHead),
        ]
        let unscaled = GateDecision.compare(metrics, settings: settings, alpha: 0.01)
        #expect(unscaled[1].verdict == .pass)  // +50 % is below a 680 % floor
        #expect(unscaled[1].minimumEffectPercent > 600)
        let scaled = GateDecision.compare(metrics, settings: settings, alpha: 0.01, floorShares: [1, 0.74 / 409.5])
        #expect(scaled[1].verdict == .regression)
        #expect(abs(scaled[1].minimumEffectPercent - 5) < 1e-9)
    }

    @Test("ComparisonMetrics gives a part of the launch its share of the floor")
    func floorShares() throws {
        let side = try MeasurementReportTests.instrumented()
        let metrics = try ComparisonMetrics(base: side, head: side, gate: .listed([]))
        let shares = metrics.floorShares
        #expect(shares.count == metrics.series.count)
        #expect(shares.first == 1)
        #expect(shares.allSatisfy { $0 >= 0 && $0 <= 1 })
        for (series, share) in zip(metrics.series, shares).dropFirst() where series.budgetMs == nil {
            let expected = Summary.median(series.baseMs) / Summary.median(metrics.series[0].baseMs)
            #expect(abs(share - min(1, expected)) < 1e-12, "\(series.name)")
        }
    }

    @Test("a comparison report of schema version 1 still reads, its interval at 95 %")
    func versionOneReads() throws {
        let metric = MetricComparison(
            name: "timeToFirstFrame", gated: true, baseMs: [1], headMs: [2], shiftMs: 1, shiftPercent: 100,
            intervalMs: [0, 2],
            intervalPercent: [0, 200], mannWhitneyU: 1, pValue: 0.5, adjustedPValue: 0.5, verdict: .inconclusive,
            method: .exact)
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(metric)) as? [String: Any])
        for key in ["minimumEffectPercent", "level", "passPValue", "slowerPValue"] { object.removeValue(forKey: key) }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let read = try decoder.decode(MetricComparison.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(read.level == 0.025 && abs(read.confidence - 0.95) < 1e-12)
        #expect(read.slowerPValue == 0.5 && read.minimumEffectPercent.isNaN)
        #expect(ComparisonReport.currentSchemaVersion == 4)
    }
}
