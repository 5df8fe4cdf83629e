import LaunchFrontend

/// The `launchprof` command: its subcommands and its overview; the Frontend
/// dispatches and maps errors to the exit codes.
@main
enum LaunchProf {
    static let subcommands: [Subcommand] = [
        MeasureCommand.subcommand, CompareCommand.subcommand, CalibrateCommand.subcommand, ReportCommand.subcommand,
        TraceCommand.subcommand, MergeCommand.subcommand, ExportCommand.subcommand,
    ]

    static func main() {
        CommandLineTool.main(subcommands, overview: overview)
    }

    static let overview = """
        launchprof \(HelpText.version) — launch-time performance profiler

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

        \(HelpText.exitCodes(.overview))

        Instrument an app with the LaunchTracing and LaunchHarness libraries; see README.md.
        """
}
