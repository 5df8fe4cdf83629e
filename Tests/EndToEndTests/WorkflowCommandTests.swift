import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// Text from a measured program written to standard output cannot issue a
/// GitHub Actions workflow command: no line starts with `::` once leading
/// whitespace is stripped (but the stop-commands pair under GITHUB_ACTIONS),
/// and no `##[` appears.
@Suite("workflow commands on standard output")
struct WorkflowCommandTests {
    let scratch = ScratchDirectory("lp-workflow")

    /// A span budget named with line breaks, workflow commands and a legacy command.
    static let hostileName =
        "x\n::set-output name=evil::1\r  ::error file=x.swift::hi\u{1B}[31m\u{07}\u{0} ##[error]legacy"

    /// A program whose trace declares a budget for a span of ``hostileName``.
    func hostileProgram() throws -> String {
        let budget = String(
            decoding: try JSONSerialization.data(withJSONObject: ["spans": [Self.hostileName: 100]]), as: UTF8.self)
        let quoted = "'" + budget.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return try scratch.write(
            "#!/bin/sh\nexec '\(Executables.fixture)' budget-metadata \(quoted)\n", to: "hostile.sh", permissions: 0o755
        )
    }

    /// Every stdout line that would be a workflow command, and whether `##[` appears.
    func commands(in stdout: String, allowing token: String? = nil) -> [String] {
        stdout.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .filter { line in
                let trimmed = line.drop { $0.isWhitespace }
                if let token, trimmed == "::stop-commands::\(token)" || trimmed == "::\(token)::" { return false }
                return trimmed.hasPrefix("::")
            }.map(String.init) + (stdout.contains("##[") ? ["##["] : [])
    }

    @Test func measureHTMLOnStandardOutputCarriesNoCommand() throws {
        let program = try hostileProgram()
        let result = try Executables.run(
            ["measure", "--runs", "1", "--warmup", "0", "--output", "-", "--format", "html", "--", program],
            in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("set-output name=evil"), "the span's name is in the page")
        #expect(commands(in: result.stdout).isEmpty, "\(commands(in: result.stdout))")
        for raw in ["\u{1B}", "\u{07}", "\u{0}", "\r"] {
            #expect(!result.stdout.contains(raw), "raw \(raw.unicodeScalars.first!.value)")
        }
    }

    @Test func everyFormatOnStandardOutputCarriesNoCommand() throws {
        let program = try hostileProgram()
        let output = scratch.url.appendingPathComponent("out")
        let measured = try Executables.run(
            ["measure", "--runs", "1", "--warmup", "0", "--output", output.path, "--name", "hostile", "--", program],
            in: scratch.url)
        #expect(measured.status == 0, "\(measured.stderr)")
        #expect(commands(in: measured.stdout).isEmpty, "terminal: \(commands(in: measured.stdout))")
        let report = output.appendingPathComponent("hostile.json").path
        for format in ReportFormat.allCases {
            let result = try Executables.run(
                ["report", report, "--format", format.rawValue, "--output", "-"], in: scratch.url)
            #expect(result.status == 0, "\(format): \(result.stderr)")
            #expect(commands(in: result.stdout).isEmpty, "\(format): \(commands(in: result.stdout))")
        }
        // Under GitHub Actions a document on standard output is also wrapped in stop-commands.
        let wrapped = try Executables.run(
            ["report", report, "--format", "json", "--output", "-"], environment: ["GITHUB_ACTIONS": "true"],
            in: scratch.url)
        let lines = wrapped.stdout.split(separator: "\n")
        let first = try #require(lines.first)
        #expect(first.hasPrefix("::stop-commands::"))
        let token = String(first.dropFirst("::stop-commands::".count))
        #expect(token.count == 32)
        #expect(lines.last.map(String.init) == "::\(token)::")
        #expect(commands(in: wrapped.stdout, allowing: token).isEmpty)
        let document = lines.dropFirst().dropLast().joined(separator: "\n")
        #expect(
            try JSONSerialization.jsonObject(with: Data(document.utf8)) is [String: Any],
            "the document between them is the JSON report")
    }
}
