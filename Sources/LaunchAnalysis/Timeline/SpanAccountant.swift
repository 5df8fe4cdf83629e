import LaunchTracing

/// Turns one thread's span events into ``SpanRecord``s: nesting, self time,
/// self CPU time, run-queue wait and off-CPU time, and the waits the sampler saw
/// during each span's self time.
///
/// Off-CPU time is wall − CPU − run-queue wait, measured in every run. Within one
/// run it is split between the wait kinds the sampler saw in the span (in
/// proportion to their samples); with no sample of a wait it is `unknown` — or
/// `disk` when the span took major page faults. The advisor pools the samples of
/// every run of a call site instead (``Advisor``).
struct SpanAccountant {
    let trace: Trace
    let thread: TraceThread
    /// The sampled thread's samples, in time order.
    let samples: [ThreadSample]
    /// The system calls that write a file, by number on the architecture the
    /// samples were read on (``SampledArchitecture/fileWriteCalls``); empty when
    /// writes are not looked for (another thread, or an architecture not known).
    let fileWriteCalls: [Int32: String]
    /// The thread's spans (event indices) in begin order; ties: the longer one first, so it is the parent.
    private let orderedSpans: [Int]
    private let usageByIndex: [Int: ResourceUsage]
    /// The spans whose usage was attributed between readings, not read at their boundaries.
    private let estimated: Set<Int>

    /// Prepares `thread`'s spans once (O(n log n)), so that each launch's share of
    /// them is found by binary search, not by a pass over the whole thread.
    init(trace: Trace, thread: TraceThread, samples: [ThreadSample], fileWriteCalls: [Int32: String] = [:]) {
        self.trace = trace
        self.thread = thread
        self.fileWriteCalls = fileWriteCalls
        self.samples = samples.enumerated().sorted {
            $0.element.nanoseconds != $1.element.nanoseconds
                ? $0.element.nanoseconds < $1.element.nanoseconds : $0.offset < $1.offset
        }.map(\.element)
        let events = thread.events
        orderedSpans = events.indices.filter { events[$0].kind == .span }.sorted {
            let a = events[$0]
            let b = events[$1]
            if a.beginNanoseconds != b.beginNanoseconds { return a.beginNanoseconds < b.beginNanoseconds }
            if a.endNanoseconds != b.endNanoseconds { return a.endNanoseconds > b.endNanoseconds }
            return $0 < $1
        }
        usageByIndex = Dictionary(thread.usage.map { (Int($0.eventIndex), $0.usage) }, uniquingKeysWith: { a, _ in a })
        estimated = Set(thread.usage.filter(\.isEstimated).map { Int($0.eventIndex) })
    }

    /// The records of the spans that began in `lower..<upper`. O(s log s) in those
    /// spans and the samples of the same interval.
    func records(from lower: UInt64, to upper: UInt64, firstFrame: UInt64) -> [SpanRecord] {
        account(from: lower, to: upper, firstFrame: firstFrame).spans
    }

    /// The records of the spans that began in `lower..<upper`, the distinct
    /// file writes (``fileWriteCalls``) the samples of that interval caught before
    /// `firstFrame`, each with the innermost span around it, and the samples that
    /// fell outside every span, gathered by gap (``SampledGap``): one pass over the
    /// samples gives each to its span or gap and finds the writes. O(s log s) in
    /// those spans and samples.
    func account(from lower: UInt64, to upper: UInt64, firstFrame: UInt64) -> (
        spans: [SpanRecord], fileWrites: [FileWrite], gaps: [SampledGap]
    ) {
        let events = thread.events
        let first = LaunchTimeline.firstPosition(orderedSpans.count, notBelow: lower) {
            events[orderedSpans[$0]].beginNanoseconds
        }
        let last = LaunchTimeline.firstPosition(orderedSpans.count, notBelow: upper) {
            events[orderedSpans[$0]].beginNanoseconds
        }
        let spans = Array(orderedSpans[first..<max(first, last)])
        var parents: [Int?] = Array(repeating: nil, count: spans.count)
        var depths = Array(repeating: 0, count: spans.count)
        var stack: [Int] = []
        for (position, index) in spans.enumerated() {
            let event = events[index]
            while let top = stack.last, events[spans[top]].endNanoseconds <= event.beginNanoseconds {
                stack.removeLast()
            }
            parents[position] = stack.last
            depths[position] = stack.count
            stack.append(position)
        }
        var childWall = Array(repeating: UInt64(0), count: spans.count)
        var childCPU = Array(repeating: UInt64(0), count: spans.count)
        var childRunQueue = Array(repeating: UInt64(0), count: spans.count)
        // A span's self times subtract its children's: an estimated child makes them estimates too.
        var childEstimated = Array(repeating: false, count: spans.count)
        for position in spans.indices {
            guard let parent = parents[position] else { continue }
            let event = events[spans[position]]
            childWall[parent] += event.durationNanoseconds
            childCPU[parent] += usageByIndex[spans[position]]?.cpuNanoseconds ?? 0
            childRunQueue[parent] += usageByIndex[spans[position]]?.runQueueNanoseconds ?? 0
            if estimated.contains(spans[position]) { childEstimated[parent] = true }
        }
        // Each sample belongs to the innermost span containing it: the top of the
        // stack of spans begun by then (popped as in the nesting above) that has not ended.
        var waits = Array(repeating: [ThreadSample.Wait: Int](), count: spans.count)
        var sampleTotals = Array(repeating: 0, count: spans.count)
        var targets = Array(repeating: [WaitTarget: Int](), count: spans.count)
        var fileWrites: [FileWrite] = []
        var gaps: [SampledGap] = []
        // The gap a sample outside every span is in is told by the span after it (`next`).
        var gapBefore = -1
        var coveredUntil: UInt64?
        if !samples.isEmpty {
            let firstSample = LaunchTimeline.firstPosition(samples.count, notBelow: lower) { samples[$0].nanoseconds }
            let lastSample = LaunchTimeline.firstPosition(samples.count, notBelow: upper) { samples[$0].nanoseconds }
            var open: [Int] = []
            var next = 0
            for sample in samples[firstSample..<max(firstSample, lastSample)] {
                while next < spans.count, events[spans[next]].beginNanoseconds <= sample.nanoseconds {
                    let begin = events[spans[next]].beginNanoseconds
                    while let top = open.last, events[spans[top]].endNanoseconds <= begin { open.removeLast() }
                    open.append(next)
                    coveredUntil = max(coveredUntil ?? 0, events[spans[next]].endNanoseconds)
                    next += 1
                }
                while let top = open.last, events[spans[top]].endNanoseconds < sample.nanoseconds { open.removeLast() }
                if sample.nanoseconds < firstFrame, let call = fileWriteCalls[sample.syscall],
                    let target = sample.target, target.kind == .file
                {
                    let span = open.last.map { events[spans[$0]] }
                    let write = FileWrite(
                        call: call, file: target.name, span: span.map(trace.name(of:)),
                        spanFile: span.map(trace.file(of:)),
                        spanLine: span.map { Int($0.line) })
                    if !fileWrites.contains(write) { fileWrites.append(write) }
                }
                guard let innermost = open.last else {
                    if gapBefore != next {
                        gapBefore = next
                        gaps.append(
                            SampledGap(
                                beginNanoseconds: coveredUntil.map { min($0, sample.nanoseconds) }
                                    ?? sample.nanoseconds,
                                endNanoseconds: sample.nanoseconds, runningSamples: 0, waitSamples: [:]))
                    }
                    let at = gaps.count - 1
                    gaps[at].endNanoseconds =
                        next < spans.count
                        ? max(events[spans[next]].beginNanoseconds, sample.nanoseconds) : sample.nanoseconds
                    if let kind = WaitKind(sample.wait) {
                        gaps[at].waitSamples[kind, default: 0] += 1
                    } else {
                        gaps[at].runningSamples += 1
                    }
                    continue
                }
                waits[innermost][sample.wait, default: 0] += 1
                sampleTotals[innermost] += 1
                if let target = sample.target, sample.wait != .none { targets[innermost][target, default: 0] += 1 }
            }
        }
        let records = spans.enumerated().map { position, index in
            let event = events[index]
            let usage = usageByIndex[index]
            let selfWall = event.durationNanoseconds.subtractingClamped(childWall[position])
            // The thread clock and the tracer's ticks are read a few nanoseconds apart: CPU time is
            // never more than the wall time it is part of (JSON, OTLP and every format agree).
            let selfCPU = usage.map { min($0.cpuNanoseconds.subtractingClamped(childCPU[position]), selfWall) }
            let selfRunQueue = usage?.runQueueNanoseconds.map { $0.subtractingClamped(childRunQueue[position]) }
            let waitSamples = waits[position].filter { $0.key != ThreadSample.Wait.none }
            let waitCount = waitSamples.values.reduce(0, +)
            var blocked: [WaitKind: UInt64] = [:]
            var offCPU: UInt64?
            let blockedTotal: UInt64
            if let selfCPU, let selfRunQueue {
                // Exact: what is neither running nor waiting for a CPU is blocked.
                offCPU = selfWall.subtractingClamped(selfCPU).subtractingClamped(selfRunQueue)
                blockedTotal = offCPU!
            } else if let selfCPU {
                // No run-queue wait known: sampled with no waits seen, the gap between
                // wall and CPU time was time runnable but not running (preempted).
                let gap = selfWall.subtractingClamped(selfCPU)
                blockedTotal = sampleTotals[position] > 0 && waitCount == 0 ? 0 : gap
            } else if sampleTotals[position] > 0 {
                blockedTotal = selfWall * UInt64(waitCount) / UInt64(sampleTotals[position])
            } else {
                blockedTotal = 0
            }
            if blockedTotal > 0 {
                if waitCount > 0 {
                    for (wait, count) in waitSamples {
                        guard let kind = WaitKind(wait) else { continue }
                        blocked[kind, default: 0] += blockedTotal * UInt64(count) / UInt64(waitCount)
                    }
                } else {
                    blocked[(usage?.majorFaults ?? 0) > 0 ? .disk : .unknown] = blockedTotal
                }
            }
            var sampled: [WaitKind: Int] = [:]
            for (wait, count) in waitSamples { if let kind = WaitKind(wait) { sampled[kind, default: 0] += count } }
            let named = targets[position].sorted {
                $0.value != $1.value ? $0.value > $1.value : $0.key.name < $1.key.name
            }
            return SpanRecord(
                name: trace.name(of: event), category: SpanCategory(rawValue: event.category),
                file: trace.file(of: event), line: Int(event.line),
                beginNanoseconds: event.beginNanoseconds, endNanoseconds: event.endNanoseconds,
                depth: depths[position], isOpen: event.isOpen, beforeFirstFrame: event.beginNanoseconds < firstFrame,
                selfNanoseconds: selfWall, selfCPUNanoseconds: selfCPU,
                voluntaryContextSwitches: usage?.voluntaryContextSwitches,
                involuntaryContextSwitches: usage?.involuntaryContextSwitches,
                majorFaults: usage?.majorFaults, blockedNanoseconds: blocked,
                runQueueNanoseconds: selfRunQueue, offCPUNanoseconds: offCPU,
                waitSamples: sampled.isEmpty ? nil : sampled,
                waitTargets: named.isEmpty ? nil : named.prefix(4).map(\.key),
                threadID: thread.osThreadID,
                usageIsEstimated: usage != nil && (estimated.contains(index) || childEstimated[position]) ? true : nil)
        }
        return (records, fileWrites, gaps)
    }
}
