import LaunchAnalysis
import LaunchReports
import LaunchTracing
import SampleApp

/// The pieces of the commands' help that come from the Frontend's own
/// declarations (versions, option tables, exit codes, value lists), so that the
/// help a command prints and what the command does cannot drift apart.
public enum HelpText {
    /// `0.9.0`.
    public static var version: String { LaunchProfVersion.string }

    /// The OPTIONS section for `options`: names in a column, help wrapped beside them.
    public static func options(_ options: [OptionSpec]) -> String { OptionSpec.helpSection(options) }

    /// The EXIT CODES section of the command `kind`.
    public static func exitCodes(_ kind: CommandKind) -> String {
        switch kind {
        case .overview: return ExitCode.helpSection()
        case .measure:
            return ExitCode.helpSection(
                [.success, .gateFailed, .error] + ExitCode.stops,
                meanings: [
                    .success: "within budget", .gateFailed: "over budget",
                    .error: "error, failed runs or a failed OTLP post",
                ])
        case .compare:
            return ExitCode.helpSection(
                [.success, .gateFailed, .error, .inconclusive] + ExitCode.stops,
                meanings: [
                    .success: "pass or improvement", .gateFailed: "regression", .error: "error or failed runs",
                ])
        case .calibrate:
            return ExitCode.helpSection(
                [.success, .error] + ExitCode.stops,
                meanings: [
                    .success: "recommended", .error: "error or failed runs",
                ])
        case .report:
            return ExitCode.helpSection(
                [.success, .error],
                meanings: [
                    .success: "rendered",
                    .error: "error (a missing, malformed or newer report, or an unwritable output)",
                ])
        }
    }

    /// The commands whose exit codes the help lists.
    public enum CommandKind: Sendable { case overview, measure, compare, calibrate, report }

    /// The bundled sample's variants: `naive, optimized, …`.
    public static let sampleVariants = SampleApp.Variant.allCases.map(\.rawValue).joined(separator: ", ")

    /// Every report format: `terminal, json, …`.
    public static let reportFormats = ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")

    /// The formats `trace` prints.
    public static let traceFormats = StoredReportOptions.traceFormats.map(\.rawValue).joined(separator: ", ")

    /// A trace file's extension.
    public static let traceExtension = TraceFormat.fileExtension
}
