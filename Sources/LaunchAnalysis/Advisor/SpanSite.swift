import LaunchTracing

/// One call site's main-thread work before the first frame, over runs: what the
/// advisor judges and the profile's top spans rank. Harness spans (the hooks
/// themselves) are left out.
struct SpanSite {
    var name: String
    var category: SpanCategory
    var file: String
    var line: Int
    /// Milliseconds blocked, by what was waited on, one value per run in which the site blocked so
    /// (each run's own attribution; traces without off-CPU accounting are judged on it).
    var blocked: [WaitKind: [Double]] = [:]
    /// Self CPU milliseconds, one value per run in which the site ran (summed when it ran several times).
    var cpu: [Double] = []
    /// Wall milliseconds, one value per run in which the site ran (summed when it ran several times).
    var wall: [Double] = []
    /// Off-CPU milliseconds (wall − CPU − run-queue wait), one value per run in which it was accounted.
    var offCPU: [Double] = []
    /// Run-queue milliseconds (waiting for a CPU: contention), one value per run in which it was known.
    var runQueue: [Double] = []
    /// Runs in which a span of the site held estimated usage (``SpanRecord/usageIsEstimated``).
    var estimatedRuns = 0
    /// The sampler's wait samples over every run, by kind, with each major page fault as a disk sample.
    var pooledWaits: [WaitKind: Int] = [:]
    /// What was waited on, over every run: target → samples, by kind.
    var targets: [WaitKind: [WaitTarget: Int]] = [:]

    /// The sites of `timelines` (one per run), in order of first appearance.
    static func collect(_ timelines: [LaunchTimeline]) -> [SpanSite] {
        struct RunEntry {
            var blocked: [WaitKind: Double] = [:]
            var cpu = 0.0, wall = 0.0
            var offCPU: Double?, runQueue: Double?
            var estimated = false
        }
        var sites: [String: SpanSite] = [:]
        var order: [String] = []
        for timeline in timelines {
            var seen: [String: RunEntry] = [:]
            for span in timeline.mainThreadSpans where span.beforeFirstFrame && span.category != .harness {
                var entry = seen[span.key] ?? RunEntry()
                for (kind, ns) in span.blockedNanoseconds { entry.blocked[kind, default: 0] += Double(ns) / 1e6 }
                let selfCPU =
                    span.selfCPUNanoseconds
                    ?? span.selfNanoseconds.subtractingClamped(
                        span.blockedNanoseconds.values.reduce(0) { $0.addingClamped($1) })
                entry.cpu += Double(selfCPU) / 1e6
                entry.wall += Double(span.wallNanoseconds) / 1e6
                if let off = span.offCPUNanoseconds { entry.offCPU = (entry.offCPU ?? 0) + Double(off) / 1e6 }
                if let queued = span.runQueueNanoseconds {
                    entry.runQueue = (entry.runQueue ?? 0) + Double(queued) / 1e6
                }
                if span.usageIsEstimated == true { entry.estimated = true }
                if sites[span.key] == nil {
                    sites[span.key] = SpanSite(
                        name: span.name, category: span.category, file: span.file, line: span.line)
                    order.append(span.key)
                }
                seen[span.key] = entry
                sites[span.key]!.pool(span)
            }
            for (key, entry) in seen {
                for (kind, ms) in entry.blocked { sites[key]!.blocked[kind, default: []].append(ms) }
                sites[key]!.cpu.append(entry.cpu)
                sites[key]!.wall.append(entry.wall)
                if let off = entry.offCPU { sites[key]!.offCPU.append(off) }
                if let queued = entry.runQueue { sites[key]!.runQueue.append(queued) }
                if entry.estimated { sites[key]!.estimatedRuns += 1 }
            }
        }
        return order.map { sites[$0]! }
    }

    /// Adds one span's samples, faults and targets to the pool.
    private mutating func pool(_ span: SpanRecord) {
        for (kind, count) in span.waitSamples ?? [:] { pooledWaits[kind, default: 0] += count }
        if let faults = span.majorFaults, faults > 0 { pooledWaits[.disk, default: 0] += Int(min(faults, 1_000_000)) }
        guard let named = span.waitTargets else { return }
        // A target's kind is the one it was sampled under; one sample each when the run's counts are not kept.
        for target in named {
            let kind = WaitKind(of: target, among: span.waitSamples ?? [:])
            targets[kind, default: [:]][target, default: 0] += 1
        }
    }
}

extension WaitKind {
    /// The wait kind a named target was sampled under: of the kinds its target
    /// can be waited on by, the first one the span's samples saw.
    init(of target: WaitTarget, among sampled: [WaitKind: Int]) {
        let candidates: [WaitKind]
        switch target.kind {
        case .file: candidates = [.disk, .ipc, .event]
        case .socket: candidates = [.network, .event]
        case .localSocket, .pipe: candidates = [.ipc, .event]
        case .process: candidates = [.process]
        case .sleep: candidates = [.sleep]
        case .descriptor: candidates = [.other, .event]
        }
        self = candidates.first { sampled[$0] != nil } ?? candidates[0]
    }
}

extension LaunchTimeline {
    /// The wall time of the main-thread spans named `name` in this launch, summed, milliseconds (0 when none ran).
    func mainThreadMilliseconds(named name: String) -> Double {
        mainThreadSpans.filter { $0.name == name }.map { Double($0.wallNanoseconds) / 1e6 }.reduce(0, +)
    }
}
