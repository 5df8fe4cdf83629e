import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

/// `--metric wall|cpu|instructions` in a comparison: what decides, how the
/// instruction gate's verdict joins the time metrics', and what the report says decided.
@Suite("Metric choice")
struct MetricChoiceTests {
    /// A measurement whose timed launches took `times` ms (CPU `cpu` ms each, when given) and
    /// whose counted launches ran `counts` main-thread instructions (the `rank` function `rank` of them).
    static func measured(_ times: [Double], cpu: [Double]? = nil, counts: [UInt64] = [], rank: UInt64 = 0) throws
        -> MeasurementReport
    {
        var report = ReportOutcomeTests.report(times)
        if let cpu {
            var runs = report.runs
            for index in runs.indices {
                runs[index].cpuTime = CPUTime(userNanoseconds: UInt64(cpu[index] * 1e6), systemNanoseconds: 0)
            }
            report = MeasurementReport(
                name: report.name, createdAt: report.createdAt, environment: report.environment,
                configuration: report.configuration, runs: runs)
        }
        let counted = try counts.enumerated().map { index, count in
            try Self.counted(index + 1, total: count, rank: rank)
        }
        return MeasurementReport(
            name: report.name, createdAt: report.createdAt, environment: report.environment,
            configuration: report.configuration,
            runs: report.runs, countedRuns: counted.isEmpty ? nil : counted)
    }

    /// One counted launch of an uninstrumented program: `main` runs `total` instructions, `rank` of them in `rank`.
    static func counted(_ index: Int, total: UInt64, rank: UInt64) throws -> RunRecord {
        let text = """
            thread: 1
            desc: Trigger: Program termination
            events: Ir
            fl=(1) Sources/App/Ranking.swift
            fn=(1) main
            1 \(total - rank)
            cfn=(2) rank
            calls=1 10
            * \(rank)
            fn=(2)
            10 \(rank)
            totals: \(total)
            """
        var record = RunRecord(index: index, isWarmup: false, status: .ok, timeToExitMs: 3_000)
        record.instructions = InstructionCounts(
            files: [try CallgrindFile(parsing: text)], valgrindVersion: "valgrind-3.19.0")
        return record
    }

    static func compare(_ base: MeasurementReport, _ head: MeasurementReport, metrics: [LaunchMetric])
        -> ComparisonReport
    {
        // Interleaved: base and head in one session (the session-level test has its own tests).
        var plan = ComparisonPlan(name: "c", source: .interleaved, settings: GateSettings(), stages: [20])
        plan.metrics = metrics
        return ComparisonReport(plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-23T10:00:00Z")
    }

    static let times = ComparisonReportTests.around(100)
    static let baseCounts: [UInt64] = [10_000_000, 10_000_010, 10_000_004]

    @Test func metricListsAreParsedOnceEachAndBadWordsNamed() throws {
        #expect(try LaunchMetric.list("wall") == [.wall])
        #expect(try LaunchMetric.list("cpu, instructions,cpu") == [.cpu, .instructions])
        #expect(throws: LaunchMetric.ListError(word: "instr")) { try LaunchMetric.list("wall,instr") }
        #expect(throws: LaunchMetric.ListError(word: "")) { try LaunchMetric.list("") }
        // A near miss names the metric it most likely meant.
        #expect(LaunchMetric.ListError(word: "instrctions").description.hasSuffix("did you mean 'instructions'?"))
        #expect(!LaunchMetric.ListError(word: "banana").description.contains("did you mean"))
    }

    @Test func moreInstructionsInEveryHeadLaunchIsARegressionDecidedByInstructionsWithTheFunctionThatGrew() throws {
        let base = try Self.measured(Self.times, counts: Self.baseCounts, rank: 1_000_000)
        // +2 %: the rank function does 200,000 more instructions; wall time unchanged.
        let head = try Self.measured(Self.times, counts: Self.baseCounts.map { $0 + 200_000 }, rank: 1_200_000)
        let report = Self.compare(base, head, metrics: [.instructions])
        #expect(report.outcome.status == .regression)
        #expect(report.outcome.exitCode.rawValue == 1)
        #expect(
            report.outcome.reason.hasPrefix("regression in instructions (instructions to exit, every thread): +2.00%"),
            "\(report.outcome.reason)")
        #expect(report.decidedBy == ["instructions"])
        #expect(report.decidingMetrics == [.instructions])
        let instructions = try #require(report.instructions)
        #expect(instructions.decision.status == .regression)
        let grown = try #require(instructions.functions.first { $0.name == "rank" })
        #expect(grown.change == 200_000)
        #expect(grown.file == "Sources/App/Ranking.swift")
        // Wall time was not asked to decide: its metric is shown, not gated.
        #expect(report.metrics.allSatisfy { !$0.gated })
    }

    @Test func identicalCountsPassAndWallTimeDecidesBesideThem() throws {
        let base = try Self.measured(Self.times, counts: Self.baseCounts)
        let same = Self.compare(
            base, try Self.measured(Self.times, counts: Self.baseCounts.reversed()), metrics: [.instructions])
        #expect(same.outcome.status == .pass)
        #expect(same.outcome.exitCode.rawValue == 0)
        #expect(same.outcome.reason.hasPrefix("no regression: instructions"), "\(same.outcome.reason)")
        // 0.3 % more: below the 1 % minimum effect.
        let little = Self.compare(
            base, try Self.measured(Self.times, counts: Self.baseCounts.map { $0 + 30_000 }), metrics: [.instructions])
        #expect(little.outcome.status == .pass, "\(little.outcome.reason)")

        // wall + instructions: a wall-time regression with the same counts is a regression decided by wall time.
        let slower = try Self.measured(ComparisonReportTests.around(130), counts: Self.baseCounts)
        let both = Self.compare(base, slower, metrics: [.wall, .instructions])
        #expect(both.outcome.status == .regression)
        #expect(both.decidedBy == ["timeToReady"])
        #expect(both.instructions?.decision.status == .pass)
    }

    @Test func countsThatDifferBetweenIdenticalLaunchesAreInconclusive() throws {
        // A 3 % spread inside each side: the rule cannot see a 1 % effect here.
        let base = try Self.measured(Self.times, counts: [10_000_000, 10_300_000, 10_100_000])
        let head = try Self.measured(Self.times, counts: [10_050_000, 10_310_000, 10_000_000])
        let report = Self.compare(base, head, metrics: [.instructions])
        #expect(report.outcome.status == .inconclusive)
        #expect(report.outcome.exitCode.rawValue == 3)
        #expect(report.decidedBy == ["instructions"])
    }

    @Test func aSideWithoutCountsCannotBeComparedOnInstructions() throws {
        let report = Self.compare(
            try Self.measured(Self.times), try Self.measured(Self.times, counts: Self.baseCounts),
            metrics: [.instructions])
        #expect(report.outcome.exitCode.rawValue == 2)
        #expect(report.problem?.contains("the base side has no instruction count") == true, "\(report.problem ?? "")")
        let few = Self.compare(
            try Self.measured(Self.times, counts: [1_000, 1_000]),
            try Self.measured(Self.times, counts: Self.baseCounts), metrics: [.instructions])
        #expect(few.outcome.exitCode.rawValue == 2)
        #expect(few.problem?.contains("needs 3 counted launches per side") == true, "\(few.problem ?? "")")
        // The JSON verdict agrees with the exit code: not `pass` (what it said before) but `error`.
        for report in [report, few] {
            #expect(report.verdict == .error)
            let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
            #expect(json.contains(#""verdict":"error""#), "\(json.prefix(600))")
        }
    }

    @Test func aMeasurementWhoseEveryCountedLaunchFailedIsFailedRuns() throws {
        let report = try Self.measured(Self.times, counts: Self.baseCounts)
        var failed = try #require(report.countedRuns)
        for index in failed.indices {
            failed[index].status = .crashed
            failed[index].problem = "killed by signal 4 under valgrind"
            failed[index].instructions = nil
        }
        let measured = MeasurementReport(
            name: report.name, createdAt: report.createdAt, environment: report.environment,
            configuration: report.configuration,
            runs: report.runs, countedRuns: failed)
        #expect(measured.outcome.status == .failedRuns)
        #expect(measured.outcome.exitCode.rawValue == 2)
        #expect(measured.outcome.reason.contains("every counted launch failed"), "\(measured.outcome.reason)")
        // One counted launch that worked is a count to report: the budget verdict stands.
        var one = failed
        one[0] = try #require(report.countedRuns?.first)
        let partly = MeasurementReport(
            name: report.name, createdAt: report.createdAt, environment: report.environment,
            configuration: report.configuration,
            runs: report.runs, countedRuns: one)
        #expect(partly.outcome.status != .failedRuns)
    }

    @Test func cpuTimeIsOneMoreGatedMetricOfTheTimeTest() throws {
        let base = try Self.measured(Self.times, cpu: ComparisonReportTests.around(80))
        let head = try Self.measured(Self.times, cpu: ComparisonReportTests.around(120))
        let report = Self.compare(base, head, metrics: [.cpu])
        let cpu = try #require(report.metrics.first { $0.name == LaunchMetric.cpuMetricName })
        #expect(cpu.gated)
        #expect(report.metrics.first { $0.name == "timeToReady" }?.gated == false)
        #expect(report.outcome.status == .regression)
        #expect(report.decidedBy == [LaunchMetric.cpuMetricName])
        // A pass names the metric that decided it, not the ungated wall time beside it.
        let same = Self.compare(
            base, try Self.measured(Self.times, cpu: ComparisonReportTests.around(80)), metrics: [.cpu])
        #expect(same.outcome.status == .pass)
        #expect(
            same.outcome.reason.contains(LaunchMetric.cpuMetricName) && !same.outcome.reason.contains("timeToReady"),
            "\(same.outcome.reason)")
        // Without --metric cpu the CPU time is not a metric of the comparison: wall-time comparisons are unchanged.
        let wall = Self.compare(base, head, metrics: [.wall])
        #expect(!wall.metrics.contains { $0.name == LaunchMetric.cpuMetricName })
        #expect(wall.outcome.status == .pass)
        #expect(wall.decidedBy == nil)
    }

    @Test func countedRunsAreKeptApartAndOlderReportsWithoutThemStillRead() throws {
        let report = try Self.measured(Self.times, counts: Self.baseCounts)
        #expect(report.profile.instructions?.gatedValues == Self.baseCounts)
        #expect(report.runs.allSatisfy { $0.instructions == nil })
        let encoder = JSONEncoder()
        let decoded = try JSONDecoder().decode(MeasurementReport.self, from: encoder.encode(report))
        #expect(decoded.countedRuns?.count == 3)
        #expect(decoded.profile.instructions == report.profile.instructions)

        // A comparison written before --metric: no instruction fields, read as absent.
        let old = Self.compare(try Self.measured(Self.times), try Self.measured(Self.times), metrics: [.wall])
        var object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(old)) as? [String: Any])
        #expect(object["instructions"] == nil && object["decidedBy"] == nil)
        object.removeValue(forKey: "decidingMetrics")
        let read = try JSONDecoder().decode(ComparisonReport.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(read.instructions == nil && read.decidedBy == nil && read.decidingMetrics == nil)
        #expect(read.outcome == old.outcome)
    }
}

extension MetricChoiceTests {
    /// Two functions whose demangled names read the same (two specialisations of one
    /// generic) are one row, their instructions added: the statistics took them as two
    /// launches' values and crashed padding the others with zeros.
    @Test func aNameRepeatedInOneLaunchIsOneRowWithItsInstructionsAdded() throws {
        let runs = try (1...3).map { index in
            var run = try Self.counted(index, total: 10_000, rank: 1_000)
            run.instructions?.functions.append(.init(name: "rank", selfInstructions: 500, inclusiveInstructions: 500))
            return run
        }
        let statistics = try #require(InstructionStatistics(runs))
        let rank = try #require(statistics.functions.first { $0.name == "rank" })
        #expect(rank.inclusiveMedian == 1_500)
        #expect(statistics.functions.filter { $0.name == "rank" }.count == 1)
    }
}
