/// What a launch is measured and gated in (`--metric wall|cpu|instructions`).
///
/// - ``wall``: wall time to ready (the launch phases): what the user waits for;
///   sees waits and I/O, and drifts with the machine's load.
/// - ``cpu``: user + system CPU time of the launched process tree; sees CPU work
///   and less of the load, not waits.
/// - ``instructions``: instructions counted under valgrind in separate counted
///   launches (``InstructionCounts``); sees CPU work exactly, whatever the load,
///   and is gated by ``InstructionGate`` (no p-value, outside Holm's correction).
///
/// ```swift
/// try LaunchMetric.list("wall,instructions")  // [.wall, .instructions]
/// ```
public enum LaunchMetric: String, Sendable, Hashable, Codable, CaseIterable {
    /// Wall time (the default).
    case wall
    /// CPU time of the process tree.
    case cpu
    /// Instructions counted under valgrind.
    case instructions

    /// The name of the CPU-time metric among a comparison's metrics (the JSON's `cpuTime`).
    public static let cpuMetricName = "cpuTime"

    /// Counted launches per side for ``instructions`` unless asked otherwise:
    /// what ``InstructionGate`` needs (``InstructionGate/minimumLaunches``).
    public static let defaultCountedLaunches = InstructionGate.minimumLaunches
    /// How many times a timed launch's timeout a counted one gets: valgrind slows a program 20–50 ×.
    public static let countedSlowdownAllowance = 50.0

    /// Why a list of metrics was refused.
    public struct ListError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The word that is not a metric.
        public var word: String
        /// Makes an error naming `word`.
        public init(word: String) { self.word = word }

        public var description: String {
            "--metric takes wall, cpu or instructions, comma-separated, not '\(word)'"
                + (Spelling.nearest(to: word.lowercased(), among: LaunchMetric.allCases.map(\.rawValue)).map {
                    ": did you mean '\($0)'?"
                } ?? "")
        }
    }

    /// Parses `wall`, `cpu,instructions`…: each metric once, in the order given.
    ///
    /// - Throws: ``ListError`` for an empty list or a word that is not a metric.
    public static func list(_ text: String) throws(ListError) -> [LaunchMetric] {
        var metrics: [LaunchMetric] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = String(word.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            guard let metric = LaunchMetric(rawValue: trimmed.lowercased()) else { throw ListError(word: trimmed) }
            if !metrics.contains(metric) { metrics.append(metric) }
        }
        return metrics
    }
}
