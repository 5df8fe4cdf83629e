import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// `measure --save-baseline NAME`: the baseline is the JSON report's own
/// bytes (rendered once), and a comparison against it still calls it NAME.
@Suite("Baseline files")
struct BaselineFileTests {
    let scratch = ScratchDirectory("lp-baseline")

    @Test func aBaselineIsTheReportsOwnBytesAndKeepsItsNameWhenCompared() throws {
        let output = scratch.file("Reports")
        let measured = try Executables.run(
            [
                "measure", "--runs", "8", "--warmup", "0", "--ready", "exit", "--budget-ms", "100000", "--quiet",
                "--output", output,
                "--name", "app", "--format", "json,markdown", "--save-baseline", "main", "--", "/bin/sh", "-c",
                "exit 0",
            ], in: scratch.url)
        #expect(measured.status == 0, "\(measured.stderr)")
        let report = try #require(FileManager.default.contents(atPath: output + "/app.json"))
        #expect(FileManager.default.contents(atPath: output + "/baselines/main.json") == report)

        let compared = try Executables.run(
            [
                "compare", "--baseline", "main", "--runs", "8", "--warmup", "0", "--ready", "exit", "--quiet",
                "--output", output,
                "--name", "against-main", "--format", "json", "--", "/bin/sh", "-c", "exit 0",
            ], in: scratch.url)
        #expect([0, 1, 2, 3].contains(compared.status), "\(compared.stderr)")
        guard
            case .comparison(let comparison) = try JSONReport.readDocument(
                from: output + "/against-main.comparison.json")
        else {
            Issue.record("not a comparison: \(compared.stderr)")
            return
        }
        #expect(comparison.base.name == "main")
    }
}
