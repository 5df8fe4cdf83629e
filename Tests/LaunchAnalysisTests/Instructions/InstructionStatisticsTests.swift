import LaunchAnalysis
import LaunchTracing
import Testing

/// Counted launches summarised, and two measurements compared function by function.
@Suite("Instruction statistics")
struct InstructionStatisticsTests {
    /// A counted run: `parse` and `render` run `parse`/`render` instructions on the
    /// main thread before a first frame dumped by the tracer.
    static func run(_ index: Int, parse: UInt64, render: UInt64) throws -> RunRecord {
        let text = """
            thread: 1
            desc: Trigger: Client Request: launchprof:milestone:firstFrame
            events: Ir
            fn=(1) main
            1 100
            cfn=(2) parse
            calls=1 10
            * \(parse)
            cfn=(3) render
            calls=1 20
            * \(render)
            fn=(2)
            10 \(parse)
            fn=(3)
            20 \(render)
            totals: \(100 + parse + render)
            """
        var record = RunRecord(index: index, isWarmup: false, status: .ok, timeToReadyMs: 10)
        record.instructions = InstructionCounts(
            files: [try CallgrindFile(parsing: text)], valgrindVersion: "valgrind-3.19.0")
        return record
    }

    @Test func countedRunsAreSummarisedWithTheirSpreadAndFunctions() throws {
        let runs = try [
            Self.run(1, parse: 1_000, render: 500), Self.run(2, parse: 1_000, render: 500),
            Self.run(3, parse: 1_000, render: 503),
        ]
        let statistics = try #require(InstructionStatistics(runs))
        #expect(statistics.gatedValues == [1_600, 1_600, 1_603])
        #expect(statistics.gated.median == 1_600)
        #expect(abs(statistics.spread - 3.0 / 1_600) < 1e-12)
        #expect(statistics.phases[.timeToFirstFrame] == 1_600)
        #expect(statistics.functions.map(\.name) == ["main", "parse", "render"])
        #expect(statistics.functions.first?.inclusiveMedian == 1_600)
        #expect(statistics.gatedDescription == "main-thread instructions to the first frame")
        // A profile built from the runs carries them.
        #expect(LaunchProfile(runs: runs, budget: LaunchBudget()).instructions == statistics)
        #expect(InstructionStatistics([RunRecord(index: 1, isWarmup: false, status: .ok)]) == nil)
    }

    @Test func theComparisonNamesTheFunctionThatGrew() throws {
        let base = InstructionStatistics(try (1...3).map { try Self.run($0, parse: 10_000, render: 5_000) })
        let head = InstructionStatistics(try (1...3).map { try Self.run($0, parse: 10_000, render: 9_000) })
        let comparison = try #require(try InstructionComparison(base: base, head: head))
        #expect(comparison.decision.status == .regression)
        #expect(comparison.functions.map(\.name) == ["main", "render"])
        #expect(comparison.functions.last?.change == 4_000)
        #expect(try InstructionComparison(base: base, head: nil) == nil)
        #expect(throws: InstructionGate.RuleError.self) {
            try InstructionComparison(base: base, head: InstructionStatistics([try Self.run(1, parse: 1, render: 1)]))
        }
    }
}
