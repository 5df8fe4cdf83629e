import LaunchTracing

/// One call site's main-thread work before the first frame, over runs: what the
/// advisor judges and the profile's top spans rank. Harness spans (the hooks
/// themselves) are left out.
struct SpanSite {
    var name: String
    var category: SpanCategory
    var file: String
    var line: Int
    /// Milliseconds blocked, by what was waited on, one value per run in which the site blocked so.
    var blocked: [WaitKind: [Double]] = [:]
    /// Self CPU milliseconds, one value per run in which the site ran (summed when it ran several times).
    var cpu: [Double] = []
    /// Wall milliseconds, one value per run in which the site ran (summed when it ran several times).
    var wall: [Double] = []

    /// The sites of `timelines` (one per run), in order of first appearance.
    static func collect(_ timelines: [LaunchTimeline]) -> [SpanSite] {
        var sites: [String: SpanSite] = [:]
        var order: [String] = []
        for timeline in timelines {
            var seen: [String: (blocked: [WaitKind: Double], cpu: Double, wall: Double)] = [:]
            for span in timeline.mainThreadSpans where span.beforeFirstFrame && span.category != .harness {
                var entry = seen[span.key] ?? ([:], 0, 0)
                for (kind, ns) in span.blockedNanoseconds { entry.blocked[kind, default: 0] += Double(ns) / 1e6 }
                let selfCPU = span.selfCPUNanoseconds ?? span.selfNanoseconds.subtractingClamped(span.blockedNanoseconds.values.reduce(0, +))
                entry.cpu += Double(selfCPU) / 1e6
                entry.wall += Double(span.wallNanoseconds) / 1e6
                seen[span.key] = entry
                if sites[span.key] == nil {
                    sites[span.key] = SpanSite(name: span.name, category: span.category, file: span.file, line: span.line)
                    order.append(span.key)
                }
            }
            for (key, entry) in seen {
                for (kind, ms) in entry.blocked { sites[key]!.blocked[kind, default: []].append(ms) }
                sites[key]!.cpu.append(entry.cpu)
                sites[key]!.wall.append(entry.wall)
            }
        }
        return order.map { sites[$0]! }
    }
}

extension LaunchTimeline {
    /// The wall time of the main-thread spans named `name` in this launch, summed, milliseconds (0 when none ran).
    func mainThreadMilliseconds(named name: String) -> Double {
        mainThreadSpans.filter { $0.name == name }.map { Double($0.wallNanoseconds) / 1e6 }.reduce(0, +)
    }
}
