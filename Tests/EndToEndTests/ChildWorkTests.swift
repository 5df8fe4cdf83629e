import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// Work a program leaves to a child that outlives it counts: launchprof waits the
/// child out after the program exits (up to the launch's timeout) instead of
/// ending its process group, so its CPU time is added and, under valgrind, it
/// writes its counts. Before, the child was killed at the program's exit and a
/// 4 × heavier child passed both gates.
@Suite("Children's work counts", .serialized)
struct ChildWorkTests {
    /// `sh -c` that leaves a busy shell loop of `turns` turns running in the
    /// background (a double fork: the loop is orphaned) and exits at once.
    static func leavingBusyChild(_ turns: Int) -> String {
        "/bin/sh -c '(i=0; while [ $i -lt \(turns) ]; do i=$((i+1)); done &); exit 0'"
    }

    /// `compare` of `base` against `head` on `metric`; its exit status and report.
    func compare(_ base: String, _ head: String, metric: String, runs: Int, name: String) throws -> (
        status: Int32, report: ComparisonReport, stderr: String
    ) {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run(
            [
                "compare", "--metric", metric, "--base", base, "--head", head, "--runs", String(runs), "--warmup", "1",
                "--name", name, "--output", output.path, "--format", "json",
            ], timeoutSeconds: 1_200)
        let document = try JSONReport.readDocument(from: output.appendingPathComponent("\(name).comparison.json").path)
        guard case .comparison(let report) = document else {
            Issue.record("no comparison: \(result.stderr)")
            throw CancellationError()
        }
        return (result.status, report, result.stderr)
    }

    @Test func aFourTimesHeavierOrphanIsACPURegressionAndAnAAPasses() throws {
        let heavier = try compare(
            Self.leavingBusyChild(20_000), Self.leavingBusyChild(80_000), metric: "cpu", runs: 10, name: "orphan-cpu")
        #expect(heavier.status == 1, "\(heavier.report.outcome.reason) \(heavier.stderr)")
        // The base child's loop alone is tens of milliseconds of CPU: the tree's time holds it.
        let baseCPU = heavier.report.base.runs.filter { !$0.isWarmup }.compactMap { $0.cpuTime?.totalMilliseconds }
        let headCPU = heavier.report.head.runs.filter { !$0.isWarmup }.compactMap { $0.cpuTime?.totalMilliseconds }
        #expect(Summary.median(headCPU) > 2 * Summary.median(baseCPU), "base \(baseCPU), head \(headCPU)")
        let same = try compare(
            Self.leavingBusyChild(20_000), Self.leavingBusyChild(20_000), metric: "cpu", runs: 10, name: "orphan-cpu-aa"
        )
        #expect(same.status == 0 || same.status == 3, "\(same.report.outcome.reason)")
    }

    @Test(
        .enabled(if: (try? InstructionCounter.locate()) != nil, "valgrind is not installed (apt-get install valgrind)"))
    func aFourTimesHeavierOrphanIsAnInstructionRegressionAndAnAAPasses() throws {
        let heavier = try compare(
            Self.leavingBusyChild(2_000), Self.leavingBusyChild(8_000), metric: "instructions", runs: 1,
            name: "orphan-ir")
        #expect(heavier.status == 1, "\(heavier.report.outcome.reason) \(heavier.stderr)")
        let base = heavier.report.base.countedRuns?.compactMap { $0.instructions?.childProcesses } ?? []
        #expect(base.count == 3 && base.allSatisfy { $0 > 0 }, "the child's counts were not written: \(base)")
        let same = try compare(
            Self.leavingBusyChild(2_000), Self.leavingBusyChild(2_000), metric: "instructions", runs: 1,
            name: "orphan-ir-aa")
        #expect(same.status == 0, "\(same.report.outcome.reason) \(same.stderr)")
    }
}
