/// Reads what ``ByteWriter`` writes, bounds-checked: every failure is a
/// ``TraceFileError/invalid(path:offset:expected:)`` naming the offset.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    /// Offset of `bytes[0]` in the file, for error messages.
    let base: Int
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer, base: Int = 0) {
        self.bytes = bytes
        self.base = base
    }

    var remaining: Int { bytes.count - offset }

    func failure(_ expected: String, at position: Int? = nil) -> TraceFileError {
        .invalid(path: nil, offset: base + (position ?? offset), expected: expected)
    }

    @inline(__always)
    mutating func byte(_ what: @autoclosure () -> String) throws(TraceFileError) -> UInt8 {
        guard offset < bytes.count else { throw failure(what()) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16(_ what: String) throws(TraceFileError) -> UInt16 {
        guard remaining >= 2 else { throw failure(what) }
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func uint32(_ what: String) throws(TraceFileError) -> UInt32 {
        guard remaining >= 4 else { throw failure(what) }
        defer { offset += 4 }
        return bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
    }

    @inline(__always)
    mutating func varint(_ what: @autoclosure () -> String) throws(TraceFileError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = offset
        while true {
            guard offset < bytes.count else { throw failure(what(), at: start) }
            let byte = bytes[offset]
            offset += 1
            if shift == 63 && byte > 1 { throw failure(what() + " (varint overflows 64 bits)", at: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { throw failure(what() + " (varint too long)", at: start) }
        }
    }

    /// A varint that must fit in `UInt32`.
    @inline(__always)
    mutating func varint32(_ what: @autoclosure () -> String) throws(TraceFileError) -> UInt32 {
        let start = offset
        let value = try varint(what())
        guard value <= UInt64(UInt32.max) else { throw failure(what() + " (value too large)", at: start) }
        return UInt32(value)
    }

    @inline(__always)
    mutating func signedVarint(_ what: @autoclosure () -> String) throws(TraceFileError) -> Int64 {
        let raw = try varint(what())
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    mutating func string(_ what: String) throws(TraceFileError) -> String {
        let start = offset
        let count = try varint("length of " + what)
        guard count <= UInt64(remaining) else { throw failure("\(count) bytes of \(what)", at: start) }
        defer { offset += Int(count) }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(count)]), as: UTF8.self)
    }

    mutating func skip(_ count: Int) { offset += count }

    /// A count of items that each take at least `minimumBytes`, checked against what is left.
    mutating func count(_ what: String, minimumBytes: Int) throws(TraceFileError) -> Int {
        let start = offset
        let value = try varint("count of " + what)
        guard value <= UInt64(remaining / max(1, minimumBytes)) else {
            throw failure("at most \(remaining / max(1, minimumBytes)) \(what) (found a count of \(value))", at: start)
        }
        return Int(value)
    }
}
