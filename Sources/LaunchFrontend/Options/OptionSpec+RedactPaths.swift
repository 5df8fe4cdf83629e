extension OptionSpec {
    /// `--redact-paths`, on `measure` and every command that writes or exports a report.
    public static let redactPaths = OptionSpec.flag(
        "--redact-paths", "cut every path that came from the measured program (the files, local sockets and child "
            + "commands it waited on) to its last component in every report written, since paths can be private")
}
