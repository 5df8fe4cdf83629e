import LaunchFrontend

/// `launchprof merge`: its options and help; the Frontend does the rest.
enum MergeCommand {
    static let subcommand = Subcommand(name: "merge", help: help) { try Frontend.merge($0, options: options) }

    static let options = StoredReportOptions.mergeTable

    static let help = """
        USAGE: launchprof merge REPORT.json... -o FLEET.json [options]

        Pools measurement reports into one: every run keeps the machine it was made
        on (the reports' machine keys, see --machine of measure), the statistics
        are computed again over all runs, and 'launchprof report' and the HTML show
        the distribution per machine. The reports must have been launched in the
        same mode and measured to the same ready condition, and (unless --pool) of
        the same program with the same budget and metrics. A pooled report is a
        side of 'launchprof compare' like any other, compared machine by machine.

        OPTIONS:
        \(HelpText.options(options))

        EXIT CODES: 0 written, 2 error (a missing, malformed or newer report, reports
                    that cannot be pooled, or an unwritable output)

        EXAMPLES:
          launchprof merge runner-a/Reports/app.json runner-b/Reports/app.json -o Reports/fleet.json
          launchprof report Reports/fleet.json --format html
        """
}
