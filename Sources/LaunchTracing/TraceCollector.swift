import _LaunchTracingShims

/// Turns the raw per-thread buffers into a ``Trace``: converts ticks to
/// nanoseconds, interns names by address, attaches usage and samples.
enum TraceCollector {
    static func collect() -> Trace {
        let source = TraceClockSource(tickSource: lp_tick_source_get())
        var endPair = CalibrationPair(ticks: 0, nanoseconds: 0)
        lp_calibration_pair(&endPair.ticks, &endPair.nanoseconds)
        let startPair = CalibrationPair(ticks: lp_start_pair_ticks(), nanoseconds: lp_start_pair_ns())
        let converter = TickConverter(source: source, start: startPair, end: endPair)
        let flushNs: UInt64
        switch source {
        case .cpuCounter: flushNs = endPair.nanoseconds
        case .monotonic: flushNs = MonotonicClock.nanoseconds
        case .manual: flushNs = lp_manual_get()
        }

        var conversion = EventConversion(converter: converter, flushNanoseconds: flushNs)
        var threads: [TraceThread] = []
        for entry in ThreadRegistry.shared.snapshot() {
            var chunks: [UnsafeBufferPointer<lp_event>] = []
            var chunk = lp_chunk_after(entry.buffer, nil)
            while let current = chunk {
                chunks.append(
                    UnsafeBufferPointer(start: lp_chunk_events(current), count: lp_chunk_count(entry.buffer, current)))
                chunk = lp_chunk_after(entry.buffer, current)
            }
            // Readings are copied after the events, so the readings of every boundary seen are
            // there (a thread may be recording: a reading is taken before its begin's event is published).
            let (events, usage) = conversion.thread(chunks) {
                ResourceAccounting.Readings(entry.buffer, converter: converter)
            }
            let name = threadName(entry)
            threads.append(
                TraceThread(
                    index: entry.index, osThreadID: entry.osThreadID,
                    name: name, isMain: entry.isMain, dropped: lp_buffer_dropped(entry.buffer), events: events,
                    usage: usage))
        }

        let attachments = TraceAttachments.snapshot()
        return Trace(
            clockSource: source,
            calibration: source == .cpuCounter ? [startPair, endPair] : [],
            processID: Platform.processID,
            executablePath: Platform.executablePath,
            spawn: spawnTime(),
            runtimeInitNanoseconds: lp_runtime_init_ns(),
            flushNanoseconds: flushNs,
            metadata: attachments.metadata,
            strings: conversion.interner.strings,
            filePaths: conversion.filePaths,
            threads: threads,
            samples: attachments.samples)
    }

    /// The trace file for everything recorded so far: what ``collect()`` gives, written in
    /// ticks with each thread's readings (``FlushEncoder``), converted and attributed by the
    /// reader. The flush's path: it costs a fraction of converting first. The file is
    /// `head`, then `sections` (the threads' sections, not copied into one array), then `tail`.
    static func encodeForFlush() -> (head: ByteWriter, sections: ByteWriter, tail: ByteWriter) {
        let source = TraceClockSource(tickSource: lp_tick_source_get())
        var endPair = CalibrationPair(ticks: 0, nanoseconds: 0)
        lp_calibration_pair(&endPair.ticks, &endPair.nanoseconds)
        let startPair = CalibrationPair(ticks: lp_start_pair_ticks(), nanoseconds: lp_start_pair_ns())
        let flushNs: UInt64
        switch source {
        case .cpuCounter: flushNs = endPair.nanoseconds
        case .monotonic: flushNs = MonotonicClock.nanoseconds
        case .manual: flushNs = lp_manual_get()
        }
        let entries = ThreadRegistry.shared.snapshot()
        // Room for every row at its longest, so the writer never grows (grown, it copies what
        // it wrote): its storage is not zeroed, so room never written is never touched. Events
        // published after this count are written too, into room grown for them.
        var slots = 0
        var readings = 0
        for entry in entries {
            slots += FlushEncoder.publishedEvents(entry.buffer)
            readings += lp_account_reading_count(entry.buffer)
        }
        var encoder = FlushEncoder(
            capacity: 4_096 + (slots + 1_024) * Int(LP_ENCODED_EVENT_MAX) + readings * Int(LP_ENCODED_READING_MAX))
        for entry in entries {
            encoder.thread(
                index: entry.index, osThreadID: entry.osThreadID, name: threadName(entry), isMain: entry.isMain,
                dropped: lp_buffer_dropped(entry.buffer), buffer: entry.buffer)
        }
        let attachments = TraceAttachments.snapshot()
        let trace = Trace(
            clockSource: source,
            calibration: source == .cpuCounter ? [startPair, endPair] : [],
            processID: Platform.processID,
            executablePath: Platform.executablePath,
            spawn: spawnTime(),
            runtimeInitNanoseconds: lp_runtime_init_ns(),
            flushNanoseconds: flushNs,
            metadata: attachments.metadata,
            strings: encoder.interner.strings,
            samples: attachments.samples)  // (the file paths are the encoder's)
        let flushed = TraceEncoder.FlushedThreads(
            isFlush: true, filePaths: encoder.filePaths, eventCount: encoder.eventCount,
            threadCount: encoder.threadCount)
        let (head, tail) = TraceEncoder.encodePieces(trace, flushed: flushed)
        return (head, encoder.sections, tail)
    }

    /// The thread's name now, or the one it had when it exited: a thread that
    /// ended may have had its id reused by another, named otherwise, so the exit
    /// flag is looked at once, after the name was read by id (still running then,
    /// it was running when its name was read; exited, it saved its name first).
    static func threadName(_ entry: ThreadRegistry.Entry) -> String? {
        let running = Platform.threadName(tid: entry.osThreadID)
        guard lp_buffer_has_exited(entry.buffer) != 0 else { return running }
        return lp_buffer_exit_name(entry.buffer).map { String(cString: $0) }
    }

    /// `LAUNCHPROF_SPAWN_NS` from the parent when present; otherwise the OS's record.
    static func spawnTime() -> SpawnTime? {
        if let text = ProcessEnvironment.value(LaunchContract.Variable.spawnNanoseconds), let ns = UInt64(text) {
            return SpawnTime(nanoseconds: ns, source: .parent)
        }
        return Platform.processStartMonotonicNanoseconds().map { SpawnTime(nanoseconds: $0, source: .operatingSystem) }
    }
}

/// Interns static strings by address first (one probe per event), then by
/// content, so two literals with the same text share one id.
///
/// Both tables are open-addressed arrays, not dictionaries: the first dictionary of a
/// key type a process makes looks the key's `Hashable` conformance up through every
/// conformance record of every loaded image (about 340,000 instructions in a binary
/// that links Foundation), which the flush at exit would pay.
struct StringInterner {
    private(set) var strings: [String] = []
    /// Per slot, the id + 1 of a string in `strings`, or 0 (free); indexed by the string's hash.
    private var byContent: [UInt32]
    private var keys: [UInt]
    private var values: [UInt32]
    private var occupied = 0

    init() {
        keys = Array(repeating: 0, count: 64)  // (grown as it fills: a launch names a few dozen sites)
        values = Array(repeating: 0, count: 64)
        byContent = Array(repeating: 0, count: 64)
    }

    mutating func intern(_ string: String) -> UInt32 {
        let mask = byContent.count - 1
        var slot = string.hashValue & mask
        while byContent[slot] != 0 {
            let id = byContent[slot] - 1
            if strings[Int(id)] == string { return id }
            slot = (slot + 1) & mask
        }
        let id = UInt32(strings.count)
        strings.append(string)
        byContent[slot] = id + 1
        if strings.count * 2 > byContent.count { growContent() }
        return id
    }

    private mutating func growContent() {
        byContent = Array(repeating: 0, count: byContent.count * 2)
        let mask = byContent.count - 1
        for (index, string) in strings.enumerated() {
            var slot = string.hashValue & mask
            while byContent[slot] != 0 { slot = (slot + 1) & mask }
            byContent[slot] = UInt32(index) + 1
        }
    }

    /// Interns the static UTF-8 bytes at `address`; `length` nil means NUL-terminated.
    @inline(__always)
    mutating func intern(address: UnsafeRawPointer?, length: Int?) -> UInt32 {
        guard let address else { return intern("") }
        let key = UInt(bitPattern: address)
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
        while keys[slot] != 0 {
            if keys[slot] == key { return values[slot] }
            slot = (slot + 1) & mask
        }
        let bytes = address.assumingMemoryBound(to: UInt8.self)
        let count = length ?? Platform.stringLength(address)
        let id = intern(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        keys[slot] = key
        values[slot] = id
        occupied += 1
        if occupied * 2 > keys.count { grow() }
        return id
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: 0, count: oldKeys.count * 2)
        let mask = keys.count - 1
        for (key, value) in zip(oldKeys, oldValues) where key != 0 {
            var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
            while keys[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = key
            values[slot] = value
        }
    }
}

/// Data the harness attaches to the process's trace: metadata and samples.
enum TraceAttachments {
    private static let lock = Lock()
    nonisolated(unsafe) private static var metadata: [String: String] = [:]
    nonisolated(unsafe) private static var samples: [ThreadSample] = []

    /// Metadata made when the trace is written (see ``LaunchTracer/setMetadataWhenWritten(_:)``).
    nonisolated(unsafe) private static var whenWritten: (@Sendable () -> [String: String])?

    static func setMetadata(_ value: String?, forKey key: String) {
        lock.withLock { metadata[key] = value }
    }

    static func setMetadataWhenWritten(_ values: @escaping @Sendable () -> [String: String]) {
        lock.withLock { whenWritten = values }
    }

    static func append(_ newSamples: [ThreadSample]) {
        lock.withLock { samples.append(contentsOf: newSamples) }
    }

    static func snapshot() -> (metadata: [String: String], samples: [ThreadSample]) {
        let taken: (set: [String: String], made: (@Sendable () -> [String: String])?, samples: [ThreadSample]) =
            lock.withLock { (metadata, whenWritten, samples) }
        guard let made = taken.made else { return (taken.set, taken.samples) }
        return (made().merging(taken.set) { _, setSince in setSince }, taken.samples)
    }

    static func reset() {
        lock.withLock {
            metadata = [:]
            whenWritten = nil
            samples = []
        }
    }
}
