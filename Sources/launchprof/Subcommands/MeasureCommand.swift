import LaunchFrontend

/// `launchprof measure`: its options and help; the Frontend does the rest.
enum MeasureCommand {
    static let subcommand = Subcommand(name: "measure", help: help) { try Frontend.measure($0, options: options) }

    static let options =
        LaunchCommandOptions.table(.measure) + ProgramOptions.measureTable + OTLPOptions.table

    static let help = """
        USAGE: launchprof measure [options] [-- <command> [args...]]

        Launches a program many times and reports its launch phases, budget verdict
        and advice. With no command it measures the bundled sample app.

        OPTIONS:
        \(HelpText.options(options))

        \(HelpText.exitCodes(.measure))
                    (Ctrl-C stops after the current launch, a second one ends it at once;
                    SIGTERM and SIGHUP end it at once; the report keeps the runs so far)

        EXAMPLES:
          launchprof measure
          launchprof measure --sample optimized --runs 20
          launchprof measure --ready port:8080 -- ./my-server --port 8080
          launchprof measure --runs 30 -- sleep 0.1
          launchprof measure --format json --output - -- ./my-app > launch.json
        """
}
