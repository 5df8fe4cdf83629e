import LaunchFrontend

/// `launchprof report`: its options and help; the Frontend does the rest.
enum ReportCommand {
    static let subcommand = Subcommand(name: "report", help: help) { try Frontend.report($0, options: options) }

    static let options: [OptionSpec] = [
        .value("--format", "LIST", "comma-separated: " + HelpText.reportFormats, default: "html"),
        .value(
            "--output", "DIR",
            "where the files go (default: the report's own folder); '-' writes one format to standard output"),
        .value(
            "--annotations", "KIND",
            "github: one workflow command per finding (default when GITHUB_ACTIONS=true), or none", type: .annotations),
        .flag("--all", "list every finding in the terminal format, not only the top 5"),
        .flag("--no-color", "no colours in the terminal format (NO_COLOR is honoured too)"),
        .redactPaths,
        .junitInconclusivePass,
    ]

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
