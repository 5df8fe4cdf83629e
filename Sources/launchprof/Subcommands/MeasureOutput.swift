import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchReports

/// Writes the measure command's reports and picks its exit code.
enum Output {
    static func write(_ outcome: MeasureOutcome, request: MeasureRequest) -> ExitCode {
        let report = outcome.report
        var written: [String] = []
        var writeProblem: String?
        // The JSON report first: it is the record everything else comes from.
        if request.formats.contains("json") {
            let path = (request.outputDirectory as NSString).appendingPathComponent("\(MeasureRequest.safeFileName(report.name)).json")
            do {
                try JSONReport.render(report).write(to: URL(fileURLWithPath: path), options: .atomic)
                written.append(path)
            } catch {
                writeProblem = "cannot write \(path): \(error.localizedDescription)"
            }
        }
        // What was measured is shown even when it could not be saved (and then even with --quiet).
        if request.formats.contains("terminal") && !request.quiet || writeProblem != nil {
            print(TerminalReport.render(report, color: request.color))
            if !written.isEmpty { print("report: " + written.joined(separator: ", ")) }
        }
        if let writeProblem {
            Terminal.standardError("launchprof: \(writeProblem)")
            return .error
        }
        let profile = report.profile
        if outcome.interrupted { return .interrupted }
        if profile.successfulRuns == 0 {
            let first = report.runs.first { !$0.isWarmup && $0.status != .ok }
            Terminal.standardError("launchprof: every run failed" + (first?.problem.map { " (run \(first!.index): \($0))" } ?? ""))
            return .error
        }
        return profile.verdict.passed ? .success : .gateFailed
    }
}

/// The live progress line: `run 3/10  median 412 ms  ~4 s left` on a terminal,
/// one plain line per run otherwise. Written to standard error.
final class ProgressLine: MeasureProgress, @unchecked Sendable {
    let quiet: Bool
    let interactive = Terminal.isStandardErrorInteractive
    private var values: [Double] = []
    private var started: Double?

    init(quiet: Bool) { self.quiet = quiet }

    func runFinished(_ run: RunRecord, counted: Int, of total: Int, warmup: Bool, elapsedSeconds: Double) {
        guard !quiet else { return }
        let value = run.milliseconds(.timeToFirstFrame) ?? run.timeToReadyMs
        let label = warmup ? "warm-up" : "run \(counted)/\(total)"
        if !warmup, let value { values.append(value) }
        let status = run.status == .ok ? (value.map { ms($0) } ?? "ok") : "FAILED: \(run.problem ?? run.status.rawValue)"
        if interactive {
            let median = values.isEmpty ? "" : "  median \(ms(values.sorted()[values.count / 2]))"
            let done = max(1, counted)
            let left = warmup || counted == 0 ? "" : "  ~\(Int((elapsedSeconds / Double(done) * Double(total - counted)).rounded())) s left"
            Terminal.standardErrorRaw("\r\u{1B}[2K\(label)  \(status)\(median)\(left)")
            if run.status != .ok { Terminal.standardErrorRaw("\n") }
        } else {
            Terminal.standardError("\(label): \(status)")
        }
    }

    func finished() {
        if interactive && !quiet { Terminal.standardErrorRaw("\r\u{1B}[2K") }
    }
}

/// Small file-system helpers for the command.
enum FileSystem {
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Creates `path` if needed and proves it writable; returns the problem, or nil.
    static func prepareWritableDirectory(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { return "it is a file, not a directory" }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                return (error as NSError).localizedDescription
            }
        }
        let probe = (path as NSString).appendingPathComponent(".launchprof-write-test-\(ProcessInfo.processInfo.processIdentifier)")
        guard FileManager.default.createFile(atPath: probe, contents: Data()) else { return "the directory is not writable" }
        try? FileManager.default.removeItem(atPath: probe)
        return nil
    }
}
