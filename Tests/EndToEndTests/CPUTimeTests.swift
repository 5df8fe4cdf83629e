import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// Every run records the CPU time of the launched process tree: what the machine
/// spent, beside the wall time the user waited.
@Suite("CPU time per run")
struct CPUTimeTests {
    /// Measures `command` to its exit; returns the report.
    func measure(_ command: [String], name: String, output: URL) throws -> MeasurementReport {
        let result = try Executables.run(
            [
                "measure", "--runs", "3", "--warmup", "0", "--ready", "exit", "--budget-ms", "60000", "--output",
                output.path, "--name", name,
                "--format", "terminal,json,hyperfine,markdown", "--no-color", "--",
            ] + command)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains(CPUTimeRow.label), "the terminal shows the CPU time: \(result.stdout)")
        return try JSONReport.read(from: output.appendingPathComponent("\(name).json").path)
    }

    /// The CPU a child burns counts: the shell waits for it, so its time is in the shell's.
    @Test func cpuWorkOfTheProcessTreeIsCounted() throws {
        let output = Executables.temporaryDirectory()
        let report = try measure(
            ["/bin/sh", "-c", "\"$0\" cpu-burn 150; exit 0", Executables.fixture], name: "burn", output: output)
        let runs = report.runs.filter { !$0.isWarmup && $0.status == .ok }
        #expect(runs.count == 3)
        for run in runs {
            let cpu = try #require(run.cpuTime, "run \(run.index) recorded no CPU time")
            // The child spun until its own CPU clock passed 150 ms: the tree used at least that.
            #expect(cpu.totalMilliseconds >= 150, "run \(run.index): \(cpu)")
            #expect(cpu.userNanoseconds > 0)
        }
        let statistics = try #require(report.profile.cpuTime)
        #expect(statistics.total.count == 3)
        #expect(statistics.total.median >= 150)

        // hyperfine's export carries the mean user and system time, in seconds.
        let export = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: output.appendingPathComponent("burn.hyperfine.json"))) as? [String: Any])
        let result = try #require((export["results"] as? [[String: Any]])?.first)
        let user = try #require(result["user"] as? Double)
        let system = try #require(result["system"] as? Double)
        #expect(user + system >= 0.150)
        #expect(abs((user + system) * 1000 - statistics.total.mean) < 0.01)
        let markdown = try String(contentsOf: output.appendingPathComponent("burn.md"), encoding: .utf8)
        #expect(markdown.contains("| \(CPUTimeRow.label) |"))
    }

    /// A program that waits uses almost no CPU, however long it takes.
    @Test func waitingIsNotCPUTime() throws {
        let output = Executables.temporaryDirectory()
        let report = try measure(["sleep", "0.3"], name: "wait", output: output)
        let statistics = try #require(report.profile.cpuTime)
        let wall = try #require(report.profile.statistics(.timeToExit)?.summary.median)
        #expect(wall >= 300)
        // sleep's own start-up is a millisecond or two of CPU; the bound is far from both.
        #expect(statistics.total.median < 100, "sleep 0.3 used \(statistics.total.median) ms of CPU")
    }
}

/// The label every format gives the CPU time row (LaunchReports' own is internal).
enum CPUTimeRow {
    static let label = "cpuTime"
}
