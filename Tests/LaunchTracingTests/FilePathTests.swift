import Foundation
import LaunchTracing
import LaunchTracingTestSupport
import Testing

/// The `#filePath` beside each event's `#fileID`: recorded as a pointer, read at
/// flush, written in its own section that older readers skip.
@Suite("File paths")
struct FilePathTests {
    func recorded() -> Trace {
        LaunchTraceRecorder.record {
            LaunchTracer.begin("Here").end()
            LaunchTracer.instant("AlsoHere")
            LaunchTracer.measure("Measured") {}
            LaunchTracer.mark(.firstFrame)
        }
    }

    @Test func everyEventCarriesItsCallSitesFilePath() throws {
        let trace = recorded()
        let events = trace.threads.flatMap(\.events)
        #expect(events.count >= 4)
        for event in events {
            #expect(trace.file(of: event) == "LaunchTracingTests/FilePathTests.swift")
            #expect(trace.filePath(of: event) == #filePath)
        }
    }

    @Test func filePathsSurviveARoundTrip() throws {
        let trace = recorded()
        let read = try TraceDecoder.decode(TraceEncoder.encode(trace))
        #expect(read == trace)
        let event = try #require(read.events(named: "Here").first)
        #expect(read.filePath(of: event) == #filePath)
    }

    /// A trace without the section (as written before paths were recorded)
    /// reads as before, with no paths.
    @Test func aTraceWithoutPathsStillReads() throws {
        var trace = recorded()
        trace.filePaths = [:]
        let bytes = TraceEncoder.encode(trace)
        #expect(!Self.sectionTags(bytes).contains(6))
        let read = try TraceDecoder.decode(bytes)
        #expect(read.filePaths.isEmpty)
        let event = try #require(read.events(named: "Here").first)
        #expect(read.filePath(of: event) == nil)
        #expect(read.file(of: event) == "LaunchTracingTests/FilePathTests.swift")
        #expect(Self.sectionTags(TraceEncoder.encode(recorded())).contains(6))
    }

    @Test func aPathIdPastTheStringsIsRejected() throws {
        var trace = recorded()
        trace.filePaths = [0: UInt32(trace.strings.count)]
        #expect(throws: TraceFileError.self) { _ = try TraceDecoder.decode(TraceEncoder.encode(trace)) }
    }

    /// The tags of a trace file's sections, in order.
    static func sectionTags(_ bytes: [UInt8]) -> [UInt8] {
        var tags: [UInt8] = []
        var offset = 12
        while offset + 5 <= bytes.count {
            tags.append(bytes[offset])
            let length =
                Int(bytes[offset + 1]) | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]) << 16 | Int(
                    bytes[offset + 4]) << 24
            offset += 5 + length + 4
        }
        return tags
    }
}
