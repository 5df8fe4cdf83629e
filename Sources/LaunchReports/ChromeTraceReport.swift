import LaunchAnalysis
import LaunchTracing

/// The runs as a Chrome trace (the Trace Event Format's JSON object form), to
/// open in Perfetto (ui.perfetto.dev) or `chrome://tracing`.
///
/// Each counted, successful run is one process, so runs lie side by side; its
/// time 0 is the run's ``LaunchTracing/Milestone/spawn`` (a hot launch's
/// beginning when it has no spawn, else its first event), and `ts`/`dur` are
/// microseconds from there. In each process:
///
/// - the main thread, `main (4242)`, at its real thread id (1 in reports that
///   did not record it): a complete (`X`) event per main-thread span and an
///   instant (`i`, scope `t`) event per milestone;
/// - every other thread at its real thread id, named `worker (4243)`: a
///   complete event per span it ran. Spans of older reports, which do not say
///   which thread ran them, are packed into lanes 2…, `other threads`, as few as
///   keep every lane properly nested, as the viewers need;
/// - a counter (`C`), `main thread blocked (ms)`: the main thread's blocked
///   time by wait kind (the kinds it waited on in that run), summed over the
///   spans ended so far;
/// - a stacked counter (`C`), `main thread state (% of own time)`: Perfetto's
///   thread-state lane for the main thread, from the spans' readings: at each
///   moment the split of the innermost span running then (CPU, waiting for a
///   CPU, blocked, not accounted), `no readings` between top-level spans, and
///   `estimated` where the split was attributed rather than read;
/// - metadata (`M`): `process_name` (`run 3 (412 ms)`, the run's time to
///   ready), `process_sort_index`, `thread_name`, `thread_sort_index`.
///
/// A span's `cat` is its category, and its `args` hold its call site
/// (`location`), self wall and CPU time, run-queue wait (`runQueueMs`: runnable,
/// waiting for a CPU) and blocked time by wait kind, in ms;
/// `blockedMsIsEstimate` marks blocked time attributed from samples rather than read.
/// An uninstrumented run has one complete event, spawn → ready. A comparison
/// writes the base runs, then the head runs, their process names prefixed
/// `base` and `head`. Runs that failed and warm-ups are left out.
///
/// The JSON is written straight into bytes (see `JSONBytes`): a report of 100
/// runs of 10,000 spans each renders in a fraction of a second.
///
/// ```swift
/// let bytes = ChromeTraceReport.render(.measurement(report))
/// ```
public enum ChromeTraceReport {
    /// Renders `document` as Chrome trace event JSON.
    public static func render(_ document: ReportDocument) -> [UInt8] {
        let content = content(of: document)
        return JSONBytes.bytes(capacity: capacity(content.runs.map(\.run.timeline))) { json in
            write(content, into: &json)
        }
    }

    /// Renders `document` as ``render(_:)`` does, handing the bytes to `write`
    /// in pieces of `chunk` bytes as they are written: the trace of a big
    /// report (hundreds of MB) is never whole in memory.
    ///
    /// ```swift
    /// try AtomicFile.write(to: "Reports/app.trace.json") { write in ChromeTraceReport.render(document, chunks: write) }
    /// ```
    package static func render(
        _ document: ReportDocument, chunk: Int = 1 << 20, chunks write: (UnsafeRawBufferPointer) -> Void
    ) {
        let content = content(of: document)
        JSONBytes.flushing(chunk: chunk, to: write) { json in self.write(content, into: &json) }
    }

    /// What a document's trace shows: its runs, and the pairs of `otherData`.
    private typealias Content = (runs: [(label: String?, run: RunRecord)], about: [(String, String)])

    private static func content(of document: ReportDocument) -> Content {
        let sides: [(label: String?, report: MeasurementReport)]
        switch document {
        case .measurement(let report): sides = [(nil, report)]
        case .comparison(let report): sides = [("base", report.base), ("head", report.head)]
        }
        let runs = sides.flatMap { side in
            side.report.successfulRuns.filter { $0.timeline != nil || $0.timeToReadyMs != nil }.map {
                (label: side.label, run: $0)
            }
        }
        var about: [(String, String)] = [
            ("kind", document.kind), ("name", document.name), ("outcome", document.outcome.status.rawValue),
            ("reason", document.outcome.reason),
        ]
        switch document {
        case .measurement(let report):
            about += [
                ("generator", "launchprof " + report.toolVersion), ("createdAt", report.createdAt),
                ("command", CommandLineText.quoted(report.configuration.command)), ("ready", report.readyLabel),
            ]
        case .comparison(let report):
            about += [
                ("generator", "launchprof " + report.toolVersion), ("createdAt", report.createdAt),
                ("base", CommandLineText.quoted(report.base.configuration.command)),
                ("head", CommandLineText.quoted(report.head.configuration.command)),
            ]
        }
        if let id = document.reportID { about.append(("reportID", id)) }
        about.append(
            ("timeOrigin", "each process's ts 0 is its run's spawn (a hot launch's beginning when it has none)"))
        return (runs, about)
    }

    private static func write(_ content: Content, into json: inout JSONBytes) {
        trace(into: &json, otherData: content.about) { writer in
            for (offset, entry) in content.runs.enumerated() {
                writer.write(entry.run, label: entry.label, pid: offset + 1)
            }
        }
    }

    /// Renders the launches of one trace file (`launchprof trace --format
    /// chrome-trace`): one process per launch (a trace with hot launches has
    /// several), laid out as a report's runs are, its time 0 the launch's spawn.
    ///
    /// ```swift
    /// let bytes = ChromeTraceReport.render(launches: LaunchTimeline.build(from: trace), name: "launch.lptrace")
    /// ```
    public static func render(launches timelines: [LaunchTimeline], name: String) -> [UInt8] {
        let about = [
            ("kind", "trace"), ("name", name),
            ("timeOrigin", "each process's ts 0 is its launch's spawn (a hot launch's beginning when it has none)"),
        ]
        return JSONBytes.bytes(capacity: capacity(timelines)) { json in
            trace(into: &json, otherData: about) { writer in
                for (offset, timeline) in timelines.enumerated() {
                    let total = timeline.milliseconds(.timeToFirstFrame).map { " (\(Milliseconds.text($0)))" } ?? ""
                    writer.process(pid: offset + 1, name: "launch \(timeline.launchIndex)" + total)
                    writer.write(timeline, pid: offset + 1)
                }
            }
        }
    }

    /// The bytes to begin with for the trace of `timelines` (nil for an
    /// uninstrumented run). Generous: pages never written cost nothing, and a
    /// buffer too small is written again.
    private static func capacity(_ timelines: [LaunchTimeline?]) -> Int {
        4096 + 320 * timelines.reduce(0) { $0 + ($1.map { $0.mainThreadSpans.count + $0.otherSpans.count } ?? 1) }
    }

    /// The one frame of every Chrome trace: the events `processes` writes, then `otherData`'s pairs.
    private static func trace(
        into json: inout JSONBytes, otherData: [(String, String)], processes: (inout Writer) -> Void
    ) {
        var writer = Writer(json: json)
        writer.json.raw("{\"traceEvents\":[")
        processes(&writer)
        writer.json.raw("\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{")
        for (index, (key, value)) in otherData.enumerated() {
            if index > 0 { writer.json.byte(UInt8(ascii: ",")) }
            writer.json.string(key)
            writer.json.byte(UInt8(ascii: ":"))
            writer.json.string(value)
        }
        writer.json.raw("}}\n")
        json = writer.json
    }

    /// The name of the counter of the main thread's blocked time.
    public static let blockedCounterName = "main thread blocked (ms)"

    /// The name of the main thread's state counter (percent of the innermost span's own time).
    public static let stateCounterName = "main thread state (% of own time)"

    /// A span's own time in percent: CPU, waiting for a CPU, blocked, not accounted.
    struct StateShares: Equatable {
        var cpu = 0.0, queue = 0.0, blocked = 0.0, unaccounted = 0.0
        var estimated = false
    }

    /// `span`'s own time split as ``SpanTimeSplit`` splits it, in percent (rounded to 0.1).
    static func stateShares(_ span: SpanRecord) -> StateShares {
        let split = SpanTimeSplit(span)
        guard split.selfMs > 0 else { return StateShares(unaccounted: 100) }
        func percent(_ value: Double) -> Double { (value / split.selfMs * 1000).rounded() / 10 }
        var shares = StateShares()
        var accounted = 0.0
        for part in split.parts {
            accounted += part.milliseconds
            switch part.key {
            case "cpu": shares.cpu += percent(part.milliseconds)
            case "runQueue": shares.queue += percent(part.milliseconds)
            default: shares.blocked += percent(part.milliseconds)
            }
        }
        shares.unaccounted = max(0, percent(split.selfMs - accounted))
        shares.estimated = split.hasEstimate
        return shares
    }

    private struct Writer: ~Copyable {
        var json: JSONBytes
        var first = true

        /// Starts an event object: `{` after a comma when one came before.
        mutating func event(_ phase: StaticString, pid: Int, tid: Int) {
            if first { first = false } else { json.byte(UInt8(ascii: ",")) }
            json.raw("\n{\"ph\":\"")
            json.raw(phase)
            json.raw("\",\"pid\":")
            json.integer(pid)
            json.raw(",\"tid\":")
            json.integer(tid)
        }

        /// A metadata event's argument: a name, or a sort index.
        enum Argument { case name(String), sortIndex(Int) }

        /// A metadata (`M`) event: `process_name`, `thread_sort_index`….
        mutating func metadata(_ name: StaticString, pid: Int, tid: Int, _ argument: Argument) {
            event("M", pid: pid, tid: tid)
            json.raw(",\"name\":\"")
            json.raw(name)
            switch argument {
            case .name(let value):
                json.raw("\",\"args\":{\"name\":")
                json.string(value)
            case .sortIndex(let index):
                json.raw("\",\"args\":{\"sort_index\":")
                json.integer(index)
            }
            json.raw("}}")
        }

        /// A process's name and its place (its pid).
        mutating func process(pid: Int, name: String) {
            metadata("process_name", pid: pid, tid: 0, .name(name))
            metadata("process_sort_index", pid: pid, tid: 0, .sortIndex(pid))
        }

        /// A thread's name and its place among the process's threads.
        mutating func thread(pid: Int, tid: Int, name: String, sortIndex: Int) {
            metadata("thread_name", pid: pid, tid: tid, .name(name))
            metadata("thread_sort_index", pid: pid, tid: tid, .sortIndex(sortIndex))
        }

        mutating func write(_ run: RunRecord, label: String?, pid: Int) {
            let ready = run.timeToReadyMs.map { " (\(Milliseconds.text($0)))" } ?? ""
            process(pid: pid, name: (label.map { $0 + " " } ?? "") + "run \(run.index)" + ready)
            guard let timeline = run.timeline else {
                thread(pid: pid, tid: 1, name: "main", sortIndex: 1)
                // Uninstrumented: the launch is all there is to draw.
                event("X", pid: pid, tid: 1)
                json.raw(",\"name\":\"timeToReady\",\"cat\":\"launch\",\"ts\":0,\"dur\":")
                json.microseconds(Int64(saturating: ((run.timeToReadyMs ?? 0) * 1_000_000).rounded()))
                json.raw("}")
                return
            }
            write(timeline, pid: pid)
        }

        /// A launch's spans, lanes, milestones and blocked-time counter, in process `pid`.
        mutating func write(_ timeline: LaunchTimeline, pid: Int) {
            let origin = Int64(clamping: ChromeTraceReport.origin(of: timeline))
            // The main thread's real tid when the report recorded it (1 in older reports).
            let main = timeline.threads.first(where: \.isMain)
            let mainTid = main.map { Int(clamping: $0.id) } ?? 1
            thread(pid: pid, tid: mainTid, name: main.map { "main (\($0.id))" } ?? "main", sortIndex: 1)

            // Each span read where it lies: a copy of one costs more than writing it.
            let spans = timeline.mainThreadSpans
            for index in spans.indices {
                self.span(spans[index], pid: pid, tid: mainTid, origin: origin)
            }
            // Spans that carry their thread's id go on that thread (its real tid, its name);
            // those of older reports are packed into lanes that nest properly.
            let threaded = timeline.otherSpans.filter { $0.threadID != nil }
            let unthreaded = timeline.otherSpans.filter { $0.threadID == nil }
            var named = Set<UInt64>()
            for span in threaded {
                let thread = span.threadID!
                if named.insert(thread).inserted {
                    let name = timeline.threads.first { $0.id == thread }?.name
                    self.thread(
                        pid: pid, tid: Int(clamping: thread), name: (name ?? "thread") + " (\(thread))",
                        sortIndex: named.count + 1)
                }
                self.span(span, pid: pid, tid: Int(clamping: thread), origin: origin)
            }
            let lanes = ChromeTraceReport.lanes(of: unthreaded)
            for lane in 0..<(lanes.max().map { $0 + 1 } ?? 0) {
                thread(
                    pid: pid, tid: lane + 2, name: lane == 0 ? "other threads" : "other threads #\(lane + 1)",
                    sortIndex: named.count + lane + 2)
            }
            for (span, lane) in zip(unthreaded, lanes) {
                self.span(span, pid: pid, tid: lane + 2, origin: origin)
            }

            for (milestone, nanoseconds) in timeline.milestones.sorted(by: {
                ($0.value, $0.key.rawValue) < ($1.value, $1.key.rawValue)
            }) {
                event("i", pid: pid, tid: mainTid)
                json.raw(",\"s\":\"t\",\"cat\":\"milestone\",\"name\":")
                json.string(milestone.id)
                json.raw(",\"ts\":")
                json.microseconds(Int64(clamping: nanoseconds) &- origin)
                json.raw("}")
            }

            blockedCounter(timeline.mainThreadSpans, pid: pid, tid: mainTid, origin: origin)
            stateCounter(timeline.mainThreadSpans, pid: pid, tid: mainTid, origin: origin)
        }

        /// The main thread's state as Perfetto draws a thread-state lane, as a stacked counter in
        /// percent: at each moment, the split of the innermost span running then (CPU, waiting for
        /// a CPU, blocked, not accounted), and `no readings` between top-level spans, where nothing
        /// was read; `estimated` says the split there was attributed rather than read.
        mutating func stateCounter(_ spans: [SpanRecord], pid: Int, tid: Int, origin: Int64) {
            guard !spans.isEmpty else { return }
            let order = spans.indices.sorted {
                (spans[$0].beginNanoseconds, spans[$0].depth, $0) < (spans[$1].beginNanoseconds, spans[$1].depth, $1)
            }
            var stack: [Int] = []
            var last: (ts: Int64, state: Int)? = nil
            func ts(_ nanoseconds: UInt64) -> Int64 { Int64(clamping: nanoseconds) &- origin }
            for index in order {
                let span = spans[index]
                while let top = stack.last, spans[top].endNanoseconds <= span.beginNanoseconds {
                    stack.removeLast()
                    stateSample(
                        stack.last.map { spans[$0] }, pid: pid, tid: tid, at: ts(spans[top].endNanoseconds),
                        last: &last, key: stack.last ?? -1)
                }
                stack.append(index)
                stateSample(span, pid: pid, tid: tid, at: ts(span.beginNanoseconds), last: &last, key: index)
            }
            while let top = stack.popLast() {
                stateSample(
                    stack.last.map { spans[$0] }, pid: pid, tid: tid, at: ts(spans[top].endNanoseconds), last: &last,
                    key: stack.last ?? -1)
            }
        }

        /// One step of the state counter: `span`'s split of its own time (nil: no readings).
        mutating func stateSample(
            _ span: SpanRecord?, pid: Int, tid: Int, at ts: Int64, last: inout (ts: Int64, state: Int)?, key: Int
        ) {
            if let previous = last, previous.state == key, previous.ts <= ts { return }
            last = (ts, key)
            event("C", pid: pid, tid: tid)
            json.raw(",\"name\":")
            json.string(ChromeTraceReport.stateCounterName)
            json.raw(",\"ts\":")
            json.microseconds(ts)
            json.raw(",\"args\":{")
            let split = span.map(ChromeTraceReport.stateShares) ?? ChromeTraceReport.StateShares()
            json.raw("\"CPU\":")
            json.double(split.cpu)
            json.raw(",\"waiting for a CPU\":")
            json.double(split.queue)
            json.raw(",\"blocked\":")
            json.double(split.blocked)
            json.raw(",\"not accounted\":")
            json.double(split.unaccounted)
            json.raw(",\"no readings\":")
            json.double(span == nil ? 100 : 0)
            if split.estimated { json.raw(",\"estimated\":1") }
            json.raw("}}")
        }

        mutating func span(_ span: SpanRecord, pid: Int, tid: Int, origin: Int64) {
            event("X", pid: pid, tid: tid)
            json.raw(",\"name\":")
            json.string(span.name)
            json.raw(",\"cat\":")
            json.string(span.category.description)
            json.raw(",\"ts\":")
            json.microseconds(Int64(clamping: span.beginNanoseconds) &- origin)
            json.raw(",\"dur\":")
            json.microseconds(Int64(clamping: span.wallNanoseconds))
            json.raw(",\"args\":{\"location\":")
            json.location(file: span.file, line: span.line)
            json.raw(",\"selfMs\":")
            json.milliseconds(span.selfNanoseconds)
            if let cpu = span.selfCPUNanoseconds {
                // CPU time is read at the thread clock's granularity: never more than the self time it is part of.
                json.raw(",\"selfCPUMs\":")
                json.milliseconds(min(cpu, span.selfNanoseconds))
            }
            if let queue = span.runQueueNanoseconds, queue > 0 {
                json.raw(",\"runQueueMs\":")
                json.milliseconds(queue)
            }
            if !span.blockedNanoseconds.isEmpty {
                // In WaitKind order, so the output does not depend on the dictionary's.
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: WaitKind.allCases.count) { slots in
                    slots.initialize(repeating: .max)
                    for (kind, blocked) in span.blockedNanoseconds { slots[kind.slot] = blocked }
                    json.raw(",\"blockedMs\":")
                    millisecondsByKind { slots[$0] == .max ? nil : slots[$0] }
                }
                // Split between kinds by the samples, or taken from samples alone: attributed, not read.
                if span.offCPUNanoseconds == nil || span.blockedNanoseconds.count > 1 {
                    json.raw(",\"blockedMsIsEstimate\":true")
                }
            }
            if span.isOpen { json.raw(",\"open\":true") }
            json.raw("}}")
        }

        /// The main thread's blocked time so far, by wait kind: 0 at time 0,
        /// then a step at the end of each span that was blocked.
        mutating func blockedCounter(_ spans: [SpanRecord], pid: Int, tid: Int, origin: Int64) {
            let blocked = spans.indices.filter { !spans[$0].blockedNanoseconds.isEmpty }
                .sorted { (spans[$0].endNanoseconds, $0) < (spans[$1].endNanoseconds, $1) }
            guard !blocked.isEmpty else { return }
            // Only the kinds this run waited on: a series of zeros says nothing.
            var shown = [Bool](repeating: false, count: WaitKind.allCases.count)
            for index in blocked {
                for kind in spans[index].blockedNanoseconds.keys { shown[kind.slot] = true }
            }
            var totals = [UInt64](repeating: 0, count: WaitKind.allCases.count)
            blockedSample(totals, shown: shown, pid: pid, tid: tid, at: 0)
            for index in blocked {
                // Saturating: a stored or merged report's blocked times can add up past 2^64.
                for (kind, nanoseconds) in spans[index].blockedNanoseconds {
                    totals[kind.slot] = totals[kind.slot].addingClamped(nanoseconds)
                }
                blockedSample(
                    totals, shown: shown, pid: pid, tid: tid, at: Int64(clamping: spans[index].endNanoseconds) &- origin
                )
            }
        }

        mutating func blockedSample(_ totals: [UInt64], shown: [Bool], pid: Int, tid: Int, at ts: Int64) {
            event("C", pid: pid, tid: tid)
            json.raw(",\"name\":")
            json.string(ChromeTraceReport.blockedCounterName)
            json.raw(",\"ts\":")
            json.microseconds(ts)
            json.raw(",\"args\":")
            millisecondsByKind { shown[$0] ? totals[$0] : nil }
            json.byte(UInt8(ascii: "}"))
        }

        /// `{"disk":1.5,"lock":0.2}`: nanoseconds as milliseconds, by wait kind in
        /// ``WaitKind`` order (so the output does not depend on a dictionary's), for
        /// the kinds whose slot has a value.
        mutating func millisecondsByKind(_ value: (Int) -> UInt64?) {
            json.byte(UInt8(ascii: "{"))
            var first = true
            for (slot, kind) in WaitKind.allCases.enumerated() {
                guard let nanoseconds = value(slot) else { continue }
                if !first { json.byte(UInt8(ascii: ",")) }
                first = false
                json.string(kind.rawValue)
                json.byte(UInt8(ascii: ":"))
                json.milliseconds(nanoseconds)
            }
            json.byte(UInt8(ascii: "}"))
        }
    }

    /// The run's time 0, CLOCK_MONOTONIC nanoseconds: its spawn, else where a
    /// hot launch began, else its first milestone or span.
    public static func origin(of timeline: LaunchTimeline) -> UInt64 {
        if let spawn = timeline.milestones[.spawn] { return spawn }
        if let begin = timeline.hotLaunchBeginNanoseconds { return begin }
        let first = [
            timeline.milestones.values.min(), timeline.mainThreadSpans.first?.beginNanoseconds,
            timeline.otherSpans.map(\.beginNanoseconds).min(),
        ]
        return first.compactMap { $0 }.min() ?? 0
    }

    /// A lane (0…) for each span, in the spans' order, such that the spans of
    /// one lane either nest or follow one another: complete events on one
    /// thread must, or the viewers draw them wrongly.
    static func lanes(of spans: [SpanRecord]) -> [Int] {
        let order = spans.indices.sorted {
            (spans[$0].beginNanoseconds, UInt64.max - spans[$0].endNanoseconds, $0)
                < (spans[$1].beginNanoseconds, UInt64.max - spans[$1].endNanoseconds, $1)
        }
        var open: [[UInt64]] = []  // per lane, the ends of the spans still open there, innermost last
        var lanes = [Int](repeating: 0, count: spans.count)
        for index in order {
            let begin = spans[index].beginNanoseconds
            let end = max(begin, spans[index].endNanoseconds)
            var chosen: Int?
            for lane in open.indices {
                while let last = open[lane].last, last <= begin { open[lane].removeLast() }
                if open[lane].last.map({ end <= $0 }) ?? true {
                    chosen = lane
                    break
                }
            }
            let lane = chosen ?? open.count
            if lane == open.count { open.append([]) }
            open[lane].append(end)
            lanes[index] = lane
        }
        return lanes
    }
}

private extension WaitKind {
    /// Its position in ``allCases``, without hashing.
    var slot: Int {
        switch self {
        case .disk: return 0
        case .network: return 1
        case .lock: return 2
        case .sleep: return 3
        case .process: return 4
        case .ipc: return 5
        case .event: return 6
        case .other: return 7
        case .unknown: return 8
        }
    }
}
