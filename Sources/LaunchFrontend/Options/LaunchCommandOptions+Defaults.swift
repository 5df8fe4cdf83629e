extension LaunchCommandOptions.Defaults {
    /// `measure`'s defaults.
    public static let measure = Self()

    /// `compare`'s: 20 launches per side at the first stage, Markdown too, `compare-<base>-vs-<head>`.
    public static let compare = Self(
        runs: 20, runsMeaning: "counted launches per side: the first stage", formats: "terminal,json,markdown,html",
        name: "compare-<base>-vs-<head>", takesFrameBudget: false, sharedCommands: true)

    /// `calibrate`'s: 20 launches per side in each round, no report.
    public static let calibrate = Self(
        runs: 20, runsMeaning: "counted launches per side in each round", formats: "terminal",
        name: "calibrate-<program>",
        writesReports: false, takesFrameBudget: false, quietKeeps: "only the recommendation and where a baseline went")
}
