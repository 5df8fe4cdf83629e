import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// A traced program that keeps running after it is ready — a server with no signal
/// handler — is ended at ready, not at the timeout, and its spans reach the report:
/// the tracer writes its trace at the ready mark, or when launchprof asks for it
/// before ending a program it saw ready itself (`--ready port:`).
@Suite("measure: a traced server that keeps running", .serialized)
struct ServerReadyTests {
    /// Measures `launchprof-fixture serves HOW` 3 times. The timeout is generous (a sanitized
    /// build on a loaded machine is slow), and the whole command is given less than its
    /// three launches' timeouts: a launch that waited for its timeout fails the test.
    func measure(_ how: String, extra: [String] = []) throws -> (Executables.Result, MeasurementReport) {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run(
            [
                "measure", "--runs", "3", "--warmup", "0", "--quiet", "--name", "serves", "--output", output.path,
                "--timeout", "120",
            ] + extra + ["--", Executables.fixture, "serves", how],
            timeoutSeconds: 300)
        #expect(!result.timedOut, "launchprof waited out its launches' timeouts")
        let report = try JSONReport.read(from: output.appendingPathComponent("serves.json").path)
        return (result, report)
    }

    func expectEndedAtReadyWithSpans(_ result: Executables.Result, _ report: MeasurementReport) throws {
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(report.runs.count == 3)
        for run in report.runs {
            #expect(run.status == .ok, "run \(run.index): \(run.problem ?? "")")
            // Ended by launchprof (it never exits by itself), with its trace written before.
            #expect(run.timeToExitMs == nil)
            let spans = Set(run.timeline?.mainThreadSpans.map(\.name) ?? [])
            #expect(spans.isSuperset(of: ["LoadConfig", "ConnectDatabase"]), "run \(run.index): \(spans)")
        }
    }

    @Test func aServerThatMarksTheFirstFrameIsEndedThereWithItsSpans() throws {
        let (result, report) = try measure("mark")
        try expectEndedAtReadyWithSpans(result, report)
        #expect(report.profile.statistics(.timeToFirstFrame)?.summary.count == 3)
    }

    @Test func aServerThatMarksReadyIsEndedThereWithItsSpans() throws {
        let (result, report) = try measure("ready")
        try expectEndedAtReadyWithSpans(result, report)
        #expect(report.profile.statistics(.timeToFirstFrame)?.summary.count == 3)
    }

    @Test func aServerReadyAtItsPortWritesItsTraceWhenAsked() throws {
        let port = try LoopbackHTTPServer.unusedPort()
        let (result, report) = try measure("port:\(port)", extra: ["--ready", "port:\(port)"])
        try expectEndedAtReadyWithSpans(result, report)
        #expect(report.configuration.ready == .port(port))
    }
}
