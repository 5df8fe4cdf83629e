import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// An app that links the tracer alone — spans and `LaunchTracer.mark(.firstFrame)`,
/// no harness — is measured to its first frame and analysed like any other.
@Suite("measure: an app that uses the tracer alone", .serialized)
struct TracerOnlyTests {
    func measure(_ extra: [String]) throws -> (Executables.Result, MeasurementReport) {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run(
            [
                "measure", "--runs", "3", "--warmup", "0", "--quiet", "--name", "tracer-only", "--output", output.path,
                "--budget-ms", "100000",
                // Generous: the fixture sorts 400,000 numbers, which a sanitized build on a loaded machine takes >20 s for.
                "--timeout", "300",
            ]
                + extra + ["--", Executables.fixture, "tracer-only"])
        let report = try JSONReport.read(from: output.appendingPathComponent("tracer-only.json").path)
        return (result, report)
    }

    @Test func itsSpansFirstFrameAndFindingsAreAnalysed() throws {
        let (result, report) = try measure([])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(report.profile.isInstrumented)
        #expect(report.configuration.ready == .firstFrame)
        #expect(report.readyLabel == "first-frame")
        let frame = try #require(report.profile.statistics(.timeToFirstFrame))
        #expect(frame.summary.count == 3)
        // Ready at its first frame, from its own trace: its trace is written there and launchprof
        // ends it (when it has not exited by itself already).
        for run in report.runs {
            let ready = try #require(run.timeToReadyMs)
            #expect(ready == run.milliseconds(.timeToFirstFrame))
            if let exit = run.timeToExitMs { #expect(ready <= exit) }
        }
        let spans = Set(report.runs.compactMap(\.timeline).flatMap(\.mainThreadSpans).map(\.name))
        #expect(spans.isSuperset(of: ["LoadSettings", "BuildIndex"]))
        #expect(report.profile.verdict.check(.phase(.timeToFirstFrame)) != nil)
        // Its main-thread spans are accounted, as a harness app's are: CPU and off-CPU time in every run,
        // so the advisor can tell its CPU work (BuildIndex sorts 400,000 numbers) from waiting.
        for run in report.runs {
            let index = try #require(run.timeline?.mainThreadSpans.first { $0.name == "BuildIndex" })
            let cpu = try #require(index.selfCPUNanoseconds, "run \(run.index): BuildIndex has no CPU time")
            #expect(cpu > 0)
            #expect(index.offCPUNanoseconds != nil)
        }
        #expect(
            report.profile.findings.contains { $0.span == "BuildIndex" && $0.rule == .deferrableCPUWork },
            "\(report.profile.findings.map { "\($0.rule.id) \($0.span)" })")
    }

    @Test func anExplicitFirstFrameConditionIsMet() throws {
        let (result, report) = try measure(["--ready", "first-frame"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(report.runs.allSatisfy { $0.status == .ok })
    }
}
