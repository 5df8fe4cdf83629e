import Foundation
import Testing
import _LaunchProfTestSupport
import _LaunchTracingShims

@testable import LaunchTracing

/// The flush at exit writes the same bytes for the same recorded events and readings,
/// however it gets there: a fixed recording (synthetic events and readings, no clock
/// or system call involved) is converted and encoded and compared with the bytes the
/// code before the flush was made cheaper wrote (a golden file), and random recordings
/// are converted and compared with a straightforward reference kept here: the search
/// per boundary and the floating-point tick conversion that code used.
@Suite("Flush identity")
struct FlushIdentityTests {
    @Test func aFixedRecordingFlushesToTheBytesTheEarlierCodeWrote() {
        let recording = SyntheticRecording(seed: 2026, threads: 3, eventsPerThread: 400, source: .cpuCounter)
        let bytes = TraceEncoder.encode(recording.trace())
        assertGolden(bytes, path: Self.goldens + "fixed-recording.lptrace")
        // The reference conversion gives the same trace, so the golden file is what it writes
        // (the earlier code's, with boundaries less than 3 µs after their reading exact).
        #expect(recording.trace() == recording.referenceTrace())
    }

    /// The same recording, as the code before 32-byte events wrote it (version 1, events as
    /// they were stored then), reads back as the trace converted from today's events.
    @Test func theFixedRecordingAsVersion1WroteItReadsAsToday() throws {
        let recording = SyntheticRecording(seed: 2026, threads: 3, eventsPerThread: 400, source: .cpuCounter)
        let bytes = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: Self.goldens + "fixed-recording-version1.lptrace")))
        var old = try TraceDecoder.decode(bytes)
        #expect(old.formatVersion == 1)
        old.formatVersion = TraceFormat.version
        #expect(old == recording.trace())
    }

    @Test(arguments: [TraceClockSource.cpuCounter, .monotonic, .manual], 1...12)
    func randomRecordingsConvertAsTheReferenceDoes(_ source: TraceClockSource, _ seed: UInt64) {
        let recording = SyntheticRecording(seed: seed, threads: 2, eventsPerThread: 600, source: source)
        let trace = recording.trace()
        let reference = recording.referenceTrace()
        #expect(trace.strings == reference.strings)
        #expect(trace.filePaths == reference.filePaths)
        for (thread, expected) in zip(trace.threads, reference.threads) {
            #expect(thread.events == expected.events)
            #expect(thread.usage == expected.usage)
        }
        #expect(trace.threads.contains { $0.usage.contains(where: \.isEstimated) })
        #expect(TraceEncoder.encode(trace) == TraceEncoder.encode(reference))
    }

    /// Readings out of tick order (no thread takes them so, but a flush must not depend on it)
    /// and spans that end before every reading (a clock set back) convert as the reference does.
    @Test(arguments: 1...6)
    func readingsOutOfOrderAndEndsBeforeEveryReadingConvertAsTheReferenceDoes(_ seed: UInt64) {
        var recording = SyntheticRecording(seed: seed, threads: 2, eventsPerThread: 300, source: .cpuCounter)
        var random = SeededGenerator(seed: seed)
        recording.threads[0].readings.shuffle(using: &random)
        let earliest = recording.threads[1].readings.map(\.tick).min() ?? 0
        for index in recording.threads[1].events.indices
        where index % 7 == 3 && recording.threads[1].events[index].duration != 0 {
            recording.end(thread: 1, index: index, at: earliest - 1 - UInt64(index))
        }
        let trace = recording.trace()
        let reference = recording.referenceTrace()
        #expect(trace.threads.map(\.usage) == reference.threads.map(\.usage))
        #expect(trace.threads.map(\.events) == reference.threads.map(\.events))
    }

    /// A trace built by hand may list its usage in any order: the estimates section lists
    /// event indices in order all the same, as it always did.
    @Test func estimatesOfUsageListedOutOfOrderSurviveTheTraceFile() throws {
        var trace = SyntheticRecording(seed: 5, threads: 1, eventsPerThread: 300, source: .manual).trace()
        var random = SeededGenerator(seed: 5)
        trace.threads[0].usage.shuffle(using: &random)
        let decoded = try TraceDecoder.decode(TraceEncoder.encode(trace))
        let estimated = Set(trace.threads[0].usage.filter(\.isEstimated).map(\.eventIndex))
        #expect(!estimated.isEmpty)
        #expect(Set(decoded.threads[0].usage.filter(\.isEstimated).map(\.eventIndex)) == estimated)
    }

    @Test(arguments: 1...8)
    func tickConversionRoundsAsFloatingPointDid(_ seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        // Calibrations as machines give them: counters from 0.2 to 5 ticks a nanosecond, read anywhere in their range.
        let start = CalibrationPair(
            ticks: random.next() >> UInt64.random(in: 1...40, using: &random),
            nanoseconds: random.next() >> UInt64.random(in: 8...40, using: &random))
        let tickSpan = UInt64.random(in: (1 << 20)...(1 << 40), using: &random)
        let nanoSpan = UInt64(Double(tickSpan) * Double.random(in: 0.2...5, using: &random))
        let end = CalibrationPair(ticks: start.ticks &+ tickSpan, nanoseconds: start.nanoseconds &+ nanoSpan)
        let converter = TickConverter(source: .cpuCounter, start: start, end: end)
        for _ in 0..<20_000 {
            let offset = Int64.random(in: -(1 << 36)...(1 << 42), using: &random)
            let ticks = UInt64(bitPattern: Int64(bitPattern: start.ticks) &+ offset)
            let expected = Reference.nanoseconds(ticks, start: start, end: end)
            #expect(converter.nanoseconds(ticks) == expected, "ticks \(ticks), start \(start), end \(end)")
        }
    }

    @Test func checksumIsTheBitwiseCRC32() {
        var random = SeededGenerator(seed: 7)
        let bytes = (0..<4_200).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<0])) } == 0)
        #expect(Array("123456789".utf8).withUnsafeBytes { CRC32.checksum($0) } == 0xCBF4_3926)
        for (start, count) in [(0, 1), (1, 7), (3, 8), (5, 15), (0, 16), (7, 17), (2, 64), (1, 255), (9, 4_000)] {
            let slice = bytes[start..<(start + count)]
            let checksum = bytes.withUnsafeBytes {
                CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)]))
            }
            #expect(checksum == Reference.crc32(slice), "\(count) bytes at \(start)")
        }
    }

    /// Version 2's checksum: CRC-32C, with the CPU's instruction and without, against bit by bit.
    @Test func checksumOfVersion2IsTheBitwiseCRC32C() {
        var random = SeededGenerator(seed: 11)
        let bytes = (0..<4_200).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(Array("123456789".utf8).withUnsafeBytes { CRC32C.checksum($0) } == 0xE306_9283)
        for (start, count) in [(0, 1), (1, 7), (3, 8), (5, 15), (0, 16), (7, 17), (2, 64), (1, 255), (9, 4_000)] {
            let slice = bytes[start..<(start + count)]
            let expected = Reference.crc32(slice, polynomial: 0x82F6_3B78)
            bytes.withUnsafeBytes {
                let part = UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)])
                #expect(CRC32C.checksum(part) == expected, "\(count) bytes at \(start)")
                #expect(
                    lp_crc32c_software(part.baseAddress!.assumingMemoryBound(to: UInt8.self), count) == expected,
                    "\(count) bytes at \(start)")
            }
        }
    }

    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Goldens/"
}

/// Events and readings as threads record them, made up from a seed: spans nested and
/// in sequence, instants, marks, open spans, accounted spans whose boundaries are read
/// or fall between readings (with the thread on the CPU or off it), boundaries before
/// the first reading and after the last.
struct SyntheticRecording {
    static let names: [StaticString] = ["Decode", "Layout", "Row", "Chunk", "Open database", "Fetch"]
    static let files: [StaticString] = ["App/Launch.swift", "App/Store.swift", "Kit/Cache.swift"]
    static let paths: [StaticString] = ["/src/App/Launch.swift", "/src/App/Store.swift", "/src/Kit/Cache.swift"]

    let source: TraceClockSource
    let start: CalibrationPair
    let end: CalibrationPair
    let flushNanoseconds: UInt64
    var threads: [(events: [lp_event], readings: [lp_reading])] = []

    init(seed: UInt64, threads count: Int, eventsPerThread: Int, source: TraceClockSource) {
        var random = SeededGenerator(seed: seed)
        self.source = source
        let ticksPerNanosecond = source == .cpuCounter ? 2.0 + Double.random(in: 0..<1.5, using: &random) : 1
        start = CalibrationPair(
            ticks: 7_000_000_000 + UInt64.random(in: 0..<1_000, using: &random), nanoseconds: 1_000_000_000)
        let last = UInt64(Double(eventsPerThread) * 400_000 * ticksPerNanosecond)
        end = CalibrationPair(
            ticks: start.ticks + last, nanoseconds: start.nanoseconds + UInt64(Double(last) / ticksPerNanosecond))
        flushNanoseconds = end.nanoseconds + 5_000
        for thread in 0..<count {
            threads.append(
                Self.thread(thread, events: eventsPerThread, ticksPerNanosecond: ticksPerNanosecond, using: &random))
        }
        longEnds = Array(repeating: [:], count: count)
    }

    private static func thread(
        _ index: Int, events count: Int, ticksPerNanosecond: Double, using random: inout SeededGenerator
    ) -> (events: [lp_event], readings: [lp_reading]) {
        var events: [lp_event] = []
        var readings: [lp_reading] = []
        var open: [Int] = []
        // the first events come before the start pair
        var tick: UInt64 = 7_000_000_000 - 50_000 + UInt64(index) * 1_000
        var wall: UInt64 = 2_000_000_000
        var cpu: UInt64 = 5_000_000
        var queue: UInt64 = 100_000
        var counters = (voluntary: UInt64(3), involuntary: UInt64(1), minor: UInt64(400), major: UInt64(0))
        let knowsQueue = index != 1
        let accountedThread = index != 2
        var readFrom = Int.random(in: 2...6, using: &random)  // the first accounted boundaries come before any reading
        var noted = Set<Int>()
        func boundary(_ tick: UInt64, accounted: Bool, random: inout SeededGenerator) {
            guard accounted else { return }
            readFrom -= 1
            guard readFrom < 0, Int.random(in: 0..<10, using: &random) < 4 else { return }
            readings.append(
                lp_reading(
                    tick: tick, wall_ns: wall, cpu_ns: cpu, run_queue_ns: knowsQueue ? queue : .max,
                    voluntary_switches: counters.voluntary, involuntary_switches: counters.involuntary,
                    minor_faults: counters.minor, major_faults: counters.major))
        }
        for _ in 0..<count {
            // Time passes: on the CPU, or partly off it (blocked, or queued).
            let elapsed = UInt64.random(in: 200...300_000, using: &random)
            tick += UInt64(Double(elapsed) * ticksPerNanosecond)
            wall += elapsed
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let off = UInt64.random(in: 0...elapsed, using: &random)
                cpu += elapsed - off
                counters.voluntary += 1
                counters.minor += UInt64.random(in: 0...3, using: &random)
            case 1:
                let queued = UInt64.random(in: 0...elapsed, using: &random)
                cpu += elapsed - queued
                queue += queued
                counters.involuntary += 1
            default:
                cpu += elapsed - UInt64.random(in: 0...min(elapsed, 2_000), using: &random)
            }
            let roll = Int.random(in: 0..<20, using: &random)
            let name = names[Int.random(in: 0..<names.count, using: &random)]
            let file = Int.random(in: 0..<files.count, using: &random)
            let line = UInt32.random(in: 1...400, using: &random)
            // A thread notes a file's path once, before its first event that has one.
            func noteIfFirst() {
                guard !noted.contains(file) else { return }
                noted.insert(file)
                events.append(
                    Self.event(
                        begin: 0, name: UnsafeRawPointer(paths[file].utf8Start),
                        file: UnsafeRawPointer(files[file].utf8Start), line: 0, kind: UInt8(LP_EVENT_NOTE),
                        category: UInt8(LP_NOTE_FILE_PATH)))
            }
            if roll < 9 || (open.isEmpty && roll < 15) {
                let accounted = accountedThread && roll != 0
                var event = Self.event(
                    begin: tick, name: UnsafeRawPointer(name.utf8Start), file: UnsafeRawPointer(files[file].utf8Start),
                    line: line, kind: UInt8(LP_EVENT_SPAN) | (accounted ? UInt8(LP_EVENT_FLAG_USAGE) : 0),
                    category: UInt8(roll % 7))
                if roll == 2 {  // a one-letter name, stored as its scalar
                    event.name = UnsafeRawPointer(bitPattern: UInt(0x41 + line % 26))
                    event.kind |= UInt8(LP_EVENT_FLAG_SCALAR_NAME)
                }
                if roll != 1 { noteIfFirst() }  // (a span without a path)
                boundary(tick, accounted: accounted, random: &random)
                open.append(events.count)
                events.append(event)
            } else if roll < 17, let last = open.popLast() {
                events[last].duration = UInt32(tick - events[last].begin)
                boundary(tick, accounted: events[last].kind & UInt8(LP_EVENT_FLAG_USAGE) != 0, random: &random)
            } else if roll < 19 {
                noteIfFirst()
                events.append(
                    Self.event(
                        begin: tick, name: UnsafeRawPointer(name.utf8Start),
                        file: UnsafeRawPointer(files[file].utf8Start), line: line, kind: UInt8(LP_EVENT_INSTANT),
                        category: 0))
            } else {
                events.append(
                    Self.event(
                        begin: tick, name: nil, file: UnsafeRawPointer(files[file].utf8Start), line: line,
                        kind: UInt8(LP_EVENT_MARK), category: UInt8(Milestone.firstFrame.rawValue)))
            }
        }
        return (events, readings)  // what is still open stays open
    }

    /// An event as `lp_record` writes it (open, when a span).
    static func event(
        begin: UInt64, name: UnsafeRawPointer?, file: UnsafeRawPointer?, line: UInt32, kind: UInt8, category: UInt8
    ) -> lp_event {
        lp_event(
            begin: begin, name: name, file: file, duration: 0, line: UInt16(truncatingIfNeeded: line),
            kind: kind | UInt8(truncatingIfNeeded: (line >> 16) << UInt32(LP_EVENT_LINE_HIGH_SHIFT)),
            category: category)
    }

    /// Ends the span at `index` of thread `thread` at `tick`, which may come before its begin
    /// (a clock set back): kept in the recording's own long-end table, as the tracer keeps one.
    mutating func end(thread: Int, index: Int, at tick: UInt64) {
        let begin = threads[thread].events[index].begin
        if tick > begin, tick - begin < UInt64(LP_DURATION_LONG) {
            threads[thread].events[index].duration = UInt32(tick - begin)
        } else {
            threads[thread].events[index].duration = LP_DURATION_LONG
            longEnds[thread][index] = tick
        }
    }

    /// Per thread, the ends of spans whose duration says `LP_DURATION_LONG`, by event index.
    var longEnds: [[Int: UInt64]] = []

    var converter: TickConverter { TickConverter(source: source, start: start, end: end) }

    /// The trace the flush builds from this recording.
    func trace() -> Trace {
        var conversion = EventConversion(converter: converter, flushNanoseconds: flushNanoseconds)
        var converted: [TraceThread] = []
        for (index, thread) in threads.enumerated() {
            // Two chunks, as a thread's events are held.
            let ends = longEnds.count > index ? longEnds[index] : [:]
            let (events, usage) = thread.events.withUnsafeBufferPointer { all in
                let base = all.baseAddress!
                conversion.longEnd = { ends[$0 - base] ?? 0 }
                let split = all.count / 3
                return conversion.thread([
                    UnsafeBufferPointer(rebasing: all[..<split]), UnsafeBufferPointer(rebasing: all[split...]),
                ]) {
                    ResourceAccounting.Readings(thread.readings, converter: converter)
                }
            }
            converted.append(
                TraceThread(
                    index: UInt32(index), osThreadID: 100 + UInt64(index), name: index == 0 ? "main" : nil,
                    isMain: index == 0, events: events, usage: usage))
        }
        return trace(converted, strings: conversion.interner.strings, filePaths: conversion.filePaths)
    }

    /// The trace the reference builds.
    func referenceTrace() -> Trace {
        var reference = Reference(start: start, end: end, source: source, flushNanoseconds: flushNanoseconds)
        var converted: [TraceThread] = []
        for (index, thread) in threads.enumerated() {
            let (events, usage) = reference.thread(
                thread.events, readings: thread.readings, longEnds: longEnds.count > index ? longEnds[index] : [:])
            converted.append(
                TraceThread(
                    index: UInt32(index), osThreadID: 100 + UInt64(index), name: index == 0 ? "main" : nil,
                    isMain: index == 0, events: events, usage: usage))
        }
        return trace(converted, strings: reference.strings, filePaths: reference.filePaths)
    }

    private func trace(_ threads: [TraceThread], strings: [String], filePaths: [UInt32: UInt32]) -> Trace {
        Trace(
            clockSource: source, calibration: source == .cpuCounter ? [start, end] : [], processID: 4242,
            executablePath: "/usr/local/bin/app", spawn: SpawnTime(nanoseconds: 999_000_000, source: .parent),
            runtimeInitNanoseconds: 999_500_000, flushNanoseconds: flushNanoseconds,
            metadata: ["launch.options": "{}", "variant": "fixed"], strings: strings, filePaths: filePaths,
            threads: threads,
            samples: [
                ThreadSample(
                    nanoseconds: 1_000_100_000, osThreadID: 100, state: UInt8(ascii: "R"), syscall: -1, wait: .none),
                ThreadSample(
                    nanoseconds: 1_000_200_000, osThreadID: 100, state: UInt8(ascii: "S"), syscall: 7, wait: .ipc,
                    target: WaitTarget(kind: .file, name: "ready.flag")),
            ])
    }
}

/// The flush's conversion as it was before it was made cheaper, kept as the reference
/// its results are compared with: a binary search of the readings per boundary, and
/// ticks converted in floating point.
struct Reference {
    let start: CalibrationPair
    let end: CalibrationPair
    let source: TraceClockSource
    let flushNanoseconds: UInt64
    var strings: [String] = []
    var filePaths: [UInt32: UInt32] = [:]
    private var byContent: [String: UInt32] = [:]
    private var byAddress: [UInt: UInt32] = [:]
    private var noted: [UnsafeRawPointer: UnsafeRawPointer] = [:]

    init(start: CalibrationPair, end: CalibrationPair, source: TraceClockSource, flushNanoseconds: UInt64) {
        self.start = start
        self.end = end
        self.source = source
        self.flushNanoseconds = flushNanoseconds
    }

    static func nanoseconds(_ ticks: UInt64, start: CalibrationPair, end: CalibrationPair) -> UInt64 {
        let tickSpan = Double(Int64(bitPattern: end.ticks &- start.ticks))
        let nanoSpan = Double(Int64(bitPattern: end.nanoseconds &- start.nanoseconds))
        let perTick = tickSpan > 0 ? nanoSpan / tickSpan : 1
        let converted = Double(start.nanoseconds) + Double(Int64(bitPattern: ticks &- start.ticks)) * perTick
        return converted <= 0 ? 0 : UInt64(converted.rounded())
    }

    func nanoseconds(_ ticks: UInt64) -> UInt64 {
        source == .cpuCounter ? Self.nanoseconds(ticks, start: start, end: end) : ticks
    }

    private mutating func intern(_ string: String) -> UInt32 {
        if let id = byContent[string] { return id }
        strings.append(string)
        byContent[string] = UInt32(strings.count - 1)
        return UInt32(strings.count - 1)
    }

    private mutating func intern(address: UnsafeRawPointer?, length: Int?) -> UInt32 {
        guard let address else { return intern("") }
        if let id = byAddress[UInt(bitPattern: address)] { return id }
        let bytes = address.assumingMemoryBound(to: UInt8.self)
        let id = intern(
            String(decoding: UnsafeBufferPointer(start: bytes, count: length ?? strlen(bytes)), as: UTF8.self))
        byAddress[UInt(bitPattern: address)] = id
        return id
    }

    mutating func thread(_ raw: [lp_event], readings: [lp_reading], longEnds: [Int: UInt64]) -> (
        events: [TraceEvent], usage: [SpanUsage]
    ) {
        var events: [TraceEvent] = []
        var usage: [SpanUsage] = []
        var accounted: [(index: UInt32, begin: UInt64, end: UInt64)] = []
        for (index, stored) in raw.enumerated() {
            // The 32-byte event unpacked field by field.
            let kindByte = stored.kind
            if kindByte & 0x03 == UInt8(LP_EVENT_NOTE) {
                if let file = stored.file, let path = stored.name { noted[file] = path }
                continue
            }
            let line = UInt32(stored.line) | UInt32((kindByte >> 2) & 0x0F) << 16
            let endTick: UInt64
            switch stored.duration {
            case 0: endTick = kindByte & 0x03 == UInt8(LP_EVENT_SPAN) ? 0 : stored.begin
            case LP_DURATION_LONG: endTick = longEnds[index] ?? 0
            default: endTick = stored.begin + UInt64(stored.duration)
            }
            let event = (
                begin: stored.begin, end: endTick, name: stored.name, file: stored.file, category: stored.category
            )
            let kind = TraceEvent.Kind(rawValue: kindByte & 0x03) ?? .instant
            let nameID: UInt32
            if kind == .mark {
                nameID = intern(Milestone(rawValue: event.category).id)
            } else if kindByte & UInt8(LP_EVENT_FLAG_SCALAR_NAME) != 0 {
                nameID = intern(String(Character(Unicode.Scalar(UInt32(UInt(bitPattern: event.name))) ?? "?")))
            } else {
                nameID = intern(address: event.name, length: nil)
            }
            let fileID = intern(address: event.file, length: nil)
            if let file = event.file, let path = noted.removeValue(forKey: file), filePaths[fileID] == nil {
                filePaths[fileID] = intern(address: path, length: nil)
            }
            let begin = nanoseconds(event.begin)
            let isOpen = kind == .span && event.end == 0
            let end = isOpen ? max(begin, flushNanoseconds) : max(begin, nanoseconds(event.end))
            if kindByte & UInt8(LP_EVENT_FLAG_USAGE) != 0, !isOpen {
                accounted.append((UInt32(events.count), event.begin, event.end))
            }
            events.append(
                TraceEvent(
                    kind: kind, category: event.category, isOpen: isOpen, nameID: nameID, fileID: fileID,
                    line: line, beginNanoseconds: begin, endNanoseconds: end))
        }
        guard !readings.isEmpty else { return (events, usage) }
        for span in accounted {
            guard let first = state(readings, at: span.begin), let last = state(readings, at: span.end) else {
                continue
            }
            usage.append(
                SpanUsage(
                    eventIndex: span.index, usage: last.usage.since(first.usage),
                    isEstimated: !(first.read && last.read)))
        }
        return (events, usage)
    }

    private func state(_ readings: [lp_reading], at tick: UInt64) -> (usage: ResourceUsage, read: Bool)? {
        var low = 0
        var high = readings.count
        while low < high {
            let middle = (low + high) / 2
            if readings[middle].tick <= tick { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let before = readings[low - 1]
        var usage = ResourceUsage(
            cpuNanoseconds: before.cpu_ns, voluntaryContextSwitches: before.voluntary_switches,
            involuntaryContextSwitches: before.involuntary_switches, minorFaults: before.minor_faults,
            majorFaults: before.major_faults,
            runQueueNanoseconds: before.run_queue_ns == .max ? nil : before.run_queue_ns)
        if before.tick == tick { return (usage, true) }
        let elapsed = nanoseconds(tick).subtractingClamped(nanoseconds(before.tick))
        // Less than 3 µs after the reading: no wait fits in between (as the tracer judges a reading).
        let ran = elapsed < UInt64(LP_OFF_CPU_GAP_NS)
        if low < readings.count {
            let after = readings[low]
            let exact =
                (after.wall_ns &- before.wall_ns).subtractingClamped(after.cpu_ns &- before.cpu_ns)
                < UInt64(LP_OFF_CPU_GAP_NS)
            let cpu = after.cpu_ns.subtractingClamped(before.cpu_ns)
            let queued =
                usage.runQueueNanoseconds != nil && after.run_queue_ns != .max
                ? after.run_queue_ns.subtractingClamped(before.run_queue_ns) : 0
            let busy = min(elapsed, cpu + queued)
            usage.cpuNanoseconds += min(busy, cpu)
            usage.runQueueNanoseconds = usage.runQueueNanoseconds.map { $0 + (busy - min(busy, cpu)) }
            return (usage, exact || ran)
        }
        usage.cpuNanoseconds += elapsed
        return (usage, ran)
    }

    /// CRC-32 (IEEE, reflected; or another reflected `polynomial`), a bit at a time.
    static func crc32(_ bytes: some Sequence<UInt8>, polynomial: UInt32 = 0xEDB8_8320) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ polynomial : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
