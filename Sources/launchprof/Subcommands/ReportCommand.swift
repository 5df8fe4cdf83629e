import LaunchFrontend

/// `launchprof report`: its options and help; the Frontend does the rest.
enum ReportCommand {
    static let subcommand = Subcommand(name: "report", help: help) { try Frontend.report($0, options: options) }

    static let options = StoredReportOptions.reportTable

    static let help = """
        USAGE: launchprof report REPORT.json [options]

        Renders a saved report again, in any format: an old run's, or one written
        with fewer formats. Files are written as <name>.<ext> (a comparison's as
        <name>.comparison.<ext>).

        OPTIONS:
        \(HelpText.options(options))

        \(HelpText.exitCodes(.report))

        EXAMPLES:
          launchprof report Reports/sample-naive.json
          launchprof report Reports/sample-naive.json --format markdown --output - >> "$GITHUB_STEP_SUMMARY"
        """
}
