import LaunchFrontend

/// `launchprof calibrate`: its options and help; the Frontend does the rest.
enum CalibrateCommand {
    static let subcommand = Subcommand(name: "calibrate", help: help) { try Frontend.calibrate($0, options: options) }

    static let options =
        LaunchCommandOptions.table(.calibrate) + CalibrateOptions.table

    static let help = """
        USAGE: launchprof calibrate [options] [-- <command> [args...]]

        Compares a program with itself (A/A), launches interleaved as 'compare' makes
        them, for a few rounds; reports the noise, the minimum detectable effect at
        the chosen launch counts and the launches a target effect needs, and
        recommends the minimum effect ε from the change that matters to you
        (--target-effect), with the noise shown beside it.

        OPTIONS:
        \(HelpText.options(options))

        \(HelpText.exitCodes(.calibrate))

        EXAMPLES:
          launchprof calibrate --runs 20
          launchprof calibrate --rounds 5 --target-effect 10% --write-budget -- ./my-app
          launchprof calibrate --rounds 5 --save-baseline main -- ./my-app
        """
}
