import LaunchFrontend

/// `launchprof compare`: its options and help; the Frontend does the rest.
enum CompareCommand {
    static let subcommand = Subcommand(name: "compare", help: help) { try Frontend.compare($0, options: options) }

    static let options =
        LaunchCommandOptions.table(.compare) + ProgramOptions.compareSidesTable + [
            ComparisonOptions.stagesSpec
        ] + ComparisonOptions.table + [
            .junitInconclusivePass
        ] + ProgramOptions.storedReportsTable

    static let help = """
        USAGE: launchprof compare --base CMD --head CMD [options]
               launchprof compare BASE.json HEAD.json [options]
               launchprof compare --base-report FILE... --head-report FILE... [options]
               launchprof compare --baseline NAME [options] [-- <command> [args...]]

        Decides whether head launches slower than base: launches both alternately on
        this machine (ABBA order), compares every metric on log(time) with the
        Hodges–Lehmann shift, its confidence interval at the level the decision uses and
        one-sided Mann–Whitney tests against the minimum effect (Holm across the gated
        metrics), and says regression, pass (improvement included) or inconclusive.
        Writes <name>.comparison.json and .md.

        Stored reports from several machines (--base-report, --head-report, or a
        report pooled by 'launchprof merge') are compared within each machine and
        combined with van Elteren's stratified test; a machine on one side only is
        reported and left out.

        Sides from different sessions (stored reports, a baseline) are compared
        session against session: launch time shifts between sessions, so the test
        needs the between-session variance, from 2 or more sessions a side, 3 or
        more machines, the baseline's history, or --session-sd; without one, the
        comparison is inconclusive and says so.

        OPTIONS:
        \(HelpText.options(options))

        \(HelpText.exitCodes(.compare))

        EXAMPLES:
          launchprof compare --base-sample naive --head-sample slowed
          launchprof compare --base './build-main/app' --head './build-pr/app' --runs 20
          launchprof compare Reports/main.json Reports/pr.json
          launchprof compare --base-report a1.json --base-report a2.json --head-report b1.json --head-report b2.json
          launchprof measure --save-baseline main && launchprof compare --baseline main
        """
}
