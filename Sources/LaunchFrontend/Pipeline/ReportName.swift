import LaunchAnalysis
import LaunchReports
import _LaunchSystem

/// The default name of a report of commands (not of the bundled sample, whose
/// names are fixed): the name the command line gives, unless a report by that
/// name in the output folder came from a different command line — then that name
/// with the command line's hash, so that one command's report never replaces
/// another's. A report that cannot be read counts as another command's.
enum ReportName {
    /// The name of a measurement of `command`, written by `writer` (nil: to
    /// standard output), and the summary of the old report that name already has,
    /// read once (only its header fields), before any launch.
    static func measurement(_ command: [String], derived: String, writer: ReportWriter?) -> (
        name: String, old: ReportSummary?
    ) {
        guard let path = writer?.path(of: .json, name: derived), SystemCalls.exists(path) else { return (derived, nil) }
        let old = ReportSummary.read(from: path)
        if let old, old.kind == .measurement, old.commands == [command] { return (derived, old) }
        let name = withHash(derived, of: command)
        return (name, previous(name, writer: writer))
    }

    /// The summary of the old measurement report named `name` in `writer`'s folder, if there is one.
    static func previous(_ name: String, writer: ReportWriter?) -> ReportSummary? {
        guard let path = writer?.path(of: .json, name: name), SystemCalls.exists(path) else { return nil }
        return ReportSummary.read(from: path)
    }

    /// The name of a comparison of `base` with `head` (`compare-<base>-vs-<head>`), likewise.
    static func comparison(base: ProgramTarget, head: ProgramTarget, writer: ReportWriter?) -> String {
        let both = base.command + ["--vs--"] + head.command
        let derived = comparison(base.shortName, head.shortName, hashing: both)
        guard !(base.isSample && head.isSample) else { return derived }
        guard let writer, let path = writer.path(of: .json, name: derived, kind: .comparison), SystemCalls.exists(path)
        else {
            return derived
        }
        if let old = ReportSummary.read(from: path), old.kind == .comparison,
            old.commands == [base.command, head.command]
        {
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
