/// Constants of the LaunchProf trace file format (see the DocC article
/// "Trace File Format").
///
/// A file is a 12-byte header followed by sections. Each section is
/// `tag: UInt8, length: UInt32 (LE), payload, crc32: UInt32 (LE)`, the
/// checksum covering tag, length and payload.
/// Readers skip sections whose tag they do not know, so new sections can be
/// added without a version bump. The `end` section closes the file; a file
/// without it was truncated.
public enum TraceFormat {
    /// The first 8 bytes of every trace file.
    public static let magic: [UInt8] = Array("LPTRACE".utf8) + [0]
    /// The version this module writes. Readers accept 1 through this one.
    public static let version: UInt16 = 1
    /// The recommended file extension.
    public static let fileExtension = "lptrace"

    enum Tag: UInt8 {
        case process = 1
        case strings = 2
        case thread = 3
        case samples = 4
        case metadata = 5
        /// `#filePath` of each `#fileID`: pairs of string ids. Added after
        /// version 1's first release; older readers skip it.
        case filePaths = 6
        /// Per thread, each accounted span's run-queue wait.
        case spanSchedule = 8
        /// Per sample, the exact wait kind and what was waited on.
        case sampleDetails = 9
        /// Per thread, the accounted spans whose usage was attributed, not read.
        case spanEstimates = 10
        case end = 0xFF

        var name: String {
            switch self {
            case .process: return "process"
            case .strings: return "strings"
            case .thread: return "thread"
            case .samples: return "samples"
            case .metadata: return "metadata"
            case .filePaths: return "filePaths"
            case .spanSchedule: return "spanSchedule"
            case .sampleDetails: return "sampleDetails"
            case .spanEstimates: return "spanEstimates"
            case .end: return "end"
            }
        }
    }
}

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), slice-by-8.
enum CRC32 {
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[index] = crc
        }
        for index in 0..<256 {
            var crc = tables[index]
            for table in 1..<8 {
                crc = tables[Int(crc & 0xFF)] ^ (crc >> 8)
                tables[table * 256 + index] = crc
            }
        }
        return tables
    }()

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        tables.withUnsafeBufferPointer { t in
            var index = 0
            let count = bytes.count
            while index + 8 <= count {
                let low = bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian ^ crc
                let high = bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                crc =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = t[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
