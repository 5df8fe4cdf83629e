/// Appends little-endian integers, LEB128 varints and strings to a byte array.
///
/// Writes go through a ``Cursor`` over storage reserved ahead (one capacity and
/// uniqueness check per ``write(maximum:_:)``, not per byte): the trace's events are
/// written at exit, and each costs its share of the tracer's.
struct ByteWriter {
    /// Bytes written and spare room (zeros) after them.
    private var storage: [UInt8]
    /// Bytes written.
    private(set) var count = 0

    init(capacity: Int = 0) {
        // Not zeroed: only what is written (the first `count` bytes) is ever read.
        let capacity = max(capacity, 16)
        storage = [UInt8](unsafeUninitializedCapacity: capacity) { _, initialized in initialized = capacity }
    }

    /// The bytes written.
    var bytes: [UInt8] {
        mutating get {
            storage.removeLast(storage.count - count)
            return storage
        }
    }

    /// Calls `body` with the bytes written, where they are.
    func withBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
        storage.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    /// Writes at most `maximum` bytes with `body`, at the end.
    @inline(__always)
    mutating func write(maximum: Int, _ body: (inout Cursor) -> Void) {
        if count + maximum > storage.count { grow(to: count + maximum) }
        let start = count
        count = storage.withUnsafeMutableBufferPointer { buffer in
            var cursor = Cursor(base: buffer.baseAddress!, offset: start)
            body(&cursor)
            return cursor.offset
        }
    }

    /// Writes each of `items` with `body`, at most `maximum` bytes each: room is reserved
    /// and storage reached once for a batch of items, not once an item.
    @inline(__always)
    mutating func write<Items: Collection>(
        each items: Items, maximum: Int, _ body: (inout Cursor, Items.Element) -> Void
    ) {
        var index = items.startIndex
        while index != items.endIndex {
            let batchEnd = items.index(index, offsetBy: 256, limitedBy: items.endIndex) ?? items.endIndex
            let batch = items[index..<batchEnd]
            write(maximum: batch.count * maximum) { cursor in
                for item in batch { body(&cursor, item) }
            }
            index = batchEnd
        }
    }

    private mutating func grow(to minimum: Int) {
        storage.append(contentsOf: repeatElement(0, count: max(minimum, storage.count * 2) - storage.count))
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) { write(maximum: 1) { $0.byte(value) } }

    mutating func uint16(_ value: UInt16) { write(maximum: 2) { $0.uint16(value) } }

    mutating func uint32(_ value: UInt32) { write(maximum: 4) { $0.uint32(value) } }

    @inline(__always)
    mutating func varint(_ value: UInt64) { write(maximum: Cursor.maximumVarint) { $0.varint(value) } }

    @inline(__always)
    mutating func varint<T: BinaryInteger>(_ value: T) { varint(UInt64(value)) }

    /// Zigzag-encoded signed varint.
    @inline(__always)
    mutating func signedVarint(_ value: Int64) { write(maximum: Cursor.maximumVarint) { $0.signedVarint(value) } }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in bytes(utf8) }
    }

    /// A varint length, then `utf8`.
    private mutating func bytes(_ utf8: UnsafeBufferPointer<UInt8>) {
        write(maximum: Cursor.maximumVarint + utf8.count) { cursor in
            cursor.varint(UInt64(utf8.count))
            cursor.copy(utf8)
        }
    }

    /// Appends a framed section: tag, length, the payload `body` writes, then the CRC-32C
    /// of those three (so a damaged tag or length is caught too). The payload is written
    /// in place: nothing is copied.
    mutating func section(_ tag: TraceFormat.Tag, _ body: (inout ByteWriter) -> Void) {
        let start = count
        byte(tag.rawValue)
        uint32(0)
        body(&self)
        let length = UInt32(count - start - 5)
        let checksum = storage.withUnsafeMutableBytes { bytes in
            bytes.storeBytes(of: length.littleEndian, toByteOffset: start + 1, as: UInt32.self)
            return CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[start..<count]))  // version 2's
        }
        uint32(checksum)
    }

    /// Appends a framed section holding `payload`'s bytes (see ``section(_:_:)``).
    mutating func section(_ tag: TraceFormat.Tag, _ payload: ByteWriter) {
        section(tag) { writer in
            payload.storage.withUnsafeBufferPointer { writer.raw(UnsafeBufferPointer(rebasing: $0[..<payload.count])) }
        }
    }

    /// Appends what `other` wrote (framed sections, say), as it is.
    mutating func append(_ other: ByteWriter) {
        other.storage.withUnsafeBufferPointer { raw(UnsafeBufferPointer(rebasing: $0[..<other.count])) }
    }

    private mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        write(maximum: bytes.count) { $0.copy(bytes) }
    }

    /// Where a ``write(maximum:_:)`` writes: unchecked stores into room reserved for them.
    struct Cursor {
        /// The most bytes a varint takes (a 64-bit value, 7 bits a byte).
        static let maximumVarint = 10

        let base: UnsafeMutablePointer<UInt8>
        var offset: Int

        @inline(__always)
        mutating func byte(_ value: UInt8) {
            base[offset] = value
            offset += 1
        }

        @inline(__always)
        mutating func uint16(_ value: UInt16) {
            byte(UInt8(truncatingIfNeeded: value))
            byte(UInt8(truncatingIfNeeded: value >> 8))
        }

        @inline(__always)
        mutating func uint32(_ value: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) { byte(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }

        @inline(__always)
        mutating func varint(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                byte(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            byte(UInt8(value))
        }

        @inline(__always)
        mutating func varint<T: BinaryInteger>(_ value: T) { varint(UInt64(value)) }

        /// Zigzag-encoded signed varint.
        @inline(__always)
        mutating func signedVarint(_ value: Int64) {
            varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
        }

        mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            (base + offset).update(from: source, count: bytes.count)
            offset += bytes.count
        }
    }
}
