import LaunchMeasure

/// A validated `launchprof measure` command line: the measurement for the
/// library, and how the command shows and saves its results.
struct MeasureSettings {
    /// What to launch and how (LaunchMeasure's part).
    var request: MeasureRequest
    /// `--format`: `terminal`, `json`.
    var formats: [String]
    /// `--quiet`: no progress and no terminal report.
    var quiet: Bool
    /// Colours: on a terminal, unless `--no-color` or `NO_COLOR`.
    var color: Bool
    /// `--ignore-failures`: failed runs are reported but do not make the exit code 2.
    var ignoreFailures: Bool

    /// The JSON report's path: `<output>/<name>.json`.
    var jsonPath: String {
        request.outputDirectory + "/" + MeasureRequest.safeFileName(request.name) + ".json"
    }
}
