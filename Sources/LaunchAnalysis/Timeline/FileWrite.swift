import LaunchTracing

/// A synchronous write to a file, or a flush of one to disk (`fsync`), that the
/// sampler caught the main thread in before the first frame.
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

    /// The distinct writes among `samples` (the main thread's, in time order)
    /// that fall in `range` and before `firstFrame`, each with the innermost of
    /// `spans` (the main thread's, in begin order, properly nested) around it.
    /// One sweep: O(samples + spans).
    static func caught(in samples: [ThreadSample], spans: [SpanRecord], range: Range<UInt64>, firstFrame: UInt64) -> [FileWrite] {
        let calls = Platform.fileWriteCalls
        guard !calls.isEmpty else { return [] }
        var writes: [FileWrite] = []
        var open: [Int] = []  // indexes of the spans around the current time, innermost last
        var next = 0
        for sample in samples where range.contains(sample.nanoseconds) && sample.nanoseconds < firstFrame {
            guard let call = calls[sample.syscall], let target = sample.target, target.kind == .file else { continue }
            let t = sample.nanoseconds
            while next < spans.count, spans[next].beginNanoseconds <= t {
                while let last = open.last, spans[last].endNanoseconds < spans[next].beginNanoseconds { open.removeLast() }
                open.append(next)
                next += 1
            }
            while let last = open.last, spans[last].endNanoseconds < t { open.removeLast() }
            let span = open.last.map { spans[$0] }
            let write = FileWrite(call: call, file: target.name, span: span?.name, spanFile: span?.file, spanLine: span?.line)
            if !writes.contains(write) { writes.append(write) }
        }
        return writes
    }
}
