import FuzzerMain
import LaunchTracing

/// One input: decodes the bytes as a trace file. Every input must
/// either decode or throw a `TraceFileError`; a trap or a sanitizer report is a bug.
func traceReaderFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let trace = try? TraceDecoder.decode(bytes) {
        // What the analysis does first with a trace: names, milestones, counts.
        for thread in trace.threads {
            for event in thread.events { _ = trace.name(of: event); _ = trace.file(of: event) }
        }
        _ = trace.milestones
        _ = trace.eventCount
        _ = trace.droppedCount
    }
    return 0
}

/// libFuzzer calls ``traceReaderFuzzer(_:_:)`` with each input.
@main
enum TraceReaderFuzzer {
    static func main() { LibFuzzer.run(traceReaderFuzzer) }
}
