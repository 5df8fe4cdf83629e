import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing
import Testing
import _LaunchProfTestSupport

#if os(Linux)
    let defectSuiteRunsHere = true
#else
    let defectSuiteRunsHere = false
#endif

/// The advisor against an app with one launch defect per case (`launchprof-defects`):
/// every class of wait at a few sizes down to 2 ms, on the main thread and moved to
/// a background queue, and CPU work inside and over its budget. Each case is
/// measured by the built `launchprof` like any app; the suite's precision and
/// recall are printed.
@Suite("Defect suite", .serialized, .enabled(if: defectSuiteRunsHere, "its defects are Linux system calls"))
struct DefectSuiteTests {
    /// The defects' files live beside the build (a real disk: O_DIRECT and
    /// fdatasync mean nothing on a tmpfs).
    static let scratch = BuiltProducts.directory.appendingPathComponent("defect-suite-scratch").path

    /// The launches sample the main thread every 250 µs instead of every 1 ms: a 2 ms
    /// wait then holds about eight chances of a sample rather than two, so a busy
    /// machine that delays the sampler thread a few times cannot hide what was waited on.
    static let environment = [LaunchContract.Variable.sampleInterval: "250"]

    /// Not in a ThreadSanitizer build: the measured defect programs are sanitized
    /// too, so their CPU work runs several times slower (a case inside its budget
    /// goes over it) and the sampler sees the runtime's own futex waits inside
    /// intercepted calls as main-thread lock waits beside every expected finding.
    @Test(
        .disabled(
            if: BuiltProducts.areThreadSanitized,
            "the defect programs are sanitized: their timing and waits are the runtime's"))
    func precisionAndRecallOverTheSuite() throws {
        try FileManager.default.createDirectory(atPath: Self.scratch, withIntermediateDirectories: true)
        let reports = ScratchDirectory("lp-defects")
        var outcomes: [DefectCase.Outcome] = []
        for defect in DefectCase.suite {
            let report = try measure(defect, output: reports.path)
            outcomes.append(defect.judge(report.profile.findings))
        }
        let score = DefectCase.Score(outcomes)
        print(DefectCase.table(outcomes))
        print(
            String(
                format:
                    "defect suite: %d cases, precision %.3f (%d of %d flagged rules right), recall %.3f (%d of %d defects found)",
                outcomes.count, score.precision, score.truePositives, score.truePositives + score.falsePositives,
                score.recall, score.truePositives, score.truePositives + score.falseNegatives))
        #expect(score.recall >= 0.9, "recall \(score.recall): missed \(outcomes.filter { $0.missed }.map(\.name))")
        #expect(
            score.precision >= 0.9,
            "precision \(score.precision): wrong \(outcomes.filter { !$0.wrong.isEmpty }.map(\.name))")
        // What was waited on is named where the wait was long enough to be sampled.
        let unnamed = outcomes.filter { $0.targetExpected && !$0.missed && !$0.targetNamed }.map(\.name)
        #expect(unnamed.isEmpty, "no wait target named for \(unnamed)")
    }

    @Test func redactPathsCutsTheProgramsPathsInEveryReport() throws {
        try FileManager.default.createDirectory(atPath: Self.scratch, withIntermediateDirectories: true)
        let reports = ScratchDirectory("lp-defects-redacted")
        let defect = DefectCase(
            defect: "fifo", milliseconds: 20, place: .main, expected: .mainThreadIPCWait, target: "fifo.fifo")
        let plain = try measure(defect, output: reports.path, name: "plain")
        let finding = try #require(plain.profile.findings.first { $0.rule == .mainThreadIPCWait })
        let fifo = Self.scratch + "/fifo.fifo"
        #expect(finding.waitedOn?.contains(WaitTarget(kind: .pipe, name: fifo)) == true)
        #expect(finding.recommendation.contains(fifo))

        let redacted = try measure(
            defect, output: reports.path, name: "redacted", formats: "json,markdown,html", extra: ["--redact-paths"])
        // The program's paths go; the command line the user typed (which names the scratch folder) stays.
        for file in ["redacted.json", "redacted.md", "redacted.html"] {
            let text = try String(contentsOfFile: reports.file(file), encoding: .utf8)
            #expect(!text.contains(fifo), "\(file) still names \(fifo)")
        }
        let named = try #require(redacted.profile.findings.first { $0.rule == .mainThreadIPCWait })
        #expect(named.waitedOn?.contains(WaitTarget(kind: .pipe, name: "fifo.fifo")) == true)
        #expect(named.recommendation.contains("named pipe fifo.fifo"))

        // `launchprof report --redact-paths` redacts a report written without it.
        let result = try BuiltProducts.run([
            "report", reports.file("plain.json"), "--format", "markdown", "--output", "-", "--redact-paths",
        ])
        #expect(result.status == 0)
        #expect(!result.stdout.contains(fifo))
        #expect(result.stdout.contains("fifo.fifo"))
    }

    private func measure(
        _ defect: DefectCase, output: String, name: String? = nil, formats: String = "json", extra: [String] = []
    ) throws -> MeasurementReport {
        let reportName = name ?? defect.name
        let result = try BuiltProducts.run(
            [
                "measure", "--runs", "5", "--warmup", "1", "--format", formats, "--output", output, "--name",
                reportName,
                "--quiet", "--no-color", "--timeout", "30",
            ] + extra + ["--", BuiltProducts.defects] + defect.arguments(scratch: Self.scratch),
            environment: Self.environment)
        // 0 within budget, 1 over (the over-budget cases are over on purpose).
        try #require(
            result.status == 0 || result.status == 1, "\(defect.name): exit \(result.status): \(result.stderr)")
        return try JSONReport.read(from: output + "/" + reportName + ".json")
    }
}
