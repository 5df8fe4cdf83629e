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
    /// One file's events come in runs: its path is looked up once a run.
    private var lastPath: UnsafeRawPointer?
    /// And a call site's events too (a span in a loop): the last name and file interned
    /// by address, whose ids the next event with the same address takes without a probe.
    private var lastName: (address: UnsafeRawPointer?, id: UInt32)?
    private var lastFile: (address: UnsafeRawPointer?, id: UInt32)?

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
                let event = lp_event_load(chunk.baseAddress! + offset)  // whole: `end` read atomically
                let kindBits = event.kind & UInt8(LP_EVENT_KIND_MASK)
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
                    nameID = interner.intern(address: event.name, length: Int(event.name_length))
                    lastName = (event.name, nameID)
                }
                let fileID: UInt32
                if let last = lastFile, last.address == event.file {
                    fileID = last.id
                } else {
                    fileID = interner.intern(address: event.file, length: nil)
                    lastFile = (event.file, fileID)
                }
                if event.path != lastPath, let path = event.path {
                    lastPath = path
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
