/// Encodes a ``Trace`` in the LaunchProf trace format.
///
/// Names are interned; per-thread timestamps are delta-encoded as varints, so
/// an event takes about 8 bytes. See the DocC article "Trace File Format".
public enum TraceEncoder {
    /// The file bytes for `trace`.
    public static func encode(_ trace: Trace) -> [UInt8] {
        var (file, tail) = encodePieces(trace, flushed: FlushedThreads())
        file.append(tail)
        return file.bytes
    }

    /// What a flush wrote of its threads (``FlushEncoder``), as the sections around them need it.
    /// (A plain struct, not an optional encoder: the first optional of a type a process makes costs
    /// tens of thousands of instructions of type metadata, which the flush at exit would pay.)
    struct FlushedThreads {
        /// False: no flush; the trace's own file paths are written.
        var isFlush = false
        /// The flush's `fileID, pathID` pairs (``FlushEncoder/filePaths``).
        var filePaths: [UInt32] = []
        var eventCount = 0
        var threadCount = 0
    }

    /// The file for `trace` and the thread sections a flush wrote (`flushed`; their strings are
    /// `trace`'s, their file paths `flushed`'s), in pieces: `head`, then the sections (not copied
    /// here: a flush writes them where they are), then `tail`.
    static func encodePieces(_ trace: Trace, flushed: FlushedThreads) -> (head: ByteWriter, tail: ByteWriter) {
        // Room for the whole file at once (an event row takes about 12 bytes, an accounted
        // span's rows about 16): growing it would copy what was written.
        let accounted = trace.threads.reduce(0) { $0 + $1.usage.count }
        var file = ByteWriter(
            capacity: 4_096 + trace.eventCount * 14 + accounted * 20 + (flushed.isFlush ? 0 : trace.samples.count * 12))
        file.write(maximum: TraceFormat.magic.count) { cursor in
            TraceFormat.magic.withUnsafeBufferPointer { cursor.copy($0) }
        }
        file.uint16(TraceFormat.version)
        file.uint16(0)

        file.section(.process) { process in
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
        }

        file.section(.strings) { strings in
            strings.varint(trace.strings.count)
            for string in trace.strings { strings.string(string) }
        }

        file.section(.metadata) { metadata in
            metadata.varint(trace.metadata.count)
            for key in trace.metadata.keys.sorted() {
                metadata.string(key)
                metadata.string(trace.metadata[key]!)
            }
        }

        if flushed.isFlush {
            if !flushed.filePaths.isEmpty { file.section(.filePaths) { filePaths(flushed.filePaths, into: &$0) } }
        } else if !trace.filePaths.isEmpty {
            file.section(.filePaths) { paths in
                paths.varint(trace.filePaths.count)
                for (fileID, pathID) in trace.filePaths.sorted(by: { $0.key < $1.key }) {
                    paths.varint(fileID)
                    paths.varint(pathID)
                }
            }
        }

        for thread in trace.threads {
            file.section(.thread) { encode(thread, into: &$0) }
        }

        var tail = ByteWriter(capacity: 1_024 + trace.samples.count * 12)
        tail.section(.samples) { samples in
            samples.varint(trace.samples.count)
            var previous: UInt64 = 0
            for sample in trace.samples {
                samples.write(maximum: 3 * ByteWriter.Cursor.maximumVarint + 2) { cursor in
                    cursor.signedVarint(Int64(bitPattern: sample.nanoseconds &- previous))
                    cursor.varint(sample.osThreadID)
                    cursor.byte(sample.state)
                    cursor.signedVarint(Int64(sample.syscall))
                    cursor.byte(sample.wait.storedInSamples.rawValue)
                }
                previous = sample.nanoseconds
            }
        }
        if trace.threads.contains(where: { $0.usage.contains { $0.usage.runQueueNanoseconds != nil } }) {
            tail.section(.spanSchedule) { spanSchedule(trace.threads, into: &$0) }
        }
        if trace.threads.contains(where: { $0.usage.contains(where: \.isEstimated) }) {
            tail.section(.spanEstimates) { spanEstimates(trace.threads, into: &$0) }
        }
        if let details = sampleDetails(trace.samples) { tail.section(.sampleDetails, details) }

        tail.section(.end) { end in
            end.varint(trace.eventCount + flushed.eventCount)
            end.varint(trace.threads.count + flushed.threadCount)
        }
        return (file, tail)
    }

    /// The `filePaths` section's payload from a flush's pairs (`fileID, pathID`, one after the
    /// other), in file id order: a flush notes files in the order their first events come,
    /// which is their ids' order unless a file was interned before its path was noted.
    private static func filePaths(_ pairs: [UInt32], into writer: inout ByteWriter) {
        var pairs = pairs
        var index = 2
        while index < pairs.count {  // an insertion sort of pairs: already in order, one pass
            var at = index
            while at > 0, pairs[at - 2] > pairs[at] {
                pairs.swapAt(at - 2, at)
                pairs.swapAt(at - 1, at + 1)
                at -= 2
            }
            index += 2
        }
        writer.varint(pairs.count / 2)
        for index in stride(from: 0, to: pairs.count, by: 2) {
            writer.varint(pairs[index])
            writer.varint(pairs[index + 1])
        }
    }

    private static func encode(_ thread: TraceThread, into writer: inout ByteWriter) {
        writer.varint(thread.index)
        writer.varint(thread.osThreadID)
        writer.byte((thread.isMain ? 1 : 0) | (thread.name != nil ? 2 : 0))
        if let name = thread.name { writer.string(name) }
        writer.varint(thread.dropped)
        writer.varint(thread.events.count)
        var previousBegin: UInt64 = 0
        writer.write(each: thread.events, maximum: 2 + 5 * ByteWriter.Cursor.maximumVarint) { cursor, event in
            cursor.byte(event.kind.rawValue | (event.isOpen ? 0x10 : 0))
            cursor.byte(event.category)
            cursor.varint(event.nameID)
            cursor.varint(event.fileID)
            cursor.varint(event.line)
            cursor.signedVarint(Int64(bitPattern: event.beginNanoseconds &- previousBegin))
            cursor.varint(event.endNanoseconds.subtractingClamped(event.beginNanoseconds))
            previousBegin = event.beginNanoseconds
        }
        writer.varint(thread.usage.count)
        writer.write(each: thread.usage, maximum: 6 * ByteWriter.Cursor.maximumVarint) { cursor, span in
            cursor.varint(span.eventIndex)
            cursor.varint(span.usage.cpuNanoseconds)
            cursor.varint(span.usage.voluntaryContextSwitches)
            cursor.varint(span.usage.involuntaryContextSwitches)
            cursor.varint(span.usage.minorFaults)
            cursor.varint(span.usage.majorFaults)
        }
    }

    /// Section `spanSchedule`: `threads`, then per thread `index, count, (eventIndex, runQueueNs)*`,
    /// for the accounted spans whose run-queue wait is known (written only when one is).
    private static func spanSchedule(_ threads: [TraceThread], into writer: inout ByteWriter) {
        let known = threads.map { thread in
            thread.usage.reduce(0) { $0 + ($1.usage.runQueueNanoseconds != nil ? 1 : 0) }
        }
        writer.varint(known.reduce(0) { $0 + ($1 > 0 ? 1 : 0) })
        for (thread, count) in zip(threads, known) where count > 0 {
            writer.varint(thread.index)
            writer.varint(count)
            writer.write(each: thread.usage, maximum: 2 * ByteWriter.Cursor.maximumVarint) { cursor, span in
                guard let runQueue = span.usage.runQueueNanoseconds else { return }
                cursor.varint(span.eventIndex)
                cursor.varint(runQueue)
            }
        }
    }

    /// Section `spanEstimates`: `threads`, then per thread `index, count, (eventIndex delta)*`,
    /// for the accounted spans whose usage was attributed (written only when one was).
    private static func spanEstimates(_ threads: [TraceThread], into writer: inout ByteWriter) {
        let counts = threads.map { thread in thread.usage.reduce(0) { $0 + ($1.isEstimated ? 1 : 0) } }
        writer.varint(counts.reduce(0) { $0 + ($1 > 0 ? 1 : 0) })
        for (thread, count) in zip(threads, counts) where count > 0 {
            writer.varint(thread.index)
            writer.varint(count)
            // In event order, as a flush gives them; sorted when a trace built otherwise does not.
            var previous: UInt32 = 0
            var ordered = true
            for span in thread.usage where span.isEstimated {
                guard span.eventIndex >= previous else {
                    ordered = false
                    break
                }
                previous = span.eventIndex
            }
            let indices = ordered ? nil : thread.usage.filter(\.isEstimated).map(\.eventIndex).sorted()
            previous = 0
            func delta(_ index: UInt32) {
                writer.varint(index - previous)
                previous = index
            }
            if let indices {
                indices.forEach(delta)
            } else {
                for span in thread.usage where span.isEstimated { delta(span.eventIndex) }
            }
        }
    }

    /// Section `sampleDetails`: the wait targets (`count, (kind, name)*`), then the
    /// samples with a wait kind the `samples` section cannot store or a target:
    /// `count, (sampleIndex delta, wait, target + 1 or 0)*`; nil when there are none.
    private static func sampleDetails(_ samples: [ThreadSample]) -> ByteWriter? {
        var targets: [WaitTarget] = []
        var targetIndex: [WaitTarget: Int] = [:]
        var entries: [(index: Int, wait: UInt8, target: Int)] = []
        for (index, sample) in samples.enumerated()
        where sample.target != nil || sample.wait != sample.wait.storedInSamples {
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
