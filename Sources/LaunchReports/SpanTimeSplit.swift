import LaunchAnalysis

/// Where a span's own time went: running on a CPU, waiting for one (run-queue
/// wait), blocked by wait kind, and what is left unaccounted, milliseconds.
///
/// Every renderer that splits a span's time uses this one type, so the HTML
/// details panel, the Markdown, the terminal's `--all` listing and the Chrome
/// trace's `args` name the same parts. Waiting for a CPU is contention, not
/// CPU work: it is a part of its own, never folded into CPU time.
///
/// A part is an *estimate* when it was attributed rather than read: blocked
/// time split between several wait kinds in proportion to the sampler's
/// samples, or blocked time inferred from samples alone when the thread's CPU
/// time was not read.
///
/// ```swift
/// let split = SpanTimeSplit(span)
/// print(split.text)   // "self 240 ms: CPU 41 ms, disk ~60 ms, waiting for a CPU 139 ms"
/// ```
struct SpanTimeSplit: Equatable {
    /// One part of the span's own time.
    struct Part: Equatable {
        /// `cpu`, `runQueue`, or a wait kind's raw value.
        var key: String
        /// How the part is named in text.
        var label: String
        /// Its length, milliseconds.
        var milliseconds: Double
        /// True when it was attributed rather than read.
        var isEstimate: Bool
    }

    /// The span's self time (wall minus nested spans), milliseconds.
    var selfMs: Double
    /// The parts, CPU first, then waiting for a CPU, then blocked time by wait kind (largest first).
    var parts: [Part]

    /// The split of one span, as its record accounts it.
    init(_ span: SpanRecord) {
        selfMs = Double(span.selfNanoseconds) / 1e6
        var parts: [Part] = []
        // CPU and run-queue time attributed between the tracer's readings, not read at the span's boundaries.
        let readEstimate = span.usageIsEstimated == true
        if let cpu = span.selfCPUNanoseconds {
            // Never more than the self time it is part of (the timeline clamps it; reports written before did not).
            let cpu = min(cpu, span.selfNanoseconds)
            parts.append(Part(key: "cpu", label: "CPU", milliseconds: Double(cpu) / 1e6, isEstimate: readEstimate))
        }
        if let queue = span.runQueueNanoseconds, queue > 0 {
            parts.append(
                Part(
                    key: "runQueue", label: "waiting for a CPU", milliseconds: Double(queue) / 1e6,
                    isEstimate: readEstimate))
        }
        let blocked = span.blockedNanoseconds.filter { $0.value > 0 }
            .sorted { ($0.value, $0.key.rawValue) > ($1.value, $1.key.rawValue) }
        // Off-CPU time is read; its split between kinds follows the samples. Without it,
        // the blocked time itself is a share of wall time taken from the samples.
        let attributed = span.offCPUNanoseconds == nil || blocked.count > 1
        for (kind, nanoseconds) in blocked {
            parts.append(
                Part(
                    key: kind.rawValue, label: kind.rawValue, milliseconds: Double(nanoseconds) / 1e6,
                    isEstimate: attributed))
        }
        self.parts = parts
    }

    /// The split as medians over `spans` (the span's record in each run; a part missing from a run counts as zero).
    init(median spans: [SpanRecord]) {
        let splits = spans.map(SpanTimeSplit.init)
        selfMs = Summary.median(splits.map(\.selfMs))
        var order: [String] = []
        var byKey: [String: (label: String, values: [Double], estimate: Bool)] = [:]
        for split in splits {
            for part in split.parts {
                if byKey[part.key] == nil { order.append(part.key) }
                byKey[part.key, default: (part.label, [], false)].values.append(part.milliseconds)
                byKey[part.key]!.estimate = byKey[part.key]!.estimate || part.isEstimate
            }
        }
        parts = order.map { key in
            let entry = byKey[key]!
            // Runs where the part did not occur count as zero.
            let values = entry.values + Array(repeating: 0, count: max(0, splits.count - entry.values.count))
            return Part(key: key, label: entry.label, milliseconds: Summary.median(values), isEstimate: entry.estimate)
        }
        let rank = { (key: String) in key == "cpu" ? 0 : key == "runQueue" ? 1 : 2 }
        parts.sort { (rank($0.key), -$0.milliseconds, $0.key) < (rank($1.key), -$1.milliseconds, $1.key) }
    }

    /// For each of `findings`, the median split of its span over the report's
    /// successful counted runs (nil for a finding without a call site, or whose
    /// span no run recorded on the main thread). One pass over the spans.
    static func medians(for findings: [Finding], in report: MeasurementReport) -> [SpanTimeSplit?] {
        // A call site, compared without building its key's text for every span of every run.
        struct Site: Hashable { let name: String, file: String, line: Int }
        let keys = findings.map { finding in
            finding.file.flatMap { file in finding.line.map { Site(name: finding.span, file: file, line: $0) } }
        }
        let wanted = Set(keys.compactMap { $0 })
        guard !wanted.isEmpty else { return keys.map { _ in nil } }
        var spans: [Site: [SpanRecord]] = [:]
        for run in report.successfulRuns {
            // A site that ran several times in one run counts once, its times summed (as the advisor counts it).
            var inRun: [Site: SpanRecord] = [:]
            for span in run.timeline?.mainThreadSpans ?? [] {
                let site = Site(name: span.name, file: span.file, line: span.line)
                guard wanted.contains(site) else { continue }
                inRun[site] = inRun[site].map { $0.adding(span) } ?? span
            }
            for (key, span) in inRun { spans[key, default: []].append(span) }
        }
        return keys.map { key in key.flatMap { spans[$0] }.map(SpanTimeSplit.init(median:)) }
    }

    /// True when any part is an estimate.
    var hasEstimate: Bool { parts.contains(where: \.isEstimate) }

    /// `self 240 ms: CPU 41 ms, waiting for a CPU 139 ms, disk ≈60 ms` (`≈`: estimated); just the self time when nothing is accounted.
    var text: String {
        let list = parts.map { "\($0.label) \($0.isEstimate ? "≈" : "")\(ms($0.milliseconds))" }
        return "self \(ms(selfMs))" + (list.isEmpty ? "" : ": " + list.joined(separator: ", "))
    }

    /// The note that explains `≈`, when some part is an estimate.
    static let estimateNote = "≈ estimated: attributed from the sampler's samples, not read"
}

private extension SpanRecord {
    /// This record with `other`'s own times added: self, CPU, run-queue, off-CPU and blocked time.
    func adding(_ other: SpanRecord) -> SpanRecord {
        func sum(_ a: UInt64?, _ b: UInt64?) -> UInt64? { a.flatMap { a in b.map { a &+ $0 } } }
        var merged = self
        merged.selfNanoseconds &+= other.selfNanoseconds
        merged.selfCPUNanoseconds = sum(selfCPUNanoseconds, other.selfCPUNanoseconds)
        merged.runQueueNanoseconds = sum(runQueueNanoseconds, other.runQueueNanoseconds)
        merged.offCPUNanoseconds = sum(offCPUNanoseconds, other.offCPUNanoseconds)
        merged.blockedNanoseconds.merge(other.blockedNanoseconds, uniquingKeysWith: &+)
        return merged
    }
}
