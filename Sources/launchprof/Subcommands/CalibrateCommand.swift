import LaunchFrontend

/// `launchprof calibrate`: its options and help; the Frontend does the rest.
enum CalibrateCommand {
    static let subcommand = Subcommand(name: "calibrate", help: help) { try Frontend.calibrate($0, options: options) }

    static let options = MeasureOptions.table(.calibrate)
        .filter { !["--budget-ms", "--format", "--name", "--ignore-failures", "--redact-paths"].contains($0.name) } + [
            .value("--sample", "VARIANT", "the bundled sample's variant: \(HelpText.sampleVariants)", type: .sampleVariant, default: "naive"),
            .value("--rounds", "N", "A/A comparisons to make", type: .wholeNumber(1...100), default: "3"),
            .flag("--write-budget", "write the recommended minimum effect into the budget file (--budget, or ./launchprof.json)"),
        ]

    static let help = """
        USAGE: launchprof calibrate [options] [-- <command> [args...]]

        Compares a program with itself (A/A), launches interleaved as 'compare' makes
        them, for a few rounds, and recommends the smallest effect worth gating on:
        above the noise this machine showed, so that an unchanged program passes.

        OPTIONS:
        \(HelpText.options(options))

        \(HelpText.exitCodes(.calibrate))

        EXAMPLES:
          launchprof calibrate --runs 20
          launchprof calibrate --rounds 5 --write-budget -- ./my-app
        """
}
