import FuzzerMain
import LaunchTracing

/// One input: decodes the bytes as a trace file, as they are and again with
/// every section's checksum made right, so that mutations reach the section
/// parsers instead of stopping at the checksum. Every input must either decode
/// or throw a `TraceFileError`; a trap or a sanitizer report is a bug.
func traceReaderFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    decode(bytes)
    if fixChecksums(&bytes) { decode(bytes) }
    return 0
}

/// Decodes `bytes` and, when they are a trace, reads what the analysis reads first.
private func decode(_ bytes: [UInt8]) {
    guard let trace = try? TraceDecoder.decode(bytes) else { return }
    for thread in trace.threads {
        for event in thread.events {
            _ = trace.name(of: event)
            _ = trace.file(of: event)
        }
    }
    _ = trace.milestones
    _ = trace.eventCount
    _ = trace.droppedCount
}

/// Rewrites the checksum of each whole section after the 12-byte header (the
/// format: `tag: UInt8, length: UInt32 LE, payload, checksum: UInt32 LE` over tag,
/// length and payload: CRC-32 in version 1, CRC-32C from version 2); true when any was changed.
private func fixChecksums(_ bytes: inout [UInt8]) -> Bool {
    var offset = 12
    var changed = false
    while offset + 5 <= bytes.count {
        let length =
            Int(bytes[offset + 1]) | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]) << 16 | Int(bytes[offset + 4])
            << 24
        let end = offset + 5 + length
        guard end + 4 <= bytes.count else { break }
        let crc = crc32(bytes[offset..<end], castagnoli: bytes.count > 8 && bytes[8] >= 2)
        for index in 0..<4 {
            let byte = UInt8(truncatingIfNeeded: crc >> (8 * index))
            if bytes[end + index] != byte {
                bytes[end + index] = byte
                changed = true
            }
        }
        offset = end + 4
    }
    return changed
}

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320: version 1's sections), or with
/// `castagnoli` CRC-32C (0x82F63B78: version 2's), bit by bit: the fuzzer's own, so that it
/// does not test the decoder against itself.
private func crc32(_ bytes: ArraySlice<UInt8>, castagnoli: Bool) -> UInt32 {
    let polynomial: UInt32 = castagnoli ? 0x82F6_3B78 : 0xEDB8_8320
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ polynomial : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
}

/// libFuzzer calls ``traceReaderFuzzer(_:_:)`` with each input.
@main
enum TraceReaderFuzzer {
    static func main() { LibFuzzer.run(traceReaderFuzzer) }
}
