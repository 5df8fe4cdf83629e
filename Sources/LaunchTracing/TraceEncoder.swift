/// Encodes a ``Trace`` in the LaunchProf trace format.
///
/// Names are interned; per-thread timestamps are delta-encoded as varints, so
/// an event takes about 8 bytes. See the DocC article "Trace File Format".
public enum TraceEncoder {
    /// The file bytes for `trace`.
    public static func encode(_ trace: Trace) -> [UInt8] {
        var file = ByteWriter(capacity: 64 + trace.eventCount * 10)
        file.bytes.append(contentsOf: TraceFormat.magic)
        file.uint16(TraceFormat.version)
        file.uint16(0)

        var process = ByteWriter()
        process.varint(trace.clockSource.rawValue)
        process.varint(UInt32(bitPattern: trace.processID))
        process.string(trace.executablePath)
        process.varint(trace.runtimeInitNanoseconds)
        process.varint(trace.flushNanoseconds)
        process.byte(trace.spawn?.source.rawValue ?? 0)
        process.varint(trace.spawn?.nanoseconds ?? 0)
        process.varint(trace.calibration.count)
        for pair in trace.calibration {
            process.varint(pair.ticks)
            process.varint(pair.nanoseconds)
        }
        file.section(.process, process)

        var strings = ByteWriter()
        strings.varint(trace.strings.count)
        for string in trace.strings { strings.string(string) }
        file.section(.strings, strings)

        var metadata = ByteWriter()
        metadata.varint(trace.metadata.count)
        for key in trace.metadata.keys.sorted() {
            metadata.string(key)
            metadata.string(trace.metadata[key]!)
        }
        file.section(.metadata, metadata)

        if !trace.filePaths.isEmpty {
            var paths = ByteWriter()
            paths.varint(trace.filePaths.count)
            for (fileID, pathID) in trace.filePaths.sorted(by: { $0.key < $1.key }) {
                paths.varint(fileID)
                paths.varint(pathID)
            }
            file.section(.filePaths, paths)
        }

        for thread in trace.threads {
            file.section(.thread, encode(thread))
        }

        var samples = ByteWriter(capacity: trace.samples.count * 8)
        samples.varint(trace.samples.count)
        var previous: UInt64 = 0
        for sample in trace.samples {
            samples.signedVarint(Int64(bitPattern: sample.nanoseconds &- previous))
            previous = sample.nanoseconds
            samples.varint(sample.osThreadID)
            samples.byte(sample.state)
            samples.signedVarint(Int64(sample.syscall))
            samples.byte(sample.wait.storedInSamples.rawValue)
        }
        file.section(.samples, samples)
        if let schedule = spanSchedule(trace.threads) { file.section(.spanSchedule, schedule) }
        if let estimates = spanEstimates(trace.threads) { file.section(.spanEstimates, estimates) }
        if let details = sampleDetails(trace.samples) { file.section(.sampleDetails, details) }

        var end = ByteWriter()
        end.varint(trace.eventCount)
        end.varint(trace.threads.count)
        file.section(.end, end)
        return file.bytes
    }

    private static func encode(_ thread: TraceThread) -> ByteWriter {
        var writer = ByteWriter(capacity: 32 + thread.events.count * 10)
        writer.varint(thread.index)
        writer.varint(thread.osThreadID)
        writer.byte((thread.isMain ? 1 : 0) | (thread.name != nil ? 2 : 0))
        if let name = thread.name { writer.string(name) }
        writer.varint(thread.dropped)
        writer.varint(thread.events.count)
        var previousBegin: UInt64 = 0
        for event in thread.events {
            writer.byte(event.kind.rawValue | (event.isOpen ? 0x10 : 0))
            writer.byte(event.category)
            writer.varint(event.nameID)
            writer.varint(event.fileID)
            writer.varint(event.line)
            writer.signedVarint(Int64(bitPattern: event.beginNanoseconds &- previousBegin))
            writer.varint(event.endNanoseconds.subtractingClamped(event.beginNanoseconds))
            previousBegin = event.beginNanoseconds
        }
        writer.varint(thread.usage.count)
        for span in thread.usage {
            writer.varint(span.eventIndex)
            writer.varint(span.usage.cpuNanoseconds)
            writer.varint(span.usage.voluntaryContextSwitches)
            writer.varint(span.usage.involuntaryContextSwitches)
            writer.varint(span.usage.minorFaults)
            writer.varint(span.usage.majorFaults)
        }
        return writer
    }

    /// Section `spanSchedule`: `threads`, then per thread `index, count, (eventIndex, runQueueNs)*`,
    /// for the accounted spans whose run-queue wait is known; nil when none is.
    private static func spanSchedule(_ threads: [TraceThread]) -> ByteWriter? {
        let known = threads.map { thread in thread.usage.filter { $0.usage.runQueueNanoseconds != nil } }
        guard known.contains(where: { !$0.isEmpty }) else { return nil }
        var writer = ByteWriter()
        writer.varint(known.filter { !$0.isEmpty }.count)
        for (thread, spans) in zip(threads, known) where !spans.isEmpty {
            writer.varint(thread.index)
            writer.varint(spans.count)
            for span in spans {
                writer.varint(span.eventIndex)
                writer.varint(span.usage.runQueueNanoseconds!)
            }
        }
        return writer
    }

    /// Section `spanEstimates`: `threads`, then per thread `index, count, (eventIndex delta)*`,
    /// for the accounted spans whose usage was attributed; nil when every one was read.
    private static func spanEstimates(_ threads: [TraceThread]) -> ByteWriter? {
        let estimated = threads.map { thread in thread.usage.filter(\.isEstimated).map(\.eventIndex).sorted() }
        guard estimated.contains(where: { !$0.isEmpty }) else { return nil }
        var writer = ByteWriter()
        writer.varint(estimated.filter { !$0.isEmpty }.count)
        for (thread, indices) in zip(threads, estimated) where !indices.isEmpty {
            writer.varint(thread.index)
            writer.varint(indices.count)
            var previous: UInt32 = 0
            for index in indices {
                writer.varint(index - previous)
                previous = index
            }
        }
        return writer
    }

    /// Section `sampleDetails`: the wait targets (`count, (kind, name)*`), then the
    /// samples with a wait kind the `samples` section cannot store or a target:
    /// `count, (sampleIndex delta, wait, target + 1 or 0)*`; nil when there are none.
    private static func sampleDetails(_ samples: [ThreadSample]) -> ByteWriter? {
        var targets: [WaitTarget] = []
        var targetIndex: [WaitTarget: Int] = [:]
        var entries: [(index: Int, wait: UInt8, target: Int)] = []
        for (index, sample) in samples.enumerated() where sample.target != nil || sample.wait != sample.wait.storedInSamples {
            var reference = 0
            if let target = sample.target {
                if let known = targetIndex[target] {
                    reference = known + 1
                } else {
                    targetIndex[target] = targets.count
                    targets.append(target)
                    reference = targets.count
                }
            }
            entries.append((index, sample.wait.rawValue, reference))
        }
        guard !entries.isEmpty else { return nil }
        var writer = ByteWriter()
        writer.varint(targets.count)
        for target in targets {
            writer.byte(target.kind.code)
            writer.string(target.name)
        }
        writer.varint(entries.count)
        var previous = 0
        for entry in entries {
            writer.varint(entry.index - previous)
            previous = entry.index
            writer.byte(entry.wait)
            writer.varint(entry.target)
        }
        return writer
    }
}
