import LaunchAnalysis

/// How every format names and explains the launched process tree's CPU time.
enum CPUTimeText {
    /// The row's label beside the phases.
    static let label = "cpuTime"

    /// "cpuTime is user 31.2 + system 8.4 ms (medians): …": what the row measures.
    static func split(_ cpu: LaunchProfile.CPUStatistics) -> String {
        "cpuTime is user \(Milliseconds.text(cpu.user.median)) + system \(Milliseconds.text(cpu.system.median)) "
            + "(medians): CPU the launched process tree used until it ended, wall time it did not wait"
    }
}
