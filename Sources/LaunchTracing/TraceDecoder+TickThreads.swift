import _LaunchTracingShims

extension TraceDecoder {
    /// Section `threadTicks` (format version 2, see ``FlushEncoder``): a thread's events in
    /// ticks, converted with the trace's calibration pairs, and its readings, from which its
    /// accounted spans' usage is attributed here, as ``LaunchTracer/snapshot()`` does.
    static func decodeTickThread(_ reader: inout ByteReader, trace: Trace) throws(TraceFileError) -> TraceThread {
        let converter = try tickConverter(trace, reader: reader)
        let strings = trace.strings.count
        let index = try reader.varint32("the thread index")
        let tid = try reader.varint("the OS thread id")
        let flags = try reader.byte("the thread flags")
        let name = flags & 2 != 0 ? try reader.string("the thread name") : nil
        var thread = TraceThread(index: index, osThreadID: tid, name: name, isMain: flags & 1 != 0)
        thread.dropped = try reader.varint("the dropped count")
        thread.events.reserveCapacity(reader.remaining / 7)
        var accounted: [ResourceAccounting.AccountedSpan] = []
        var beginTicks: UInt64 = 0
        /// The call site of the previous event: what an event flagged 0x40 repeats.
        var site: (category: UInt8, nameID: UInt32, fileID: UInt32, line: UInt32)?
        while true {
            let eventStart = reader.offset
            let kindByte = try reader.byte("an event kind, or 0 after the last event")
            if kindByte == 0 { break }
            guard let kind = TraceEvent.Kind(rawValue: kindByte & 0x0F), kindByte & 0x80 == 0 else {
                throw reader.failure("an event kind of 1, 2 or 3 (found \(kindByte))", at: eventStart)
            }
            let isOpen = kindByte & 0x10 != 0
            if kindByte & 0x40 == 0 {
                let category = try reader.byte("an event category")
                let nameStart = reader.offset
                let nameID = try reader.varint32("an event name id")
                let fileID = try reader.varint32("an event file id")
                guard Int(nameID) < strings, Int(fileID) < strings else {
                    throw reader.failure("string ids below \(strings) (found \(nameID) and \(fileID))", at: nameStart)
                }
                site = (category, nameID, fileID, try reader.varint32("an event line"))
            } else if site == nil {
                throw reader.failure("an event that names its call site before one that repeats it", at: eventStart)
            }
            let (category, nameID, fileID, line) = site!
            beginTicks = beginTicks &+ UInt64(bitPattern: try reader.signedVarint("an event begin tick"))
            let endTicks =
                isOpen ? 0 : beginTicks &+ UInt64(bitPattern: try reader.signedVarint("an event end tick"))
            let begin = converter.nanoseconds(beginTicks)
            let converted = isOpen ? trace.flushNanoseconds : converter.nanoseconds(endTicks)
            if kindByte & 0x20 != 0, !isOpen {
                accounted.append(
                    .init(
                        index: UInt32(thread.events.count), begin: beginTicks, end: endTicks,
                        beginNanoseconds: begin, endNanoseconds: converted))
            }
            thread.events.append(
                TraceEvent(
                    kind: kind, category: category, isOpen: isOpen, nameID: nameID, fileID: fileID, line: line,
                    beginNanoseconds: begin, endNanoseconds: max(begin, converted)))
        }
        let count = try reader.count("readings", minimumBytes: 8)
        var readings: [lp_reading] = []
        readings.reserveCapacity(count)
        var previous = lp_reading()
        for _ in 0..<count {
            func next(_ value: UInt64, _ what: String) throws(TraceFileError) -> UInt64 {
                value &+ UInt64(bitPattern: try reader.signedVarint(what))
            }
            previous = lp_reading(
                tick: try next(previous.tick, "a reading's tick"),
                wall_ns: try next(previous.wall_ns, "a reading's wall time"),
                cpu_ns: try next(previous.cpu_ns, "a reading's CPU time"),
                run_queue_ns: try next(previous.run_queue_ns, "a reading's run-queue wait"),
                voluntary_switches: try next(previous.voluntary_switches, "a reading's voluntary switches"),
                involuntary_switches: try next(previous.involuntary_switches, "a reading's involuntary switches"),
                minor_faults: try next(previous.minor_faults, "a reading's minor faults"),
                major_faults: try next(previous.major_faults, "a reading's major faults"))
            readings.append(previous)
        }
        if !readings.isEmpty {
            thread.usage = ResourceAccounting.Readings(readings, converter: converter).usage(of: accounted)
        }
        return thread
    }

    /// The conversion a flush's ticks take: the CPU counter's by the trace's two calibration
    /// pairs; nanoseconds already otherwise.
    private static func tickConverter(_ trace: Trace, reader: ByteReader) throws(TraceFileError) -> TickConverter {
        guard trace.clockSource == .cpuCounter else {
            let zero = CalibrationPair(ticks: 0, nanoseconds: 0)
            return TickConverter(source: trace.clockSource, start: zero, end: zero)
        }
        guard trace.calibration.count >= 2 else {
            throw reader.failure("two calibration pairs in the 'process' section of a CPU-counter trace", at: 0)
        }
        return TickConverter(source: .cpuCounter, start: trace.calibration[0], end: trace.calibration[1])
    }
}
