import LaunchAnalysis
import LaunchMeasure
import LaunchReports

/// The live progress line: `run 3/10  412 ms  median 405 ms  ~4 s left` on a
/// terminal, one plain line per run otherwise. Written to standard error.
final class ProgressLine: MeasureProgress, @unchecked Sendable {
    let quiet: Bool
    let interactive = Terminal.isStandardErrorInteractive
    /// Counted values so far, by side (`""` in a measurement).
    private var values: [String: [Double]] = [:]
    /// When the first counted run ended (warm-ups do not predict the time left).
    private var countedStart: Double?
    private var countedSoFar = 0

    /// `--redact-paths`: a failed run's problem shown with its paths cut and
    /// the user and host names left out, as the reports show it (``PrivateNames/scrub(_:)``).
    let privateNames: PrivateNames?

    init(quiet: Bool, redactingPaths: Bool = false) {
        self.quiet = quiet
        privateNames = redactingPaths ? .ofThisProcess : nil
    }

    func runFinished(_ run: RunRecord, side: String?, counted: Int, of total: Int, warmup: Bool, elapsedSeconds: Double)
    {
        guard !quiet else { return }
        let value = run.timeToReadyMs ?? run.milliseconds(.timeToFirstFrame)
        let label = (side.map { $0 + " " } ?? "") + (warmup ? "warm-up" : "run \(counted)/\(total)")
        if !warmup, let value, run.status == .ok { values[side ?? "", default: []].append(value) }
        let status =
            run.status == .ok
            ? (value.map { ms($0) } ?? "ok")
            : "FAILED: \(ControlCharacters.escaped(privateNames?.scrub(run.problemText) ?? run.problemText))"
        guard interactive else {
            Terminal.standardError("\(label): \(status)")
            return
        }
        var left = ""
        if !warmup {
            // The time per counted run, measured from the end of the first one.
            if let start = countedStart, counted > countedSoFar, counted > 1 {
                let perRun = (elapsedSeconds - start) / Double(counted - 1)
                left = "  ~\(Int(saturating: (perRun * Double(total - counted)).rounded())) s left"
            } else if countedStart == nil {
                countedStart = elapsedSeconds
            }
            countedSoFar = counted
        }
        let median = values[side ?? ""].map { "  median \(ms(Summary.median($0)))" } ?? ""
        Terminal.standardErrorRaw("\r\u{1B}[2K\(label)  \(status)\(median)\(left)")
        if run.status != .ok { Terminal.standardErrorRaw("\n") }
    }

    func finished() {
        if interactive && !quiet { Terminal.standardErrorRaw("\r\u{1B}[2K") }
    }
}
