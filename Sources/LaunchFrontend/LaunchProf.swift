import LaunchAnalysis
import LaunchTracing
import SampleApp

/// The `launchprof` command: dispatches to a subcommand, maps errors to the exit
/// codes (``ExitCode/all``: 0 passed, 1 gate failed, 2 error, 3 inconclusive,
/// 128 + N stopped by stop signal N).
public enum LaunchProf {
    static let subcommands: [Subcommand] = [
        MeasureCommand.subcommand, CompareCommand.subcommand, CalibrateCommand.subcommand, ReportCommand.subcommand,
        TraceCommand.subcommand,
        MergeCommand.subcommand,
        ExportCommand.subcommand,
    ]

    /// The hidden mode in which `launchprof` is the bundled sample app, so that
    /// `launchprof measure` needs no other build step.
    static let sampleAppMode = "__sample-app"

    public static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == sampleAppMode {
            SampleApp.main(arguments: Array(arguments.dropFirst()))
        }
        let code: ExitCode
        do {
            code = try run(arguments)
        } catch let error as UsageError {
            Terminal.standardError("launchprof: \(error.message)")
            code = .error
        } catch {
            Terminal.standardError("launchprof: \(error)")
            code = .error
        }
        Terminal.exit(code)
    }

    static func run(_ arguments: [String]) throws -> ExitCode {
        guard let first = arguments.first else {
            Terminal.print(overview)
            return .success
        }
        switch first {
        case "-h", "--help", "help":
            if arguments.count > 1, let command = subcommands.first(where: { $0.name == arguments[1] }) {
                Terminal.print(command.help)
            } else if arguments.count > 1, arguments[1] == "version" {
                Terminal.print("USAGE: launchprof version\n\nPrints the version of launchprof (also: launchprof --version).")
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
                throw UsageError("unknown command '\(first)'" + suggestion(first, among: names)
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

    static let overview = """
        launchprof \(LaunchProfVersion.string) — launch-time performance profiler

        USAGE: launchprof <command> [options]

        COMMANDS:
          measure     Launch a program many times and report its launch phases,
                      budget verdict and advice (default: the bundled sample app)
          compare     Decide whether head launches slower than base: regression,
                      pass or inconclusive, with rank statistics
          calibrate   Compare a program with itself and recommend the smallest
                      effect worth gating on, on this machine
          report      Render a saved report again, in any format
          trace       Print a trace file's threads, milestones and spans
          merge       Pool reports from several machines into one, each run
                      keeping its machine
          export      Send a saved measurement to a tracing backend as
                      OpenTelemetry spans (OTLP/JSON file or OTLP/HTTP)
          help        Show help for a command: launchprof help measure
          version     Print the version

        OPTIONS:
          -h, --help  Show this help
          --version   Print the version

        \(ExitCode.helpSection())

        Instrument an app with the LaunchTracing and LaunchHarness libraries; see README.md.
        """
}

/// A `launchprof` subcommand: parses its own arguments and hands off to the libraries.
struct Subcommand: Sendable {
    let name: String
    let help: String
    let run: @Sendable ([String]) throws -> ExitCode
}

extension ExitCode {
    /// The stop signals' codes (130, 143, 129), which every command that launches programs can end with.
    static let stops = StopSignal.allCases.map(stopped(by:))
}
