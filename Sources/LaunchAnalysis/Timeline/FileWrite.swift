import LaunchTracing

/// A synchronous write to a file, or a flush of one to disk (`fsync`), that the
/// sampler caught the main thread in before the first frame. The system call is
/// told by its number on the architecture the trace was sampled on
/// (``SampledArchitecture``), found in the one pass that gives each sample to
/// its span (the accountant's).
///
/// Such a call can take half a millisecond on a development machine's disk and
/// tens on a phone's flash or a loaded CI disk, so the advisor flags it whatever
/// it cost here (Android's StrictMode does the same for every disk access on
/// the main thread).
///
/// ```swift
/// for write in timeline.mainThreadFileWrites { print(write.call, write.file, write.span ?? "-") }
/// ```
public struct FileWrite: Sendable, Codable, Equatable {
    /// The system call: `write`, `pwrite64`, `fsync`, `fdatasync`…
    public var call: String
    /// The file, as the sampler named it.
    public var file: String
    /// The innermost main-thread span the call happened in; nil outside any span.
    public var span: String?
    /// That span's `#fileID`.
    public var spanFile: String?
    /// That span's line.
    public var spanLine: Int?

    /// Makes a record.
    public init(call: String, file: String, span: String? = nil, spanFile: String? = nil, spanLine: Int? = nil) {
        self.call = call
        self.file = file
        self.span = span
        self.spanFile = spanFile
        self.spanLine = spanLine
    }
}
