import _LaunchTracingShims

/// Turns threads' raw events into ``TraceEvent``s on the trace's time base, interning
/// names and files across threads, and attributes usage to their accounted spans.
///
/// The flush at exit runs this once per event: its cost is the tracer's at exit.
struct EventConversion {
    let converter: TickConverter
    /// Where a span still open at the flush ends.
    let flushNanoseconds: UInt64
    private(set) var interner = StringInterner()
    /// `#fileID` string id → `#filePath` string id.
    private(set) var filePaths: [UInt32: UInt32] = [:]
    /// Paths noted (`LP_NOTE_FILE_PATH`) for files whose next event has not come yet: the
    /// path is interned after that event's name and file, as it was when events carried it.
    private var notedPaths: [(file: UnsafeRawPointer, path: UnsafeRawPointer)] = []
    /// A call site's events come in runs (a span in a loop): the last name and file interned
    /// by address, whose ids the next event with the same address takes without a probe.
    private var lastName: (address: UnsafeRawPointer?, id: UInt32)?
    private var lastFile: (address: UnsafeRawPointer?, id: UInt32)?

    /// The end of a span whose end is not in its event (`lp_event_view.long_end`): the
    /// process's long-end table; a test's own.
    var longEnd: (UnsafePointer<lp_event>) -> UInt64 = { lp_long_end($0) }

    init(converter: TickConverter, flushNanoseconds: UInt64) {
        self.converter = converter
        self.flushNanoseconds = flushNanoseconds
    }

    /// One thread's events, oldest first, from its `chunks` of published events; then the
    /// usage of its accounted spans from the `readings` it took (read after the events).
    mutating func thread(
        _ chunks: [UnsafeBufferPointer<lp_event>], readings: () -> ResourceAccounting.Readings
    ) -> (events: [TraceEvent], usage: [SpanUsage]) {
        var events: [TraceEvent] = []
        var accounted: [ResourceAccounting.AccountedSpan] = []
        let count = chunks.reduce(0) { $0 + $1.count }
        events.reserveCapacity(count)
        accounted.reserveCapacity(count)
        for chunk in chunks {
            for offset in 0..<chunk.count {
                var event = lp_event_load(chunk.baseAddress! + offset)  // whole: the end read atomically
                if event.long_end != 0 { event.end = longEnd(chunk.baseAddress! + offset) }
                let kindBits = event.kind & UInt8(LP_EVENT_KIND_MASK)
                guard kindBits != UInt8(LP_EVENT_NOTE) else {
                    if event.category == UInt8(LP_NOTE_FILE_PATH), let file = event.file, let path = event.name {
                        notedPaths.append((file, path))
                    }
                    continue
                }
                let kind = TraceEvent.Kind(rawValue: kindBits) ?? .instant
                let nameID: UInt32
                if kind == .mark {
                    nameID = interner.intern(Milestone(rawValue: event.category).id)
                } else if event.kind & UInt8(LP_EVENT_FLAG_SCALAR_NAME) != 0 {
                    let scalar = Unicode.Scalar(UInt32(UInt(bitPattern: event.name))) ?? "?"
                    nameID = interner.intern(String(Character(scalar)))
                } else if let last = lastName, last.address == event.name {
                    nameID = last.id
                } else {
                    nameID = interner.intern(address: event.name, length: nil)
                    lastName = (event.name, nameID)
                }
                let fileID: UInt32
                if let last = lastFile, last.address == event.file {
                    fileID = last.id
                } else {
                    fileID = interner.intern(address: event.file, length: nil)
                    lastFile = (event.file, fileID)
                }
                if !notedPaths.isEmpty, let index = notedPaths.firstIndex(where: { $0.file == event.file }) {
                    let path = notedPaths.remove(at: index).path
                    if filePaths[fileID] == nil { filePaths[fileID] = interner.intern(address: path, length: nil) }
                }
                let begin = converter.nanoseconds(event.begin)
                let isOpen = kind == .span && event.end == 0
                let converted = isOpen ? flushNanoseconds : converter.nanoseconds(event.end)
                let end = max(begin, converted)
                if event.kind & UInt8(LP_EVENT_FLAG_USAGE) != 0, !isOpen {
                    accounted.append(
                        .init(
                            index: UInt32(events.count), begin: event.begin, end: event.end,
                            beginNanoseconds: begin, endNanoseconds: converted))
                }
                events.append(
                    TraceEvent(
                        kind: kind, category: event.category, isOpen: isOpen, nameID: nameID, fileID: fileID,
                        line: event.line, beginNanoseconds: begin, endNanoseconds: end))
            }
        }
        let readings = readings()
        let usage = readings.isEmpty ? [] : readings.usage(of: accounted)
        return (events, usage)
    }
}
