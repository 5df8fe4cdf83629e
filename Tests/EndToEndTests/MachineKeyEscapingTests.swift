import Foundation
import Testing
import _LaunchProfTestSupport

/// A machine key comes from a flag or a stored report: `--machine` refuses
/// control characters, and a report's key is printed escaped, as span names are,
/// by `merge`, `report … --format terminal` and a fleet `compare`.
@Suite("machine keys")
struct MachineKeyEscapingTests {
    let scratch = ScratchDirectory("lp-machine-key")
    static let hostile = "m2\"><script>x</script>\n::error::machine\u{1B}[31m\u{07}"

    /// No raw control character, and no line that is a workflow command.
    func expectClean(_ output: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for raw in ["\u{1B}", "\u{07}", "\r"] {
            #expect(!output.contains(raw), "\(what): raw control character", sourceLocation: sourceLocation)
        }
        let commands = output.split(separator: "\n").filter { $0.drop { $0.isWhitespace }.hasPrefix("::") }
        #expect(commands.isEmpty, "\(what): \(commands)", sourceLocation: sourceLocation)
    }

    @Test func machineRefusesControlCharacters() throws {
        for flag in [["--machine", Self.hostile], ["--machine", "a\tb"]] {
            let result = try Executables.run(["measure", "--runs", "1"] + flag + ["--", "/bin/true"], in: scratch.url)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("--machine"))
        }
        let variable = try Executables.run(
            ["measure", "--runs", "1", "--", "/bin/true"], environment: ["LAUNCHPROF_MACHINE": "x\u{1B}[2J"],
            in: scratch.url)
        #expect(variable.status == 2, "\(variable.stderr)")
        #expect(variable.stderr.contains("LAUNCHPROF_MACHINE"))
    }

    /// A report of /bin/true whose machine key is set to `key` in the stored JSON.
    func report(_ name: String, machine key: String) throws -> String {
        let output = scratch.url.appendingPathComponent(name)
        let result = try Executables.run(
            [
                "measure", "--runs", "3", "--warmup", "0", "--machine", name, "--output", output.path, "--name", name,
                "--format", "json", "--", "/bin/true",
            ],
            in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let path = output.appendingPathComponent("\(name).json").path
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var environment = try #require(object["environment"] as? [String: Any])
        environment["machine"] = key
        object["environment"] = environment
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aStoredReportsMachineKeyIsPrintedEscaped() throws {
        let evil = try report("evil", machine: Self.hostile)
        let plain = try report("plain", machine: "runner-b")
        let evilHead = try report("evilhead", machine: Self.hostile)
        let plainHead = try report("plainhead", machine: "runner-b")
        let fleet = scratch.file("fleet.json")
        let merged = try Executables.run(["merge", evil, plain, "-o", fleet], in: scratch.url)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("::error::machine\\u{1B}[31m"), "\(merged.stdout)")
        expectClean(merged.stdout, "merge")
        let shown = try Executables.run(["report", fleet, "--format", "terminal"], in: scratch.url)
        #expect(shown.stdout.contains("\\u{1B}"), "\(shown.stdout)")
        expectClean(shown.stdout, "report")
        let compared = try Executables.run(
            [
                "compare", "--base-report", evil, "--base-report", plain, "--head-report", evilHead, "--head-report",
                plainHead,
                "--output", scratch.file("cmp"), "--name", "cmp",
            ], in: scratch.url)
        #expect((0...3).contains(compared.status), "\(compared.stderr)")
        #expect(compared.stdout.contains("\\u{1B}"), "\(compared.stdout)")
        expectClean(compared.stdout + compared.stderr, "compare")
    }
}
