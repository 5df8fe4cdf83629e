import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// `launchprof report`: any format again from a saved report; CI annotations.
@Suite("report", .serialized)
struct ReportCommandTests {
    static let environment = ["LAUNCHPROF_SAMPLE_DIR": Executables.temporaryDirectory().path]

    /// A measurement of the naive sample, saved as JSON only.
    static let saved: (folder: URL, report: MeasurementReport)? = {
        let folder = Executables.temporaryDirectory()
        _ = try? Executables.run(
            ["measure", "--runs", "3", "--warmup", "0", "--format", "json", "--quiet", "--output", folder.path], environment: environment)
        guard let report = try? JSONReport.read(from: folder.appendingPathComponent("sample-naive.json").path) else { return nil }
        return (folder, report)
    }()

    @Test func formatsAreRenderedAgainBesideTheReport() throws {
        let (folder, report) = try #require(Self.saved)
        let result = try Executables.run(["report", folder.appendingPathComponent("sample-naive.json").path, "--format", "markdown,terminal", "--no-color"])
        #expect(result.status == 0, "\(result.stderr)")
        let markdown = try String(contentsOf: folder.appendingPathComponent("sample-naive.md"), encoding: .utf8)
        // The Markdown table's columns hold the report's numbers.
        for statistics in report.profile.phases {
            let row = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| \(statistics.phase.rawValue) |") })
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells[1] == Milliseconds.text(statistics.summary.median))
            #expect(cells[2] == Milliseconds.text(statistics.summary.p90))
        }
        #expect(result.stdout.hasPrefix("launchprof measure — sample-naive"))
        #expect(result.stdout.contains("wrote \(folder.path)/sample-naive.md"))
    }

    @Test func oneFormatGoesToStandardOutput() throws {
        let (folder, report) = try #require(Self.saved)
        let result = try Executables.run(["report", folder.appendingPathComponent("sample-naive.json").path, "--format", "json", "--output", "-"])
        #expect(result.status == 0)
        let decoded = try JSONDecoder().decode(MeasurementReport.self, from: Data(result.stdout.utf8))
        #expect(decoded.runs.count == report.runs.count)
        let two = try Executables.run(["report", folder.appendingPathComponent("sample-naive.json").path, "--format", "json,markdown", "--output", "-"])
        #expect(two.status == 2)
    }

    @Test func findingsBecomeAnnotationsWithRepositoryPaths() throws {
        let (folder, report) = try #require(Self.saved)
        let result = try Executables.run(
            ["report", folder.appendingPathComponent("sample-naive.json").path, "--format", "json", "--output", "-"],
            environment: ["GITHUB_ACTIONS": "true"], in: Executables.packageRoot)
        // Standard output holds the report alone; the annotations go to standard error.
        #expect(!result.stdout.contains("\n::"))
        let annotations = result.stderr.split(separator: "\n").filter { $0.hasPrefix("::") }
        let located = report.profile.findings.filter { $0.file != nil }
        #expect(annotations.count >= located.count)
        for finding in located {
            let file = "Sources/" + finding.file!
            #expect(FileManager.default.fileExists(atPath: Executables.packageRoot.appendingPathComponent(file).path))
            #expect(annotations.contains { $0.contains("file=\(file),line=\(finding.line!),title=launchprof \(finding.rule.id)::") },
                    "no annotation for \(finding.rule.id) at \(file):\(finding.line!)")
        }
        let none = try Executables.run(
            ["report", folder.appendingPathComponent("sample-naive.json").path, "--format", "json", "--output", "-", "--annotations", "none"],
            environment: ["GITHUB_ACTIONS": "true"])
        #expect(!none.stdout.contains("\n::"))
    }

    @Test func badReportsAndOutputsAreOneLineAndExitTwo() throws {
        let scratch = Executables.temporaryDirectory()
        let newer = scratch.appendingPathComponent("newer.json")
        try Data(#"{"kind": "measurement", "schemaVersion": 99}"#.utf8).write(to: newer)
        let malformed = scratch.appendingPathComponent("malformed.json")
        try Data("{\"kind\": ".utf8).write(to: malformed)
        for (path, mention) in [(scratch.appendingPathComponent("missing.json").path, "missing.json"), (newer.path, "schemaVersion 99"),
                                (malformed.path, "malformed.json")] {
            let result = try Executables.run(["report", path])
            #expect(result.status == 2, "\(path)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(mention), "\(result.stderr)")
        }
        // An output that cannot be written: the terminal report is still shown.
        let (folder, _) = try #require(Self.saved)
        let result = try Executables.run(["report", folder.appendingPathComponent("sample-naive.json").path, "--output", "/proc/launchprof-nope"])
        #expect(result.status == 2)
        #expect(result.stdout.hasPrefix("launchprof measure — sample-naive"))
        #expect(result.stderr.contains("/proc/launchprof-nope"))
    }
}
