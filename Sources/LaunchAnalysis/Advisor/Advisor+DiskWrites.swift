import LaunchTracing

extension Advisor {
    /// A finding per call site that wrote a file or flushed one to disk on the
    /// main thread before the first frame in any run (``LaunchTimeline/mainThreadFileWrites``),
    /// naming the files: at least `info` whatever it cost here, since the same
    /// call that takes half a millisecond on this disk takes tens on a phone's
    /// flash or a loaded CI disk (Android's StrictMode flags every one). Its cost
    /// is the site's median time blocked on disk; its severity follows that cost.
    static func diskWriteFindings(_ timelines: [LaunchTimeline], frameBudget: Double) -> [Finding] {
        struct Site {
            var name: String
            var file: String?
            var line: Int?
            var files: [String] = []
            var calls: [String] = []
            var runs = 0
        }
        var sites: [String: Site] = [:]
        var order: [String] = []
        for timeline in timelines {
            var seen = Set<String>()
            for write in timeline.mainThreadFileWrites {
                let key = SpanRecord.key(name: write.span ?? "", file: write.spanFile ?? "", line: write.spanLine ?? 0)
                if sites[key] == nil {
                    sites[key] = Site(name: write.span ?? "main thread", file: write.spanFile, line: write.spanLine)
                    order.append(key)
                }
                if !sites[key]!.files.contains(write.file) { sites[key]!.files.append(write.file) }
                if !sites[key]!.calls.contains(write.call) { sites[key]!.calls.append(write.call) }
                if seen.insert(key).inserted { sites[key]!.runs += 1 }
            }
        }
        let runs = timelines.count
        return order.map { key in
            let site = sites[key]!
            // The site's time blocked on disk in each run (its own time, summed over its spans).
            let blocked = timelines.map { timeline in
                timeline.mainThreadSpans.filter { $0.name == site.name && $0.file == site.file && $0.line == site.line }
                    .reduce(0.0) { $0 + Double($1.blockedNanoseconds[.disk] ?? 0) / 1e6 }
            }
            let cost = Summary.median(padded(blocked, to: runs))
            let wall = Summary.median(
                padded(
                    timelines.map { timeline in
                        timeline.mainThreadSpans.filter {
                            $0.name == site.name && $0.file == site.file && $0.line == site.line
                        }
                        .reduce(0.0) { $0 + Double($1.wallNanoseconds) / 1e6 }
                    }, to: runs))
            return Finding(
                rule: .mainThreadDiskWrite, severity: max(.info, severity(cost, budget: frameBudget)), span: site.name,
                file: site.file, line: site.line, medianMs: cost, spanMedianMs: wall, runsAppeared: site.runs,
                runsTotal: runs,
                budgetShare: cost / frameBudget,
                recommendation: "",
                waitedOn: site.files.prefix(maximumTargetsShown).map { WaitTarget(kind: .file, name: $0) },
                writeCalls: site.calls, filesWritten: site.files.count
            ).worded
        }
    }
}
