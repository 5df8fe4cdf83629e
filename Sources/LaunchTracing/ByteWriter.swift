/// Appends little-endian integers, LEB128 varints and strings to a byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    @inline(__always)
    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    @inline(__always)
    mutating func varint<T: BinaryInteger>(_ value: T) { varint(UInt64(value)) }

    /// Zigzag-encoded signed varint.
    @inline(__always)
    mutating func signedVarint(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Appends a framed section: tag, length, payload, then the CRC-32 of those
    /// three (so a damaged tag or length is caught too).
    mutating func section(_ tag: TraceFormat.Tag, _ payload: ByteWriter) {
        let start = bytes.count
        byte(tag.rawValue)
        uint32(UInt32(payload.bytes.count))
        bytes.append(contentsOf: payload.bytes)
        let checksum = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        uint32(checksum)
    }
}
