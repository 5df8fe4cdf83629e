import Foundation
import Testing
import _LaunchProfTestSupport

/// `--quiet` prints one line, a pass included; a program with no budget is
/// measured, not failed; and the output folder holds only the formats of the
/// last report of a name.
@Suite("Quiet output and stale formats")
struct QuietAndStaleFormatTests {
    let scratch = ScratchDirectory("lp-quiet")

    var output: String { scratch.file("Reports") }

    func entries() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).sorted() }

    @Test func quietPrintsExactlyOneLineOnAPassAndNoBudgetIsNotAFailure() throws {
        // Half a second to ready, no budget from any source: measured and reported (exit 0), not failed against 400 ms.
        let result = try Executables.run(
            [
                "measure", "--runs", "2", "--warmup", "0", "--quiet", "--output", output, "--name", "server", "--",
                "sleep", "0.5",
            ],
            in: scratch.url)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1, "stdout: \(result.stdout)")
        // Nothing was checked: the line says so (MEASURED), while the exit code is a pass's.
        #expect(lines.first?.hasPrefix("MEASURED  timeToReady") == true, "stdout: \(result.stdout)")
        #expect(lines.first?.contains("no budget to check") == true)
    }

    @Test func aReportRemovesTheFormatsItsNameLeftBeforeButNotAnotherReportsJSON() throws {
        let first = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--quiet", "--output", output, "--name", "app",
                "--format", "json,html,markdown,junit,chrome-trace", "--", "/bin/true",
            ], in: scratch.url)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        #expect(Set(entries()).isSuperset(of: ["app.json", "app.html", "app.md", "app.junit.xml"]), "\(entries())")
        // The name 'app.trace' is refused (its JSON would be app's chrome trace); a report copied to that file stays.
        let refused = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--quiet", "--output", output, "--name", "app.trace",
                "--format", "json",
                "--", "/bin/true",
            ], in: scratch.url)
        #expect(refused.status == 2, "stderr: \(refused.stderr)")
        let other = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--quiet", "--output", output, "--name", "other", "--format",
                "json",
                "--", "/bin/true",
            ], in: scratch.url)
        #expect(other.status == 0, "stderr: \(other.stderr)")
        try FileManager.default.removeItem(atPath: output + "/app.trace.json")
        try FileManager.default.moveItem(atPath: output + "/other.json", toPath: output + "/app.trace.json")
        let second = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--quiet", "--output", output, "--name", "app", "--format",
                "json,markdown",
                "--", "/bin/true",
            ], in: scratch.url)
        #expect(second.status == 0, "stderr: \(second.stderr)")
        let left = entries()
        #expect(left.contains("app.json") && left.contains("app.md"))
        #expect(!left.contains("app.html") && !left.contains("app.junit.xml"), "\(left)")
        #expect(left.contains("app.trace.json"), "another report's JSON stays: \(left)")
    }
}
