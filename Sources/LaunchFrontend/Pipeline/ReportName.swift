import LaunchAnalysis
import LaunchReports

/// The default name of a report of commands (not of the bundled sample, whose
/// names are fixed): the name the command line gives, unless a report by that
/// name in the output folder came from a different command line — then that name
/// with the command line's hash, so that one command's report never replaces
/// another's. A report that cannot be read counts as another command's.
enum ReportName {
    /// The name of a measurement of `command`, written by `writer` (nil: to standard output).
    static func measurement(_ command: [String], derived: String, writer: ReportWriter?) -> String {
        guard let path = writer?.path(of: .json, name: derived), Files.exists(path) else { return derived }
        if case .measurement(let report)? = try? JSONReport.readDocument(from: path), report.configuration.command == command {
            return derived
        }
        return withHash(derived, of: command)
    }

    /// The name of a comparison of `base` with `head` (`compare-<base>-vs-<head>`), likewise.
    static func comparison(base: ProgramTarget, head: ProgramTarget, writer: ReportWriter?) -> String {
        let both = base.command + ["--vs--"] + head.command
        let derived = comparison(base.shortName, head.shortName, hashing: both)
        guard !(base.isSample && head.isSample) else { return derived }
        guard let writer, let path = writer.path(of: .json, name: derived + ".comparison"), Files.exists(path) else {
            return derived
        }
        if case .comparison(let report)? = try? JSONReport.readDocument(from: path),
           report.base.configuration.command == base.command, report.head.configuration.command == head.command {
            return derived
        }
        return withHash(derived, of: both)
    }

    /// The one rule for a comparison's name: `compare-<base>-vs-<head>`, cut
    /// with the hash of `hashing` (both sides' command lines) when too long.
    static func comparison(_ base: String, _ head: String, hashing: [String]) -> String {
        ReportFileName.capped("compare-\(base)-vs-\(head)", hashing: hashing)
    }

    /// `name-<hash>`, cut so that the whole is at most ``ReportFileName/maximumLength`` characters.
    static func withHash(_ name: String, of command: [String]) -> String {
        let hash = ReportFileName.hash(of: command)
        guard !name.hasSuffix("-" + hash) else { return name }
        return ReportFileName.capped(name + "-" + hash, hashing: command)
    }
}
