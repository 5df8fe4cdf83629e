import LaunchFrontend

/// `launchprof trace`: its options and help; the Frontend does the rest.
enum TraceCommand {
    static let subcommand = Subcommand(name: "trace", help: help) { try Frontend.trace($0, options: options) }

    static let options = StoredReportOptions.traceTable

    static let help = """
        USAGE: launchprof trace FILE.\(HelpText.traceExtension) [options]

        Prints a trace file — the one a program writes to LAUNCHPROF_TRACE, or a run's
        trace.\(HelpText.traceExtension) in <name>.runs/ — as text: the process, its milestones, then each
        thread's spans, indented by nesting, with their start (ms after the spawn, or
        after the runtime started when the trace has no spawn), duration, category and
        call site, and its instants.

        OPTIONS:
        \(HelpText.options(options))

        EXIT CODES: 0 printed, 2 error (a missing, unreadable or malformed trace, a bad option, an unwritable output)

        EXAMPLES:
          LAUNCHPROF_TRACE=launch.\(HelpText.traceExtension) .build/release/MyApp
          launchprof trace launch.\(HelpText.traceExtension)
          launchprof trace Reports/my-app.runs/run-1/trace.\(HelpText.traceExtension) --format chrome-trace --output run-1.trace.json
        """
}
