import LaunchTracing

/// Turns one thread's span events into ``SpanRecord``s: nesting, self time,
/// self CPU time, and the waits the sampler saw during each span's self time.
struct SpanAccountant {
    let trace: Trace
    /// The sampled thread's samples, in time order.
    let samples: [ThreadSample]

    func records(in thread: TraceThread, from lower: UInt64, to upper: UInt64, firstFrame: UInt64) -> [SpanRecord] {
        let usageByIndex = Dictionary(thread.usage.map { (Int($0.eventIndex), $0.usage) }, uniquingKeysWith: { a, _ in a })
        // Spans of this launch, in begin order (ties: the longer one first, so it is the parent).
        let spans = thread.events.indices.filter {
            let event = thread.events[$0]
            return event.kind == .span && event.beginNanoseconds >= lower && event.beginNanoseconds < upper
        }.sorted {
            let a = thread.events[$0], b = thread.events[$1]
            return a.beginNanoseconds != b.beginNanoseconds ? a.beginNanoseconds < b.beginNanoseconds : a.endNanoseconds > b.endNanoseconds
        }
        var parents: [Int?] = Array(repeating: nil, count: spans.count)
        var depths = Array(repeating: 0, count: spans.count)
        var stack: [Int] = []
        for (position, index) in spans.enumerated() {
            let event = thread.events[index]
            while let top = stack.last, thread.events[spans[top]].endNanoseconds <= event.beginNanoseconds { stack.removeLast() }
            parents[position] = stack.last
            depths[position] = stack.count
            stack.append(position)
        }
        var childWall = Array(repeating: UInt64(0), count: spans.count)
        var childCPU = Array(repeating: UInt64(0), count: spans.count)
        for position in spans.indices {
            guard let parent = parents[position] else { continue }
            let event = thread.events[spans[position]]
            childWall[parent] += event.durationNanoseconds
            childCPU[parent] += usageByIndex[spans[position]]?.cpuNanoseconds ?? 0
        }
        // Each sample belongs to the innermost span containing it.
        var waits = Array(repeating: [ThreadSample.Wait: Int](), count: spans.count)
        var sampleTotals = Array(repeating: 0, count: spans.count)
        if !samples.isEmpty {
            var open: [Int] = []
            var next = 0
            for sample in samples where sample.nanoseconds >= lower && sample.nanoseconds < upper {
                while next < spans.count, thread.events[spans[next]].beginNanoseconds <= sample.nanoseconds {
                    open.append(next)
                    next += 1
                }
                open.removeAll { thread.events[spans[$0]].endNanoseconds < sample.nanoseconds }
                guard let innermost = open.max(by: { depths[$0] < depths[$1] }) else { continue }
                waits[innermost][sample.wait, default: 0] += 1
                sampleTotals[innermost] += 1
            }
        }
        return spans.enumerated().map { position, index in
            let event = thread.events[index]
            let usage = usageByIndex[index]
            let selfWall = event.durationNanoseconds.subtractingClamped(childWall[position])
            let selfCPU = usage.map { $0.cpuNanoseconds.subtractingClamped(childCPU[position]) }
            var blocked: [WaitKind: UInt64] = [:]
            let waitSamples = waits[position].filter { $0.key != ThreadSample.Wait.none }
            let waitCount = waitSamples.values.reduce(0, +)
            // Blocked self time: wall minus CPU when accounted, else the sampled share.
            let blockedTotal: UInt64
            if let selfCPU {
                blockedTotal = selfWall.subtractingClamped(selfCPU)
            } else if sampleTotals[position] > 0 {
                blockedTotal = selfWall * UInt64(waitCount) / UInt64(sampleTotals[position])
            } else {
                blockedTotal = 0
            }
            // Sampled with no waits seen: the gap between wall and CPU time was
            // time runnable but not running (preempted), not blocking.
            if blockedTotal > 0, !(sampleTotals[position] > 0 && waitCount == 0) {
                if waitCount == 0 {
                    blocked[.unknown] = blockedTotal
                } else {
                    for (wait, count) in waitSamples {
                        guard let kind = WaitKind(wait) else { continue }
                        blocked[kind] = blockedTotal * UInt64(count) / UInt64(waitCount)
                    }
                }
            }
            return SpanRecord(
                name: trace.name(of: event), category: SpanCategory(rawValue: event.category),
                file: trace.file(of: event), line: Int(event.line),
                beginNanoseconds: event.beginNanoseconds, endNanoseconds: event.endNanoseconds,
                depth: depths[position], isOpen: event.isOpen, beforeFirstFrame: event.beginNanoseconds < firstFrame,
                selfNanoseconds: selfWall, selfCPUNanoseconds: selfCPU,
                voluntaryContextSwitches: usage?.voluntaryContextSwitches,
                involuntaryContextSwitches: usage?.involuntaryContextSwitches,
                majorFaults: usage?.majorFaults, blockedNanoseconds: blocked, threadID: thread.osThreadID)
        }
    }
}
