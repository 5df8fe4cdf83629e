import _LaunchTracingShims

/// Constants of the LaunchProf trace file format (see the DocC article
/// "Trace File Format").
///
/// A file is a 12-byte header followed by sections. Each section is
/// `tag: UInt8, length: UInt32 (LE), payload, checksum: UInt32 (LE)`, the
/// checksum covering tag, length and payload: CRC-32 in version 1, CRC-32C in version 2.
/// Readers skip sections whose tag they do not know, so new sections can be
/// added without a version bump. The `end` section closes the file; a file
/// without it was truncated.
public enum TraceFormat {
    /// The first 8 bytes of every trace file.
    public static let magic: [UInt8] = Array("LPTRACE".utf8) + [0]
    /// The version this module writes. Readers accept 1 through this one.
    ///
    /// Version 2 adds the `threadTicks` section, which the flush writes: a thread's events
    /// in ticks and its resource readings as taken, converted and attributed by the reader.
    /// A version 1 reader would skip it and see no events, so the version was raised; the
    /// reader reads version 1 files as before. Version 2's section checksums are CRC-32C.
    public static let version: UInt16 = 2
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
        /// Version 2: a thread's events in ticks and its readings (see ``FlushEncoder``).
        case threadTicks = 11
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
            case .threadTicks: return "threadTicks"
            case .end: return "end"
            }
        }
    }
}

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), slice-by-8 (in C: `lp_crc32`):
/// version 1's section checksum.
enum CRC32 {
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        return lp_crc32(base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }
}

/// CRC-32C (Castagnoli, reflected, polynomial 0x82F63B78), with the CPU's instruction where
/// there is one (in C: `lp_crc32c`): version 2's section checksum, a few times cheaper.
enum CRC32C {
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        return lp_crc32c(base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }
}
