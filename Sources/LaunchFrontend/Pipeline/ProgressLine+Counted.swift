import LaunchAnalysis
import LaunchReports

extension ProgressLine {
    /// Says that counted launches are slow, and how long they should take.
    func countingStarts(launches: Int, timedLaunchSeconds: Double?) {
        guard !quiet else { return }
        if interactive { Terminal.standardErrorRaw("\r\u{1B}[2K") }
        // valgrind's slowdown is 20–50 ×: the estimate takes the middle of it until a counted launch has ended.
        let estimate =
            timedLaunchSeconds.map { "; about \(Int(saturating: ($0 * 35 * Double(launches)).rounded(.up))) s" } ?? ""
        Terminal.standardError(
            "launchprof: counting instructions: \(launches) launch(es) under valgrind, "
                + "each 20–50× slower than a timed one\(estimate)")
    }

    /// `counted base 2/6  1.16 G instructions  ~40 s left`.
    func countedRunFinished(_ run: RunRecord, side: String?, counted: Int, of total: Int, elapsedSeconds: Double) {
        guard !quiet else { return }
        let label = (side.map { $0 + " " } ?? "") + "counted \(counted)/\(total)"
        let status =
            run.status == .ok
            ? (run.instructions.map { InstructionText.count(Double($0.gated)) + " instructions" } ?? "ok")
            : "FAILED: \(ControlCharacters.escaped(run.problemText))"
        let perRun = elapsedSeconds / Double(max(1, counted))
        let left = counted < total ? "  ~\(Int(saturating: (perRun * Double(total - counted)).rounded())) s left" : ""
        guard interactive else {
            Terminal.standardError("\(label): \(status)\(left)")
            return
        }
        Terminal.standardErrorRaw("\r\u{1B}[2K\(label)  \(status)\(left)")
        if run.status != .ok { Terminal.standardErrorRaw("\n") }
    }
}
