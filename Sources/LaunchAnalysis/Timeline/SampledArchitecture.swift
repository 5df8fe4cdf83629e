import LaunchTracing

/// The architecture a trace's samples were read on: their system call numbers
/// are that architecture's, whichever machine analyses the trace.
///
/// ```swift
/// let calls = SampledArchitecture(trace)?.fileWriteCalls ?? [:]
/// ```
public enum SampledArchitecture: String, Sendable, CaseIterable {
    /// x86-64 Linux.
    case x86_64
    /// 64-bit ARM Linux (AArch64).
    case arm64

    /// The architecture `trace`'s sampler recorded
    /// (``LaunchTracing/LaunchContract/MetadataKey/samplerArchitecture``); nil when it
    /// recorded none (a trace written before it did, or with no sampler) or one
    /// not known here: its system call numbers are then not read as any machine's.
    public init?(_ trace: Trace) {
        guard let name = trace.metadata[LaunchContract.MetadataKey.samplerArchitecture] else { return nil }
        self.init(rawValue: name)
    }

    /// The system calls that write to a file or force it to disk, by number:
    /// `write`, `pwrite64`, `writev`, `pwritev`, `pwritev2`, `fsync`, `fdatasync`,
    /// `sync_file_range`, `msync`, `sync`, `syncfs`.
    public var fileWriteCalls: [Int32: String] {
        switch self {
        case .x86_64:
            return [
                1: "write", 18: "pwrite64", 20: "writev", 26: "msync", 74: "fsync", 75: "fdatasync", 162: "sync",
                277: "sync_file_range", 296: "pwritev", 306: "syncfs", 328: "pwritev2",
            ]
        case .arm64:
            return [
                64: "write", 66: "writev", 68: "pwrite64", 70: "pwritev", 81: "sync", 82: "fsync", 83: "fdatasync",
                84: "sync_file_range", 227: "msync", 267: "syncfs", 287: "pwritev2",
            ]
        }
    }
}
