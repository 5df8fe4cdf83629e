import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// Does launchprof report what really happened?
@Suite("measure: accuracy", .serialized)
struct AccuracyTests {
    @Test func hookTimeMatchesWhatTheAppMeasuredItself() throws {
        let output = Executables.temporaryDirectory()
        let record = output.appendingPathComponent("self-measured.txt")
        let result = try Executables.run(
            ["measure", "--runs", "5", "--warmup", "0", "--output", output.path, "--name", "spin",
             "--", Executables.fixture, "spin", "30", record.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("spin.json").path)
        let selfMeasured = try String(contentsOf: record, encoding: .utf8).split(separator: "\n")
            .compactMap { Double($0.split(separator: " ")[0]) }
        let runs = report.runs.filter { !$0.isWarmup }
        #expect(selfMeasured.count == runs.count)
        for (run, expected) in zip(runs, selfMeasured) {
            let reported = try #require(run.milliseconds(.didFinishLaunching))
            #expect(abs(reported - expected) < 0.5, "run \(run.index): reported \(reported) ms, the app measured \(expected) ms")
        }
    }

    @Test func sleepTakesWhatItSays() throws {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run(
            ["measure", "--runs", "10", "--warmup", "1", "--output", output.path, "--", "sleep", "0.1"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("sleep.json").path)
        let exit = try #require(report.profile.statistics(.timeToExit)?.summary.median)
        #expect(exit >= 100 && exit <= 110, "median timeToExit \(exit) ms")
        #expect(!report.profile.isInstrumented)
    }
}
