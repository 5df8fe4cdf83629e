import _LaunchTracingShims

/// The flush's encoder: each thread's events written straight from its chunks, in ticks,
/// with the resource readings the thread took, as they were taken (a `threadTicks` section,
/// format version 2). Nothing is converted to nanoseconds or attributed at the flush: the
/// reader does both (``TraceDecoder``), with the calibration pairs the file holds and the
/// code ``LaunchTracer/snapshot()`` uses, so a flushed trace reads back as the snapshot
/// taken at that moment would be. The flush at exit runs this once per event.
///
/// A `threadTicks` section: `index, osThreadID, flags (1 main, 2 named), [name], dropped`,
/// then the events, each `kind (| 0x10 open | 0x20 accounted | 0x40 same call site)`, then,
/// unless it has the previous event's call site, `category, name id, file id, line`, then
/// `begin` (zigzag ticks after the previous event's begin) and, unless open, `end` (zigzag
/// ticks after its begin), ended by a 0 byte; then `count` readings, each as
/// zigzag deltas from the one before (from zeros for the first): `tick, wall, cpu, run
/// queue` (unknown: all ones), `voluntary, involuntary, minor faults, major faults`.
struct FlushEncoder {
    private(set) var interner = StringInterner()
    /// `#fileID` string id and `#filePath` string id, a pair a file, one after the other (flat
    /// `UInt32`s, as the interner's: an array of a type the process has not made an array of
    /// yet costs tens of thousands of instructions of type metadata, which the flush at exit would pay).
    private(set) var filePaths: [UInt32] = []
    /// Thread sections written so far, framed, and what they hold.
    private(set) var sections: ByteWriter
    var eventCount: Int { state.events }
    private(set) var threadCount = 0
    /// The last name and file written and their ids, the previous begin: what the C loop
    /// (`lp_encode_events`) writes the events that share them with.
    private var state = lp_encode_state()
    /// Paths noted for files whose next event has not come yet (see ``EventConversion``): the
    /// file's and the path's addresses, one after the other.
    private var notedPaths: [UInt] = []
    /// The end of a span whose end is not in its event: the process's long-end table; a test's own.
    var longEnd: (UnsafePointer<lp_event>) -> UInt64 = { lp_long_end($0) }

    /// The most bytes an event takes: two bytes and five varints.
    static let eventMaximum = 2 + 5 * ByteWriter.Cursor.maximumVarint

    init(capacity: Int) {
        sections = ByteWriter(capacity: capacity)
    }

    /// The events `buffer`'s thread published, in its chunks: what a section of it holds at most.
    static func publishedEvents(_ buffer: UnsafeMutablePointer<lp_thread_buffer>) -> Int {
        var count = 0
        var chunk = lp_chunk_after(buffer, nil)
        while let current = chunk {
            count += lp_chunk_count(buffer, current)
            chunk = lp_chunk_after(buffer, current)
        }
        return count
    }

    /// Writes one thread's section: the events `buffer`'s thread published (its chunks, oldest
    /// first), then the readings it published.
    mutating func thread(
        index: UInt32, osThreadID: UInt64, name: String?, isMain: Bool, dropped: UInt64,
        buffer: UnsafeMutablePointer<lp_thread_buffer>
    ) {
        var writer = sections
        sections = ByteWriter()  // (moved out and back: one owner of the storage while writing)
        writer.section(.threadTicks) { section in
            section.varint(index)
            section.varint(osThreadID)
            section.byte((isMain ? 1 : 0) | (name != nil ? 2 : 0))
            if let name { section.string(name) }
            section.varint(dropped)
            // A thread's rows stand alone: its first one names its call site.
            state.previous_begin = 0
            state.name = nil
            state.file = nil
            state.site_word = 0
            var chunk = lp_chunk_after(buffer, nil)
            while let current = chunk {
                let base = UnsafePointer(lp_chunk_events(current)!)
                let count = lp_chunk_count(buffer, current)
                var slot = 0
                while slot < count {
                    // The run of events with the last name and file, in C; then the one it stopped at.
                    let end = min(count, slot + 1_024)
                    section.write(maximum: (end - slot) * Int(LP_ENCODED_EVENT_MAX)) { cursor in
                        var written = 0
                        slot = lp_encode_events(&self.state, base, slot, end, cursor.base + cursor.offset, &written)
                        cursor.offset += written
                    }
                    guard slot < end else { continue }
                    section.write(maximum: Self.eventMaximum) { cursor in self.event(base + slot, into: &cursor) }
                    slot += 1
                }
                chunk = lp_chunk_after(buffer, current)
            }
            section.byte(0)
            // Counted after the events were read, so every boundary seen has its reading (a thread
            // may be recording: a reading is taken before its begin's event is published).
            let readingCount = lp_account_reading_count(buffer)
            section.varint(readingCount)
            section.write(maximum: readingCount * Int(LP_ENCODED_READING_MAX)) { cursor in
                var written = 0
                let encoded = lp_account_encode_readings(buffer, readingCount, cursor.base + cursor.offset, &written)
                assert(encoded == readingCount, "a thread's published readings are never taken back")
                cursor.offset += written
            }
        }
        sections = writer
        threadCount += 1
    }

    /// One event (or nothing, for a note) at `pointer`, that `lp_encode_events` left: its name
    /// and file become the state's, so the events after it with the same go through C.
    private mutating func event(_ pointer: UnsafePointer<lp_event>, into cursor: inout ByteWriter.Cursor) {
        var event = lp_event_load(pointer)  // whole: the end read atomically
        state.site_word = 0  // the loop's next row names its call site, or says it is this one's
        let kind = event.kind & UInt8(LP_EVENT_KIND_MASK)
        guard kind != UInt8(LP_EVENT_NOTE) else {
            if event.category == UInt8(LP_NOTE_FILE_PATH), let file = event.file, let path = event.name {
                notedPaths.append(UInt(bitPattern: file))
                notedPaths.append(UInt(bitPattern: path))
                state.file = nil  // the file's next event comes here, where noted paths are looked at
            }
            return
        }
        if event.long_end != 0 { event.end = longEnd(pointer) }
        let nameID: UInt32
        if kind == UInt8(LP_EVENT_MARK) {
            nameID = interner.intern(Milestone(rawValue: event.category).id)
            state.name = nil  // the next event's row is written here too, naming its call site
        } else if event.kind & UInt8(LP_EVENT_FLAG_SCALAR_NAME) != 0 {
            let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: UInt(bitPattern: event.name))) ?? "?"
            nameID = interner.intern(String(Character(scalar)))
            state.name = nil
        } else if event.name == state.name, event.name != nil {
            nameID = state.name_id
        } else {
            nameID = interner.intern(address: event.name, length: nil)
            state.name = event.name
            state.name_id = nameID
        }
        let fileID: UInt32
        if event.file == state.file, event.file != nil {
            fileID = state.file_id
        } else {
            fileID = interner.intern(address: event.file, length: nil)
            state.file = event.file
            state.file_id = fileID
        }
        if !notedPaths.isEmpty { notePath(of: event.file, fileID: fileID) }
        let isOpen = kind == UInt8(LP_EVENT_SPAN) && event.end == 0
        let accounted = !isOpen && event.kind & UInt8(LP_EVENT_FLAG_USAGE) != 0
        cursor.byte(kind | (isOpen ? 0x10 : 0) | (accounted ? 0x20 : 0))
        cursor.byte(event.category)
        cursor.varint(nameID)
        cursor.varint(fileID)
        cursor.varint(event.line)
        state.line = event.line
        state.category = event.category
        cursor.signedVarint(Int64(bitPattern: event.begin &- state.previous_begin))
        if !isOpen { cursor.signedVarint(Int64(bitPattern: event.end &- event.begin)) }
        state.previous_begin = event.begin
        state.events += 1
    }

    /// Takes the path noted for `file` (the first one noted), if any, and keeps it as the path of
    /// `fileID` unless that has one already.
    private mutating func notePath(of file: UnsafeRawPointer?, fileID: UInt32) {
        let key = UInt(bitPattern: file)
        var index = 0
        while index < notedPaths.count, notedPaths[index] != key { index += 2 }
        guard index < notedPaths.count, let path = UnsafeRawPointer(bitPattern: notedPaths[index + 1]) else { return }
        notedPaths.removeSubrange(index..<index + 2)
        var known = 0
        while known < filePaths.count, filePaths[known] != fileID { known += 2 }
        guard known == filePaths.count else { return }
        filePaths.append(fileID)
        filePaths.append(interner.intern(address: path, length: nil))
    }
}
