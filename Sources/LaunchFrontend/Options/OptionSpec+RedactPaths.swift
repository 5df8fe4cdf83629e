extension OptionSpec {
    /// `--junit-inconclusive-pass`, on the commands that write a comparison's JUnit file
    /// (`compare`, and `report` redrawing a stored comparison).
    public static let junitInconclusivePass = OptionSpec.flag(
        "--junit-inconclusive-pass",
        "JUnit: an inconclusive comparison is a skipped test, not a failure (when CI treats exit 3 as a pass)")

    /// `--redact-paths`, on `measure` and every command that writes or exports a report.
    public static let redactPaths = OptionSpec.flag(
        "--redact-paths",
        "cut every path (the files, local sockets and child commands the program waited on, the program, "
            + "the command line, a failed run's stderr) to its last component in every report written, and leave out the home "
            + "and working directories, the user name and the host name, since they can be private")

    /// `--keep-command-line`, on every command that launches: credentials in the command line written verbatim.
    public static let keepCommandLine = OptionSpec.flag(
        "--keep-command-line",
        "write the command line verbatim: by default a credential in it (--password=…, --token …, API_KEY=…, "
            + "Authorization: …, a URL's user:password@) is written as *** in every report, export, baseline, "
            + "progress line and file name")
}
