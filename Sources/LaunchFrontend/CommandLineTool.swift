import LaunchAnalysis
import LaunchMeasure
import LaunchTracing
import SampleApp

/// The `launchprof` command line: dispatches to a subcommand, maps errors to the
/// exit codes (``ExitCode/all``: 0 passed, 1 gate failed, 2 error, 3 inconclusive,
/// 128 + N stopped by stop signal N).
///
/// ```swift
/// CommandLineTool.main([MeasureCommand.subcommand], overview: "launchprof …")
/// ```
public enum CommandLineTool {
    /// The hidden mode in which `launchprof` is the bundled sample app, so that
    /// `launchprof measure` needs no other build step.
    static let sampleAppMode = "__sample-app"

    /// Runs the command line of this process with `subcommands`, printing
    /// `overview` for `launchprof` alone or `--help`, and exits.
    public static func main(_ subcommands: [Subcommand], overview: String) -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == sampleAppMode {
            SampleApp.main(arguments: Array(arguments.dropFirst()))
        }
        BrokenPipe.ignore()  // a reader that went away is a write error (exit 2), not death by SIGPIPE
        let code: ExitCode
        do {
            code = try run(arguments, subcommands: subcommands, overview: overview)
        } catch let error as UsageError {
            Terminal.standardError("launchprof: \(error.message)")
            code = .error
        } catch {
            Terminal.standardError("launchprof: \(error)")
            code = .error
        }
        Terminal.exit(code)
    }

    static func run(_ arguments: [String], subcommands: [Subcommand], overview: String) throws -> ExitCode {
        guard let first = arguments.first else {
            Terminal.print(overview)
            return .success
        }
        switch first {
        case "-h", "--help", "help":
            if arguments.count > 1, let command = subcommands.first(where: { $0.name == arguments[1] }) {
                Terminal.print(command.help)
            } else if arguments.count > 1, arguments[1] == "version" {
                Terminal.print(
                    "USAGE: launchprof version\n\nPrints the version of launchprof (also: launchprof --version).")
            } else {
                Terminal.print(overview)
            }
            return .success
        case "--version", "version":
            Terminal.print("launchprof \(LaunchProfVersion.string)")
            return .success
        default:
            guard let command = subcommands.first(where: { $0.name == first }) else {
                let names = subcommands.map(\.name) + ["help", "version"]
                if first.hasPrefix("-") {
                    throw UsageError("unknown option '\(first)'" + suggestion(first, among: ["--help", "--version"]))
                }
                throw UsageError(
                    "unknown command '\(first)'" + suggestion(first, among: names)
                        + " (see 'launchprof --help')")
            }
            let rest = Array(arguments.dropFirst())
            if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
                Terminal.print(command.help)
                return .success
            }
            return try command.run(rest)
        }
    }
}

/// A `launchprof` subcommand: its name, its whole help, and the one call into
/// the Frontend that parses its arguments and does its work.
public struct Subcommand: Sendable {
    /// `measure`.
    public let name: String
    /// The whole `--help` text.
    public let help: String
    let run: @Sendable ([String]) throws -> ExitCode

    /// A subcommand whose arguments `run` takes (everything after its name).
    public init(name: String, help: String, run: @escaping @Sendable ([String]) throws -> ExitCode) {
        self.name = name
        self.help = help
        self.run = run
    }
}

extension ExitCode {
    /// The stop signals' codes (130, 143, 129), which every command that launches programs can end with.
    static let stops = StopSignal.allCases.map(stopped(by:))
}
