import Foundation
import LaunchAnalysis

/// The runs in hyperfine's `--export-json` format, for the tools and scripts
/// that read it (hyperfine's own `scripts/`, benchmark dashboards).
///
/// `{"results": [{"command", "mean", "stddev", "median", "user", "system",
/// "min", "max", "times", "exit_codes"}]}`, every time in **seconds**. `times`
/// holds each counted, successful run's time to ready
/// (``LaunchAnalysis/RunRecord/timeToReadyMs``, the figure `measure` judges),
/// in run order; `exit_codes` holds one entry per time, as in hyperfine, so
/// it is 0 for each (a run is only successful when its program did not fail;
/// failed runs are in the JSON report). The statistics are computed as
/// ``LaunchAnalysis/Summary`` computes them: the median is type 7, `stddev` is
/// the sample one (n − 1), and null with fewer than two runs, as hyperfine
/// writes it. With no successful run, the statistics are null and `times` empty.
///
/// `user` and `system` are the mean user and system CPU time of the same runs,
/// in seconds, as hyperfine writes them: the launched process tree's, from
/// spawn until it ended (``LaunchAnalysis/RunRecord/cpuTime``). They are 0 when
/// no run recorded it (hot launches, reports written before it was recorded).
///
/// Each result also carries `launchprof_meaning`, which says so in words: `times`
/// run to ready (the first frame, or the ready the measurement used), not to exit,
/// while `user` and `system` run to exit.
///
/// A comparison writes two results, base then head, each with
/// `"parameters": {"side": "base"}` (or `head`) to tell them apart when both
/// sides ran the same command.
///
/// ```swift
/// let bytes = try HyperfineReport.render(.measurement(report))
/// ```
public enum HyperfineReport {
    /// Renders `document` in hyperfine's export format.
    public static func render(_ document: ReportDocument) throws(ReportError) -> [UInt8] {
        var export: Export
        switch document {
        case .measurement(let report):
            export = Export(results: [Result(report, side: nil)])
        case .comparison(let report):
            export = Export(results: report.sides.map { Result($0.report, side: $0.side.rawValue) })
        }
        export.launchprofReportID = document.reportID
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(export)) + [0x0A]
        } catch {
            throw .cannotEncode(reason: "\(error)")
        }
    }

    /// The command as one shell line, as hyperfine names a result: words
    /// other than plain letters, digits and `-_./=:,@%+` are single-quoted.
    ///
    /// ```swift
    /// HyperfineReport.commandLine(["/bin/echo", "a b"])   // "/bin/echo 'a b'"
    /// ```
    public static func commandLine(_ words: [String]) -> String {
        CommandLineText.quoted(words)
    }

    private struct Export: Encodable {
        var results: [Result]
        /// The written report's id (``ReportDocument/reportID``), beside hyperfine's keys; absent when none.
        var launchprofReportID: String? = nil
    }

    private struct Result: Encodable {
        var command: String
        var mean: Double?
        var stddev: Double?
        var median: Double?
        var user: Double = 0
        var system: Double = 0
        var min: Double?
        var max: Double?
        var times: [Double]
        var exitCodes: [Int32]
        var parameters: [String: String]?
        /// What `times` and `user`/`system` measure (hyperfine's readers ignore a key they do not know).
        var meaning: String

        init(_ report: MeasurementReport, side: String?) {
            meaning =
                "times: each successful run's time from spawn to ready (\(report.readyLabel)), not to its exit; "
                + "user and system: the mean CPU time of the launched process tree from spawn until it exited"
            command = HyperfineReport.commandLine(report.configuration.command)
            let counted = report.successfulRuns
            let milliseconds = counted.compactMap(\.timeToReadyMs)
            times = milliseconds.map { $0 / 1000 }
            exitCodes = times.map { _ in 0 }
            let summary = Summary.of(milliseconds)
            mean = summary.map { $0.mean / 1000 }
            stddev = summary.flatMap { $0.count > 1 ? $0.standardDeviation / 1000 : nil }
            median = summary.map { $0.median / 1000 }
            min = summary.map { $0.min / 1000 }
            max = summary.map { $0.max / 1000 }
            parameters = side.map { ["side": $0] }
            // The profile's CPU time is over the same runs: the counted, successful ones.
            if let cpu = report.profile.cpuTime {
                user = cpu.user.mean / 1000
                system = cpu.system.mean / 1000
            }
        }

        enum CodingKeys: String, CodingKey {
            case command, mean, stddev, median, user, system, min, max, times, exitCodes = "exit_codes", parameters
            case meaning = "launchprof_meaning"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(command, forKey: .command)
            // hyperfine writes null, not nothing, for a value it could not compute;
            // so does this for one JSON cannot hold (a stored report's 1e308 ms overflows to inf).
            func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
            try container.encode(finite(mean), forKey: .mean)
            try container.encode(finite(stddev), forKey: .stddev)
            try container.encode(finite(median), forKey: .median)
            try container.encode(finite(user), forKey: .user)
            try container.encode(finite(system), forKey: .system)
            try container.encode(finite(min), forKey: .min)
            try container.encode(finite(max), forKey: .max)
            try container.encode(times.map(finite), forKey: .times)
            try container.encode(exitCodes, forKey: .exitCodes)
            try container.encodeIfPresent(parameters, forKey: .parameters)
            try container.encode(meaning, forKey: .meaning)
        }
    }
}
