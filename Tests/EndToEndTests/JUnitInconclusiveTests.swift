import Foundation
import Testing
import _LaunchProfTestSupport

/// `--junit-inconclusive-pass` reaches the JUnit file that `compare` writes and
/// that `report` writes again from a stored comparison (it once reached only
/// `--output -`).
@Suite("JUnit for an inconclusive comparison")
struct JUnitInconclusiveTests {
    let scratch = ScratchDirectory("lp-junit")

    /// A stored measurement of /bin/true whose five runs are ready at `values` ms,
    /// spawned `shift` s after the measured ones (so base and head never share a run).
    func storedReport(_ name: String, values: [Double], shift: UInt64) throws -> String {
        let output = scratch.url.appendingPathComponent(name)
        let result = try Executables.run(
            [
                "measure", "--runs", "5", "--warmup", "0", "--output", output.path, "--name", name, "--format", "json",
                "--", "/bin/true",
            ],
            in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let path = output.appendingPathComponent("\(name).json").path
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.count == values.count)
        for index in runs.indices {
            runs[index]["timeToReadyMs"] = values[index]
            runs[index]["timeToExitMs"] = values[index]
            var clock = try #require(runs[index]["wallClock"] as? [String: Any])
            clock["unixNanoseconds"] = (clock["unixNanoseconds"] as? UInt64 ?? 0) + shift * 1_000_000_000
            runs[index]["wallClock"] = clock
        }
        object["runs"] = runs
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }

    func junit(in folder: URL) throws -> String {
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".junit.xml") })
        return try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func theFlagMakesTheWrittenJUnitSkipAnInconclusiveComparison() throws {
        // Five runs a side that overlap: neither a regression nor a pass can be shown.
        let base = try storedReport("base", values: [10, 20, 30, 40, 50], shift: 0)
        let head = try storedReport("head", values: [15, 25, 35, 45, 55], shift: 1)
        let plain = scratch.url.appendingPathComponent("plain")
        let flagged = scratch.url.appendingPathComponent("flagged")
        let failing = try Executables.run(
            ["compare", base, head, "--output", plain.path, "--name", "cmp", "--format", "json,junit"], in: scratch.url)
        try #require(
            failing.status == 3, "the comparison must be inconclusive: exit \(failing.status) \(failing.stderr)")
        #expect(try junit(in: plain).contains("<failure"))

        let passing = try Executables.run(
            [
                "compare", base, head, "--output", flagged.path, "--name", "cmp", "--format", "junit",
                "--junit-inconclusive-pass",
            ],
            in: scratch.url)
        #expect(passing.status == 3, "the exit code still says inconclusive")
        let written = try junit(in: flagged)
        #expect(written.contains("<skipped") && !written.contains("<failure"), "\(written)")

        // `report` draws a stored comparison's JUnit the same way.
        let redrawn = scratch.url.appendingPathComponent("redrawn")
        let report = try Executables.run(
            [
                "report", plain.appendingPathComponent("cmp.comparison.json").path, "--format", "junit", "--output",
                redrawn.path,
                "--junit-inconclusive-pass",
            ], in: scratch.url)
        #expect(report.status == 0, "\(report.stderr)")
        let again = try junit(in: redrawn)
        #expect(again.contains("<skipped") && !again.contains("<failure"), "\(again)")
    }
}
