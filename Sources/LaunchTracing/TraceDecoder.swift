/// Decodes the LaunchProf trace format.
///
/// Every failure is a ``TraceFileError``: a truncated file names the offset
/// where bytes ran out and what was expected; a corrupted one fails its
/// section checksum, or a bounds or reference check, at a named offset. It never
/// traps on bad input.
public enum TraceDecoder {
    /// Decodes `bytes`.
    public static func decode(_ bytes: [UInt8]) throws(TraceFileError) -> Trace {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(TraceFileError) -> Trace in try decode(raw) }
        }
        return try result.get()
    }

    static func decode(_ raw: UnsafeRawBufferPointer) throws(TraceFileError) -> Trace {
        var reader = ByteReader(raw)
        for expected in TraceFormat.magic {
            let byte = try reader.byte("the trace header \"LPTRACE\"")
            guard byte == expected else { throw reader.failure("the trace header \"LPTRACE\"", at: reader.offset - 1) }
        }
        let version = try reader.uint16("the format version")
        guard version >= 1, version <= TraceFormat.version else {
            throw TraceFileError.unsupportedVersion(path: nil, version: version)
        }
        _ = try reader.uint16("the reserved header field")

        var trace = Trace(clockSource: .monotonic)
        trace.formatVersion = version
        var sawProcess = false
        var sawStrings = false
        while true {
            let sectionStart = reader.offset
            let tagByte = try reader.byte("a section tag (the file ends without its 'end' section: truncated?)")
            let length = Int(try reader.uint32("the length of a section"))
            let tag = TraceFormat.Tag(rawValue: tagByte)
            let name = tag?.name ?? "section \(tagByte)"
            guard reader.remaining >= length + 4 else {
                throw reader.failure(
                    "\(length + 4) bytes of section '\(name)' (begun at byte \(sectionStart)), found \(max(0, reader.remaining))"
                )
            }
            let payload = UnsafeRawBufferPointer(rebasing: raw[reader.offset..<reader.offset + length])
            let payloadOffset = reader.offset
            reader.skip(length)
            let stored = try reader.uint32("a section checksum")
            let framed = UnsafeRawBufferPointer(rebasing: raw[sectionStart..<payloadOffset + length])
            let checksum = version >= 2 ? CRC32C.checksum(framed) : CRC32.checksum(framed)
            guard checksum == stored else {
                throw TraceFileError.invalid(
                    path: nil, offset: sectionStart,
                    expected: "section '\(name)' to match its checksum (the file is corrupt)")
            }
            var section = ByteReader(payload, base: payloadOffset)
            switch tag {
            case .process:
                try decodeProcess(&section, into: &trace)
                sawProcess = true
            case .strings:
                let count = try section.count("strings", minimumBytes: 1)
                trace.strings.reserveCapacity(count)
                for _ in 0..<count { trace.strings.append(try section.string("a string")) }
                sawStrings = true
            case .metadata:
                let count = try section.count("metadata entries", minimumBytes: 2)
                for _ in 0..<count {
                    let key = try section.string("a metadata key")
                    trace.metadata[key] = try section.string("a metadata value")
                }
            case .filePaths:
                guard sawStrings else { throw section.failure("the 'strings' section before the 'filePaths' section") }
                let count = try section.count("file paths", minimumBytes: 2)
                for _ in 0..<count {
                    let start = section.offset
                    let fileID = try section.varint32("a file id")
                    let pathID = try section.varint32("a file path id")
                    guard Int(fileID) < trace.strings.count, Int(pathID) < trace.strings.count else {
                        throw section.failure(
                            "string ids below \(trace.strings.count) (found \(fileID) and \(pathID))", at: start)
                    }
                    trace.filePaths[fileID] = pathID
                }
            case .thread:
                guard sawStrings else { throw section.failure("the 'strings' section before any 'thread' section") }
                trace.threads.append(try decodeThread(&section, strings: trace.strings.count))
            case .threadTicks:
                guard sawStrings, sawProcess else {
                    throw section.failure("the 'process' and 'strings' sections before any 'threadTicks' section")
                }
                trace.threads.append(try decodeTickThread(&section, trace: trace))
            case .samples:
                trace.samples = try decodeSamples(&section)
            case .spanSchedule:
                try decodeSpanSchedule(&section, into: &trace)
            case .sampleDetails:
                try decodeSampleDetails(&section, into: &trace)
            case .spanEstimates:
                try decodeSpanEstimates(&section, into: &trace)
            case .end:
                guard sawProcess else { throw section.failure("a 'process' section before 'end'") }
                let events = try section.varint("the event count")
                let threads = try section.varint("the thread count")
                guard events == UInt64(trace.eventCount), threads == UInt64(trace.threads.count) else {
                    throw section.failure(
                        "\(events) events in \(threads) threads, as the 'end' section says (found \(trace.eventCount) in \(trace.threads.count))",
                        at: 0)
                }
                return trace
            case nil:
                continue  // A section from a newer writer: skipped.
            }
        }
    }

    private static func decodeProcess(_ reader: inout ByteReader, into trace: inout Trace) throws(TraceFileError) {
        let clockStart = reader.offset
        let clock = try reader.varint("the clock source")
        guard let source = TraceClockSource(rawValue: UInt8(truncatingIfNeeded: clock)), clock < 256 else {
            throw reader.failure("a clock source of 0, 1 or 2 (found \(clock))", at: clockStart)
        }
        trace.clockSource = source
        trace.processID = Int32(bitPattern: try reader.varint32("the process id"))
        trace.executablePath = try reader.string("the executable path")
        trace.runtimeInitNanoseconds = try reader.varint("the runtimeInit time")
        trace.flushNanoseconds = try reader.varint("the flush time")
        let spawnSource = try reader.byte("the spawn time source")
        let spawnNs = try reader.varint("the spawn time")
        if spawnSource != 0 {
            guard let source = SpawnTime.Source(rawValue: spawnSource) else {
                throw reader.failure("a spawn time source of 0, 1 or 2 (found \(spawnSource))", at: reader.offset - 1)
            }
            trace.spawn = SpawnTime(nanoseconds: spawnNs, source: source)
        }
        let pairs = try reader.count("calibration pairs", minimumBytes: 2)
        for _ in 0..<pairs {
            trace.calibration.append(
                CalibrationPair(
                    ticks: try reader.varint("calibration ticks"),
                    nanoseconds: try reader.varint("calibration nanoseconds")))
        }
    }

    private static func decodeThread(_ reader: inout ByteReader, strings: Int) throws(TraceFileError) -> TraceThread {
        let index = try reader.varint32("the thread index")
        let tid = try reader.varint("the OS thread id")
        let flags = try reader.byte("the thread flags")
        let name = flags & 2 != 0 ? try reader.string("the thread name") : nil
        var thread = TraceThread(index: index, osThreadID: tid, name: name, isMain: flags & 1 != 0)
        thread.dropped = try reader.varint("the dropped count")
        let count = try reader.count("events", minimumBytes: 7)
        thread.events.reserveCapacity(count)
        var begin: UInt64 = 0
        for _ in 0..<count {
            let eventStart = reader.offset
            let kindByte = try reader.byte("an event kind")
            guard let kind = TraceEvent.Kind(rawValue: kindByte & 0x0F) else {
                throw reader.failure("an event kind of 1, 2 or 3 (found \(kindByte & 0x0F))", at: eventStart)
            }
            let category = try reader.byte("an event category")
            let nameStart = reader.offset
            let nameID = try reader.varint32("an event name id")
            let fileID = try reader.varint32("an event file id")
            guard Int(nameID) < strings, Int(fileID) < strings else {
                throw reader.failure("string ids below \(strings) (found \(nameID) and \(fileID))", at: nameStart)
            }
            let line = try reader.varint32("an event line")
            begin = begin &+ UInt64(bitPattern: try reader.signedVarint("an event begin time"))
            let duration = try reader.varint("an event duration")
            thread.events.append(
                TraceEvent(
                    kind: kind, category: category, isOpen: kindByte & 0x10 != 0, nameID: nameID, fileID: fileID,
                    line: line, beginNanoseconds: begin, endNanoseconds: begin &+ duration))
        }
        let usageCount = try reader.count("span usage entries", minimumBytes: 6)
        for _ in 0..<usageCount {
            let start = reader.offset
            let eventIndex = try reader.varint32("a span usage event index")
            guard Int(eventIndex) < count else {
                throw reader.failure("an event index below \(count) (found \(eventIndex))", at: start)
            }
            let usage = ResourceUsage(
                cpuNanoseconds: try reader.varint("span CPU time"),
                voluntaryContextSwitches: try reader.varint("voluntary context switches"),
                involuntaryContextSwitches: try reader.varint("involuntary context switches"),
                minorFaults: try reader.varint("minor faults"),
                majorFaults: try reader.varint("major faults"))
            thread.usage.append(SpanUsage(eventIndex: eventIndex, usage: usage))
        }
        return thread
    }

    private static func decodeSamples(_ reader: inout ByteReader) throws(TraceFileError) -> [ThreadSample] {
        let count = try reader.count("samples", minimumBytes: 5)
        var samples: [ThreadSample] = []
        samples.reserveCapacity(count)
        var time: UInt64 = 0
        for _ in 0..<count {
            time = time &+ UInt64(bitPattern: try reader.signedVarint("a sample time"))
            let tid = try reader.varint("a sample thread id")
            let state = try reader.byte("a sample state")
            let syscall = try reader.signedVarint("a sample system call")
            let waitStart = reader.offset
            let waitByte = try reader.byte("a sample wait kind")
            guard let wait = ThreadSample.Wait(rawValue: waitByte) else {
                throw reader.failure("a wait kind from 0 to 5 (found \(waitByte))", at: waitStart)
            }
            samples.append(
                ThreadSample(
                    nanoseconds: time, osThreadID: tid, state: state,
                    syscall: Int32(truncatingIfNeeded: syscall), wait: wait))
        }
        return samples
    }
}

extension TraceDecoder {
    /// Section `spanSchedule` (written after the threads): run-queue waits added to their spans' usage.
    fileprivate static func decodeSpanSchedule(_ reader: inout ByteReader, into trace: inout Trace)
        throws(TraceFileError)
    {
        let threads = try reader.count("threads with span run-queue waits", minimumBytes: 2)
        for _ in 0..<threads {
            let start = reader.offset
            let index = try reader.varint32("a thread index")
            guard let position = trace.threads.firstIndex(where: { $0.index == index }) else {
                throw reader.failure("the index of a thread decoded before (found \(index))", at: start)
            }
            let count = try reader.count("span run-queue waits", minimumBytes: 2)
            let byEvent = Dictionary(
                trace.threads[position].usage.enumerated().map { ($0.element.eventIndex, $0.offset) },
                uniquingKeysWith: { a, _ in a })
            for _ in 0..<count {
                let entryStart = reader.offset
                let eventIndex = try reader.varint32("a span usage event index")
                let wait = try reader.varint("a run-queue wait")
                guard let usage = byEvent[eventIndex] else {
                    throw reader.failure("the event index of an accounted span (found \(eventIndex))", at: entryStart)
                }
                trace.threads[position].usage[usage].usage.runQueueNanoseconds = wait
            }
        }
    }

    /// Section `spanEstimates` (written after the threads): accounted spans whose usage was attributed.
    fileprivate static func decodeSpanEstimates(_ reader: inout ByteReader, into trace: inout Trace)
        throws(TraceFileError)
    {
        let threads = try reader.count("threads with estimated span usage", minimumBytes: 2)
        for _ in 0..<threads {
            let start = reader.offset
            let index = try reader.varint32("a thread index")
            guard let position = trace.threads.firstIndex(where: { $0.index == index }) else {
                throw reader.failure("the index of a thread decoded before (found \(index))", at: start)
            }
            let count = try reader.count("estimated span usages", minimumBytes: 1)
            let byEvent = Dictionary(
                trace.threads[position].usage.enumerated().map { ($0.element.eventIndex, $0.offset) },
                uniquingKeysWith: { a, _ in a })
            var eventIndex: UInt32 = 0
            for _ in 0..<count {
                let entryStart = reader.offset
                let (sum, overflow) = eventIndex.addingReportingOverflow(
                    try reader.varint32("a span usage event index delta"))
                guard !overflow, let usage = byEvent[sum] else {
                    throw reader.failure("the event index of an accounted span", at: entryStart)
                }
                eventIndex = sum
                trace.threads[position].usage[usage].isEstimated = true
            }
        }
    }

    /// Section `sampleDetails` (written after the samples): exact wait kinds and wait targets.
    fileprivate static func decodeSampleDetails(_ reader: inout ByteReader, into trace: inout Trace)
        throws(TraceFileError)
    {
        let targetCount = try reader.count("wait targets", minimumBytes: 2)
        var targets: [WaitTarget] = []
        targets.reserveCapacity(targetCount)
        for _ in 0..<targetCount {
            let start = reader.offset
            let code = try reader.byte("a wait target kind")
            guard let kind = WaitTarget.Kind(code: code) else {
                throw reader.failure(
                    "a wait target kind below \(WaitTarget.Kind.allCases.count) (found \(code))", at: start)
            }
            targets.append(WaitTarget(kind: kind, name: try reader.string("a wait target name")))
        }
        let count = try reader.count("sample details", minimumBytes: 3)
        var index = 0
        for _ in 0..<count {
            let start = reader.offset
            index += Int(truncatingIfNeeded: try reader.varint32("a sample index step"))
            guard index < trace.samples.count else {
                throw reader.failure("a sample index below \(trace.samples.count) (found \(index))", at: start)
            }
            let waitStart = reader.offset
            let waitByte = try reader.byte("a sample wait kind")
            guard let wait = ThreadSample.Wait(rawValue: waitByte) else {
                throw reader.failure("a wait kind from 0 to 8 (found \(waitByte))", at: waitStart)
            }
            let targetStart = reader.offset
            let reference = Int(truncatingIfNeeded: try reader.varint32("a wait target reference"))
            guard reference <= targets.count else {
                throw reader.failure(
                    "a wait target reference up to \(targets.count) (found \(reference))", at: targetStart)
            }
            trace.samples[index].wait = wait
            trace.samples[index].target = reference == 0 ? nil : targets[reference - 1]
        }
    }
}

extension Trace {
    /// The largest trace file read, in bytes: 1 GiB, so that a file that is not a
    /// trace (or a trace that never ends) cannot take the reader's memory.
    public static let maximumFileBytes = 1 << 30

    /// Reads and decodes the trace file at `path`.
    ///
    /// Only a regular file of at most ``maximumFileBytes`` is read; a device,
    /// FIFO or directory is an error, never a read without end. With
    /// `followingLinks` false a symbolic link at `path` is an error too: that is
    /// how `launchprof` reads the trace a measured program left.
    ///
    /// - Throws: ``TraceFileError`` naming the file, and for a bad file the byte
    ///   offset and what was expected there.
    public static func read(from path: String, followingLinks: Bool = true) throws(TraceFileError) -> Trace {
        let bytes: [UInt8]
        do { bytes = try BoundedFile.read(path, limit: maximumFileBytes, followLinks: followingLinks) } catch {
            throw .cannotRead(path: path, reason: error.description)
        }
        do {
            return try TraceDecoder.decode(bytes)
        } catch {
            throw error.naming(path)
        }
    }

    /// Encodes and writes this trace to `path`.
    public func write(to path: String) throws(TraceFileError) {
        try Platform.writeFile(path, bytes: TraceEncoder.encode(self))
    }
}
