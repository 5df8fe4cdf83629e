import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// Issue 33, finding 2: `--password=hunter2` was stored verbatim in the JSON,
/// HTML, JUnit, Chrome trace, hyperfine export, the baseline, OTLP
/// `process.command_args` and the report's file name. Now every file launchprof
/// writes has it masked, while the program still gets it as given.
@Suite("Credentials are not written")
struct CredentialOutputTests {
    let scratch = ScratchDirectory("lp-secrets")

    var output: String { scratch.file("Reports") }

    /// Every file under `folder`, recursively, with its contents.
    func files(under folder: String) -> [(path: String, text: String)] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var result: [(String, String)] = []
        while let relative = enumerator?.nextObject() as? String {
            let path = folder + "/" + relative
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                result.append(
                    (path, String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)))
            }
        }
        return result
    }

    func measure(_ extra: [String]) throws -> Executables.Result {
        let program = "printf '%s %s %s' \"$1\" \"$2\" \"$3\" > '\(scratch.file("arguments"))'"
        return try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--ready", "exit", "--budget-ms", "100000", "--output",
                output, "--format", "json,html,markdown,junit,chrome-trace,hyperfine", "--save-baseline", "main",
            ] + extra + ["--", "/bin/sh", "-c", program, "sh", "--password=hunter2", "--token", "s3cr3t-tok"])
    }

    @Test func noCredentialReachesAReportABaselineAnExportOrAFileName() throws {
        let result = try measure([])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(ScratchDirectory.read(scratch.file("arguments")) == "--password=hunter2 --token s3cr3t-tok")
        let written = files(under: output)
        #expect(written.count >= 7, "\(written.map(\.path))")
        for (path, text) in written {
            #expect(!path.contains("hunter2") && !path.contains("s3cr3t"), "file name \(path)")
            #expect(!text.contains("hunter2") && !text.contains("s3cr3t-tok"), "\(path) holds a credential")
        }
        #expect(!result.stdout.contains("hunter2") && !result.stderr.contains("hunter2"))
        let json = try #require(
            written.first {
                $0.path.hasSuffix(".json") && !$0.path.contains("/baselines/") && !$0.path.hasSuffix(".trace.json")
                    && !$0.path.hasSuffix(".hyperfine.json") && !$0.path.contains(".runs/")
            })
        let report = try JSONReport.read(from: json.path)
        #expect(report.configuration.command.suffix(3) == ["--password=***", "--token", "***"])
        let export = try Executables.run(["export", json.path, "--otlp", "-"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("process.command_args") && export.stdout.contains("--password=***"))
        #expect(!export.stdout.contains("hunter2") && !export.stdout.contains("s3cr3t-tok"))
    }

    @Test func keepCommandLineWritesItVerbatim() throws {
        let result = try measure(["--keep-command-line", "--name", "kept"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONReport.read(from: output + "/kept.json")
        #expect(report.configuration.command.suffix(3) == ["--password=hunter2", "--token", "s3cr3t-tok"])
    }

    /// `--redact-paths` covers the progress lines: a failed run's problem on
    /// standard error has no full path and no user name.
    @Test func redactPathsCoversTheProgressLines() throws {
        let folder = scratch.file("private-folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--ready", "exit", "--output", output, "--redact-paths",
                "--", "/bin/sh", "-c", "echo \"cannot open \(folder)/db.sqlite\" >&2; exit 3",
            ])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("FAILED"), "\(result.stderr)")
        #expect(!result.stderr.contains(folder), "\(result.stderr)")
        let plain = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--ready", "exit", "--output", output,
                "--", "/bin/sh", "-c", "echo \"cannot open \(folder)/db.sqlite\" >&2; exit 3",
            ])
        #expect(plain.stderr.contains(folder), "without --redact-paths the path is shown: \(plain.stderr)")
    }
}
