import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// launchprof writing into a pipe whose reader has gone (`launchprof … | head -1`):
/// a write error like a full disk, never death by SIGPIPE.
@Suite("writing into a pipe whose reader has gone")
struct BrokenPipeTests {
    let scratch = ScratchDirectory("lp-broken-pipe")

    /// How a launchprof run into a closed pipe ended.
    struct Ending {
        /// The exit code, or nil when a signal ended it.
        var code: Int32?
        /// The signal that ended it, if one did.
        var signal: Int32?
        /// What it wrote on standard error, when that went to a file.
        var stderr: String
    }

    /// Runs launchprof with standard output (and standard error too, unless
    /// `stderrToFile`) going into a pipe whose read end is already closed.
    func runIntoClosedPipe(_ arguments: [String], stderrToFile: Bool = false) throws -> Ending {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        close(ends[0])  // the reader is gone before the first byte
        defer { close(ends[1]) }
        let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
        let errorFile = scratch.file("stderr-\(UUID().uuidString).txt")
        FileManager.default.createFile(atPath: errorFile, contents: nil)
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
        defer { try? errors.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Executables.launchprof)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = writer
        process.standardError = stderrToFile ? errors : writer
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        let signaled = process.terminationReason == .uncaughtSignal
        return Ending(
            code: signaled ? nil : process.terminationStatus, signal: signaled ? process.terminationStatus : nil,
            stderr: ScratchDirectory.read(errorFile))
    }

    @Test func aMeasurementWhoseReaderWentAwayKeepsItsReportRunsTheCleanupAndExitsTwo() throws {
        let output = scratch.file("Reports")
        let marker = scratch.file("cleaned-up")
        let ending = try runIntoClosedPipe(
            [
                "measure", "--runs", "3", "--warmup", "0", "--budget-ms", "60000", "--cleanup", "touch '\(marker)'",
                "--output", output, "--name", "piped", "--", "/bin/sleep", "0.3",
            ])
        #expect(ending.signal == nil, "launchprof was killed by signal \(ending.signal ?? 0)")
        #expect(ending.code == 2)
        #expect(try JSONReport.read(from: output + "/piped.json").runs.count == 3)
        #expect(FileManager.default.fileExists(atPath: marker), "the cleanup did not run")
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        #expect(!entries.contains { $0.contains(".tmp-") }, "\(entries)")
        #expect(entries.contains("piped.runs"), "\(entries)")
    }

    /// The stored outcome is the verdict's (pass, exit 0); the one line says that exit 2 is for the lost output.
    @Test func theLineForALostOutputNamesTheVerdictTheReportKeeps() throws {
        let output = scratch.file("Reports")
        let ending = try runIntoClosedPipe(
            [
                "measure", "--runs", "2", "--warmup", "0", "--budget-ms", "60000", "--output", output, "--name", "kept",
                "--", "/bin/true",
            ],
            stderrToFile: true)
        #expect(ending.code == 2, "\(ending.stderr)")
        let report = try JSONReport.read(from: output + "/kept.json")
        #expect(report.outcome.exitCode.rawValue == 0)
        let lines = ending.stderr.split(separator: "\n").filter { $0.contains("cannot write to standard output") }
        #expect(lines.count == 1, "\(ending.stderr)")
        #expect(lines.first?.contains("verdict was exit 0") == true, "\(ending.stderr)")
    }

    @Test func reportTraceAndExportWhoseReaderWentAwaySayOneLineAndExitTwo() throws {
        let output = scratch.file("Reports")
        let app = Executables.directory.appendingPathComponent("ExampleHarnessApp").path
        let measured = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--budget-ms", "60000", "--quiet", "--output", output,
                "--name", "app", "--", app,
            ])
        #expect(measured.status == 0, "\(measured.stderr)")
        let report = output + "/app.json"
        let trace = output + "/app.runs/run-1/trace.lptrace"
        for arguments in [
            ["report", report, "--format", "markdown", "--output", "-"], ["trace", trace],
            ["export", report, "--otlp", "-"],
        ] {
            let ending = try runIntoClosedPipe(arguments, stderrToFile: true)
            #expect(ending.signal == nil, "\(arguments[0]) was killed by signal \(ending.signal ?? 0)")
            #expect(ending.code == 2, "\(arguments[0]): \(ending.stderr)")
            let lines = ending.stderr.split(separator: "\n")
            #expect(
                lines.count == 1 && ending.stderr.contains("cannot write to standard output"),
                "\(arguments[0]): \(ending.stderr)")
        }
    }

    @Test func theMeasuredProgramStillGetsSIGPIPEsDefaultAction() throws {
        let output = scratch.file("Reports")
        let result = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--budget-ms", "60000", "--quiet", "--output", output,
                "--name", "signals",
                "--", "/bin/sh", "-c", "grep '^SigIgn:' /proc/self/status",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let line = ScratchDirectory.read(output + "/signals.runs/run-1/stdout.txt")
        let mask = try #require(
            UInt64(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "", radix: 16),
            "\(line)")
        #expect(mask & (1 << (UInt64(SIGPIPE) - 1)) == 0, "SIGPIPE is ignored in the measured program: SigIgn \(line)")
    }
}
