import LaunchAnalysis
import LaunchTracing

enum DebugTrace {
    static func run(_ path: String) throws {
        let trace = try Trace.read(from: path)
        print("clock", trace.clockSource, "events", trace.eventCount, "samples", trace.samples.count, trace.metadata)
        for t in LaunchTimeline.build(from: trace) {
            for (p, v) in t.phases.sorted(by: { $0.key < $1.key }) { print(p, Double(v) / 1e6) }
            for s in t.mainThreadSpans {
                print(String(repeating: "  ", count: s.depth), s.name, s.category, "\(s.file):\(s.line)", "wall", Double(s.wallNanoseconds) / 1e6, "self", Double(s.selfNanoseconds) / 1e6, "cpu", (s.selfCPUNanoseconds ?? 0) / 1_000_000, s.blockedNanoseconds.mapValues { Double($0) / 1e6 }, s.beforeFirstFrame)
            }
            for s in t.otherSpans { print("  [bg]", s.name, Double(s.wallNanoseconds) / 1e6) }
            let budget = (try? LaunchBudget(json: trace.metadata["launch.budget"] ?? "{}")) ?? .default
            for f in Advisor.findings(for: [t], budget: budget) { print(f.rule, f.severity, f.location, f.medianMs, f.recommendation) }
        }
        print(Dictionary(grouping: trace.samples, by: \.wait).mapValues(\.count))
    }
}
