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
            ["measure", "--runs", "3", "--warmup", "0", "--format", "json", "--quiet", "--output", folder.path],
            environment: environment)
        guard let report = try? JSONReport.read(from: folder.appendingPathComponent("sample-naive.json").path) else {
            return nil
        }
        return (folder, report)
    }()

    @Test func formatsAreRenderedAgainBesideTheReport() throws {
        let (folder, report) = try #require(Self.saved)
        let result = try Executables.run([
            "report", folder.appendingPathComponent("sample-naive.json").path, "--format", "markdown,terminal",
            "--no-color",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let markdown = try String(contentsOf: folder.appendingPathComponent("sample-naive.md"), encoding: .utf8)
        // The Markdown table's columns hold the report's numbers.
        for statistics in report.profile.phases {
            let row = try #require(
                markdown.split(separator: "\n").first { $0.hasPrefix("| \(statistics.phase.rawValue) |") })
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells[1] == LaunchReports.ms(statistics.summary.median))
            #expect(cells[2] == LaunchReports.ms(statistics.summary.p90))
        }
        #expect(result.stdout.hasPrefix("launchprof measure — sample-naive"))
        #expect(result.stdout.contains("wrote \(folder.path)/sample-naive.md"))
    }

    /// Every format written at measure time, rendered again from the JSON by
    /// `launchprof report`, is the same, byte for byte: the JSON holds all
    /// that any format shows (span tables included), and reads back exactly.
    @Test func everyFormatRenderedAgainIsByteIdenticalToTheOneWrittenWhenMeasured() throws {
        let measured = Executables.temporaryDirectory()
        let again = Executables.temporaryDirectory()
        let files = ReportFormat.allCases.filter { $0.fileExtension != nil }
        let formats = (files.map(\.rawValue) + ["terminal"]).joined(separator: ",")
        let measure = try Executables.run(
            ["measure", "--runs", "3", "--warmup", "0", "--format", formats, "--no-color", "--output", measured.path],
            environment: Self.environment)
        #expect(measure.status <= 1, "\(measure.stderr)")
        let json = measured.appendingPathComponent("sample-naive.json").path
        let report = try Executables.run(["report", json, "--format", formats, "--no-color", "--output", again.path])
        #expect(report.status == 0, "\(report.stderr)")
        for format in files {
            let name = "sample-naive." + format.fileExtension!
            let first = try Data(contentsOf: measured.appendingPathComponent(name))
            let second = try Data(contentsOf: again.appendingPathComponent(name))
            #expect(!first.isEmpty)
            #expect(first == second, "\(name) differs when rendered again from the JSON")
        }
        // The terminal report: what measure printed, before the files it names.
        let terminal = try Executables.run(["report", json, "--format", "terminal", "--no-color", "--output", "-"])
        #expect(terminal.status == 0)
        #expect(
            !terminal.stdout.isEmpty && measure.stdout.hasPrefix(terminal.stdout),
            "measure printed:\n\(measure.stdout)\nreport printed:\n\(terminal.stdout)")
    }

    @Test func oneFormatGoesToStandardOutput() throws {
        let (folder, report) = try #require(Self.saved)
        let result = try Executables.run([
            "report", folder.appendingPathComponent("sample-naive.json").path, "--format", "json", "--output", "-",
        ])
        #expect(result.status == 0)
        let decoded = try JSONDecoder().decode(MeasurementReport.self, from: Data(result.stdout.utf8))
        #expect(decoded.runs.count == report.runs.count)
        let two = try Executables.run([
            "report", folder.appendingPathComponent("sample-naive.json").path, "--format", "json,markdown", "--output",
            "-",
        ])
        #expect(two.status == 2)
    }

    @Test func findingsBecomeAnnotationsWithRepositoryPaths() throws {
        let (folder, report) = try #require(Self.saved)
        let result = try Executables.run(
            ["report", folder.appendingPathComponent("sample-naive.json").path, "--format", "json", "--output", "-"],
            environment: ["GITHUB_ACTIONS": "true"], in: Executables.packageRoot)
        // Standard output holds the report alone, between the stop-commands pair; the annotations go to standard error.
        #expect(!Self.withoutStopCommands(result.stdout).contains("\n::"))
        let annotations = result.stderr.split(separator: "\n").filter { $0.hasPrefix("::") }
        let located = report.profile.findings.filter { $0.file != nil }
        #expect(annotations.count >= located.count)
        for finding in located {
            let file = "Sources/" + finding.file!
            #expect(FileManager.default.fileExists(atPath: Executables.packageRoot.appendingPathComponent(file).path))
            #expect(
                annotations.contains {
                    $0.contains("file=\(file),line=\(finding.line!),title=launchprof \(finding.rule.id)::")
                },
                "no annotation for \(finding.rule.id) at \(file):\(finding.line!)")
        }
        let none = try Executables.run(
            [
                "report", folder.appendingPathComponent("sample-naive.json").path, "--format", "json", "--output", "-",
                "--annotations", "none",
            ],
            environment: ["GITHUB_ACTIONS": "true"])
        #expect(!Self.withoutStopCommands(none.stdout).contains("\n::"))
    }

    /// `stdout` without its first line `::stop-commands::TOKEN` and last line `::TOKEN::` (checked to be there).
    static func withoutStopCommands(_ stdout: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard let first = lines.first, first.hasPrefix("::stop-commands::"), lines.count >= 2 else {
            Issue.record("no stop-commands line first: \(stdout.prefix(80))", sourceLocation: sourceLocation)
            return stdout
        }
        let token = first.dropFirst("::stop-commands::".count)
        #expect(lines.last.map(String.init) == "::\(token)::", sourceLocation: sourceLocation)
        return lines.dropFirst().dropLast().joined(separator: "\n")
    }

    /// A traced build records each call site's `#filePath`; annotations make it
    /// relative to the repository, so a file outside `Sources/<Module>` is found.
    @Test func annotationsUseTheRecordedFilePath() throws {
        let (_, saved) = try #require(Self.saved)
        let located = saved.profile.findings.filter { $0.file != nil }
        #expect(!located.isEmpty)
        for finding in located {
            // The sample was built from this checkout: its #filePath is the real file.
            #expect(finding.filePath == Executables.packageRoot.appendingPathComponent("Sources/" + finding.file!).path)
        }
        // The app built on another machine, from a checkout laid out otherwise
        // (no folder named after the module), the report rendered here.
        let repository = Executables.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: repository.appendingPathComponent("Lib"), withIntermediateDirectories: true)
        var report = saved
        for index in report.profile.findings.indices {
            guard let file = report.profile.findings[index].file else { continue }
            let name = String(file.split(separator: "/").last!)
            report.profile.findings[index].filePath = "/ci/build/checkout/Lib/" + name
            FileManager.default.createFile(
                atPath: repository.appendingPathComponent("Lib/" + name).path, contents: Data())
        }
        let path = repository.appendingPathComponent("moved.json")
        try JSONEncoder().encode(report).write(to: path)
        let result = try Executables.run(
            ["report", path.path, "--format", "json", "--output", "-"], environment: ["GITHUB_ACTIONS": "true"],
            in: repository)
        #expect(result.status == 0, "\(result.stderr)")
        let annotations = result.stderr.split(separator: "\n").filter { $0.hasPrefix("::") }
        for finding in located {
            let file = "Lib/" + finding.file!.split(separator: "/").last!
            #expect(
                annotations.contains { $0.contains("file=\(file),line=\(finding.line!),") }, "no annotation at \(file)")
        }
        // Without a recorded path (a report from before paths were recorded) the
        // #fileID's conventional place is the guess.
        for index in report.profile.findings.indices { report.profile.findings[index].filePath = nil }
        try JSONEncoder().encode(report).write(to: path)
        let old = try Executables.run(
            ["report", path.path, "--format", "json", "--output", "-"], environment: ["GITHUB_ACTIONS": "true"],
            in: repository)
        for finding in located {
            #expect(old.stderr.contains("file=Sources/\(finding.file!),line=\(finding.line!),"))
        }
    }

    @Test func badReportsAndOutputsAreOneLineAndExitTwo() throws {
        let scratch = Executables.temporaryDirectory()
        let newer = scratch.appendingPathComponent("newer.json")
        try Data(#"{"kind": "measurement", "schemaVersion": 99}"#.utf8).write(to: newer)
        let malformed = scratch.appendingPathComponent("malformed.json")
        try Data("{\"kind\": ".utf8).write(to: malformed)
        for (path, mention) in [
            (scratch.appendingPathComponent("missing.json").path, "missing.json"), (newer.path, "schemaVersion 99"),
            (malformed.path, "malformed.json"),
        ] {
            let result = try Executables.run(["report", path])
            #expect(result.status == 2, "\(path)")
            #expect(
                result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(mention), "\(result.stderr)")
        }
        // An output that cannot be written: the terminal report is still shown.
        let (folder, _) = try #require(Self.saved)
        let result = try Executables.run([
            "report", folder.appendingPathComponent("sample-naive.json").path, "--output", "/proc/launchprof-nope",
        ])
        #expect(result.status == 2)
        #expect(result.stdout.hasPrefix("launchprof measure — sample-naive"))
        #expect(result.stderr.contains("/proc/launchprof-nope"))
    }
}
