extension OptionSpec {
    /// `--redact-paths`, on `measure` and every command that writes or exports a report.
    public static let redactPaths = OptionSpec.flag(
        "--redact-paths", "cut every path (the files, local sockets and child commands the program waited on, the program, "
            + "the command line, a failed run's stderr) to its last component in every report written, and leave out the home "
            + "and working directories, the user name and the host name, since they can be private")
}
