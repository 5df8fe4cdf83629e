import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// Hot launches and Ctrl-C, run as a user would.
@Suite("measure: modes and interruption", .serialized)
struct ModesTests {
    /// A sample data folder of its own: the sample writes into it, and other suites run at the same time.
    static let sampleData = Executables.temporaryDirectory()

    @Test func hotModeRecordsEachLaunchInsideOneProcess() throws {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run(
            [
                "measure", "--mode", "hot", "--sample", "optimized", "--runs", "4", "--warmup", "1", "--output",
                output.path,
            ],
            environment: ["LAUNCHPROF_SAMPLE_DIR": Self.sampleData.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("sample-optimized.json").path)
        let counted = report.runs.filter { !$0.isWarmup }
        #expect(counted.map(\.index) == [1, 2, 3, 4])
        #expect(report.runs.filter(\.isWarmup).count == 1)
        // Every run is a hot launch of the same process: hooks timed, no loader phase.
        #expect(
            counted.allSatisfy { $0.timeline?.launchIndex ?? 0 >= 1 && $0.milliseconds(.didFinishLaunching) != nil })
        #expect(counted.allSatisfy { $0.milliseconds(.loader) == nil })
        #expect(Set(counted.compactMap(\.tracePath)).count == 1)
        #expect(report.configuration.mode == .hot)
    }

    @Test func hotModeRefusesAnUninstrumentedProgram() throws {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run([
            "measure", "--mode", "hot", "--runs", "2", "--output", output.path, "--", "/bin/true",
        ])
        #expect(result.status == 2)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("launchprof:") }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("instrumented") == true, "\(result.stderr)")
    }

    @Test func sigtermEndsTheLaunchAtOnceWritesTheReportAndLeavesNothingRunning() throws {
        let output = Executables.temporaryDirectory()
        let pidFile = output.appendingPathComponent("child.pid")
        let counter = output.appendingPathComponent("count")
        let hanging = output.appendingPathComponent("hanging")
        let process = try Executables.start(
            [
                "measure", "--runs", "5", "--warmup", "0", "--output", output.path, "--name", "term", "--",
                "/bin/sh", "-c",
                "echo $$ > \(pidFile.path); n=$(cat \(counter.path) 2>/dev/null || echo 0); n=$((n+1)); "
                    + "echo $n > \(counter.path); [ $n -ge 3 ] && touch \(hanging.path) && exec sleep 30; exit 0",
            ])
        // The third launch hangs; stop launchprof while it does.
        try #require(Executables.waitUntilExists(hanging), "the third launch never began")
        usleep(200_000)
        let stopped = Date()
        process.terminate()  // SIGTERM
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(stopped) < 5, "it waited for the hanging launch")
        #expect(process.terminationStatus == 128 + 15)
        let report = try JSONReport.read(from: output.appendingPathComponent("term.json").path)
        let count = report.runs.count
        #expect(count == 2)
        let interrupted = report.interrupted
        #expect(interrupted)
        // The runs are in place with the report (the interrupted launch's folder, with its output, too, marked as such).
        let runs = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("term.runs").path)
            .sorted()
        #expect(runs == ["run-1", "run-2", "run-3.interrupted"])
        // The hanging launch's process group was ended.
        let child = try #require(
            Int32(
                String(decoding: try Data(contentsOf: pidFile), as: UTF8.self).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
        #expect(kill(child, 0) != 0)
    }

    @Test func ctrlCStopsAfterTheCurrentLaunchAndKeepsTheRuns() throws {
        let output = Executables.temporaryDirectory()
        let counter = output.appendingPathComponent("count")
        let second = output.appendingPathComponent("second")
        let process = try Executables.start(
            [
                "measure", "--runs", "50", "--warmup", "0", "--output", output.path, "--name", "stopped", "--",
                "/bin/sh", "-c",
                "n=$(cat \(counter.path) 2>/dev/null || echo 0); echo $((n+1)) > \(counter.path); [ $n -ge 1 ] && touch \(second.path); sleep 0.2",
            ])
        // Wait until the first launch has been recorded (the second has begun), then interrupt.
        try #require(Executables.waitUntilExists(second), "the second launch never began")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let report = try JSONReport.read(from: output.appendingPathComponent("stopped.json").path)
        let interrupted = report.interrupted
        #expect(interrupted)
        let counted = report.runs.filter { !$0.isWarmup }
        let count = counted.count
        #expect(count >= 2 && count < 50)
        #expect(counted.allSatisfy { $0.status == .ok })
    }
}
