import Foundation
import LaunchTracing
import LaunchTracingTestSupport
import Testing
import _LaunchProfTestSupport

@Suite("Trace file")
struct TraceFileTests {
    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("lp-\(UUID().uuidString)-\(name)").path
    }

    func sampleTrace() -> Trace {
        let clock = ManualLaunchClock()
        var trace = LaunchTraceRecorder.record(clock: clock) {
            let outer = LaunchTracer.begin("Outer", category: .ui)
            clock.advance(byNanoseconds: 100)
            let inner = LaunchTracer.begin("Inner", category: .io)
            clock.advance(byNanoseconds: 300)
            inner.end()
            LaunchTracer.instant("Between")
            clock.advance(byNanoseconds: 100)
            outer.end()
            _ = LaunchTracer.begin("StillOpen")
            clock.advance(byNanoseconds: 1_000)
            LaunchTracer.mark(.firstFrame)
            LaunchTracer.setMetadata("naive", forKey: "variant")
        }
        trace.samples = [
            ThreadSample(nanoseconds: 1_000_000_050, osThreadID: 7, state: UInt8(ascii: "D"), syscall: 0, wait: .disk),
            ThreadSample(nanoseconds: 1_000_000_040, osThreadID: 7, state: UInt8(ascii: "R"), syscall: -1, wait: .none),
        ]
        return trace
    }

    @Test func nestingAndOpenSpansSurviveARoundTrip() throws {
        let trace = sampleTrace()
        let path = temporaryPath("roundtrip.lptrace")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try trace.write(to: path)
        let read = try Trace.read(from: path)
        #expect(read == trace)

        let outer = try #require(read.spans(named: "Outer").first)
        let inner = try #require(read.spans(named: "Inner").first)
        #expect(inner.beginNanoseconds > outer.beginNanoseconds)
        #expect(inner.endNanoseconds < outer.endNanoseconds)
        #expect(inner.durationNanoseconds == 300)
        #expect(read.spans(named: "StillOpen").first?.isOpen == true)
        #expect(read.metadata["variant"] == "naive")
        #expect(read.samples.map(\.wait) == [.disk, .none])
    }

    /// Metadata made when the trace is written (how the harness records the launch options
    /// and budget, off the launch's time): made at the flush, not when it is set; a key
    /// set explicitly keeps its value; a reset forgets it.
    @Test func metadataMadeWhenWrittenIsMadeAtTheFlushAndYieldsToKeysSet() {
        final class Calls: @unchecked Sendable {
            let lock = NSLock()
            private var count = 0
            func add() { lock.withLock { count += 1 } }
            var value: Int { lock.withLock { count } }
        }
        let calls = Calls()
        let trace = LaunchTraceRecorder.record {
            LaunchTracer.setMetadataWhenWritten {
                calls.add()
                return ["made": "at the flush", "both": "made"]
            }
            LaunchTracer.setMetadata("set", forKey: "both")
            #expect(calls.value == 0, "made when set, not when written")
        }
        #expect(calls.value >= 1)
        #expect(trace.metadata["made"] == "at the flush")
        #expect(trace.metadata["both"] == "set")
        let next = LaunchTraceRecorder.record { LaunchTracer.instant("Next") }
        #expect(next.metadata["made"] == nil, "a reset forgets it: \(next.metadata)")
    }

    @Test func flushWritesWhatWasRecorded() throws {
        let path = temporaryPath("flush.lptrace")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var expected: Trace?
        _ = LaunchTraceRecorder.record {
            LaunchTracer.begin("Flushed").end()
            _ = LaunchTracer.begin("Open")
            try? LaunchTracer.flush(to: path)
            expected = LaunchTracer.snapshot()
        }
        let read = try Trace.read(from: path)
        #expect(read.spans(named: "Flushed").count == 1)
        #expect(read.spans(named: "Open").first?.isOpen == true)
        #expect(read.processID == ProcessInfo.processInfo.processIdentifier)
        #expect(read.eventCount == expected?.eventCount)
    }

    @Test func everyTruncationIsRejectedWithItsOffset() throws {
        let bytes = TraceEncoder.encode(sampleTrace())
        for length in 0..<bytes.count {
            do {
                _ = try TraceDecoder.decode(Array(bytes[0..<length]))
                Issue.record("a trace truncated to \(length) of \(bytes.count) bytes was accepted")
            } catch let error {
                guard case .invalid(_, let offset, let expected) = error else {
                    Issue.record("unexpected error \(error)")
                    continue
                }
                #expect(offset <= length)
                #expect(!expected.isEmpty)
            }
        }
    }

    @Test func corruptionIsRejectedNamingTheOffset() throws {
        let bytes = TraceEncoder.encode(sampleTrace())
        // Flip one bit in every byte after the header, one at a time.
        for index in 12..<bytes.count {
            var corrupt = bytes
            corrupt[index] ^= 0x04
            #expect(throws: TraceFileError.self, "a flip at byte \(index) was accepted") {
                _ = try TraceDecoder.decode(corrupt)
            }
        }
        // A flip the framing cannot see (the last byte before the checksum, inside
        // the final section's payload) is caught by the checksum, and said so.
        var corrupt = bytes
        corrupt[bytes.count - 5] ^= 0xFF
        let error = #expect(throws: TraceFileError.self) { _ = try TraceDecoder.decode(corrupt) }
        #expect(error?.description.contains("invalid trace at byte") == true)
        #expect(error?.description.contains("checksum") == true, "\(error.map { "\($0)" } ?? "")")
    }

    /// Random damage is rejected with an offset inside the bytes, or, where the
    /// framing cannot see it, decodes to the trace it was. Seeded: a failure names
    /// its seed, and `LAUNCHPROF_TEST_SEED=<seed>` replays it.
    @Test func randomBytesNeverCrashTheReader() throws {
        var generator = try SeededGenerator.fromEnvironment()
        let replay = Comment(rawValue: generator.replayNote)
        print("randomBytesNeverCrashTheReader: \(generator.replayNote)")
        let valid = TraceEncoder.encode(sampleTrace())
        let original = try TraceDecoder.decode(valid)
        // The header's reserved field is the one place no check covers.
        let reserved = 10..<12
        for _ in 0..<2_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let changed = bytes.indices.filter { bytes[$0] != valid[$0] }
            do {
                let trace = try TraceDecoder.decode(bytes)
                #expect(changed.allSatisfy(reserved.contains), "bytes \(changed) changed and were accepted; \(replay)")
                #expect(trace == original, "\(replay)")
            } catch {
                Self.expectNamesAnOffset(error, within: bytes.count, replay)
            }

            let noise = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            do {
                _ = try TraceDecoder.decode(noise)
                Issue.record("\(noise.count) random bytes were accepted as a trace: \(noise); \(replay)")
            } catch {
                Self.expectNamesAnOffset(error, within: noise.count, replay)
            }
        }
    }

    /// A rejection of `count` bytes says where: an offset inside them, and what was expected there.
    static func expectNamesAnOffset(_ error: TraceFileError, within count: Int, _ replay: Comment) {
        switch error {
        case .invalid(_, let offset, let expected):
            #expect((0...count).contains(offset), "offset \(offset) of \(count) bytes; \(replay)")
            #expect(!expected.isEmpty, "\(replay)")
        case .unsupportedVersion(_, let version):
            #expect(version != TraceFormat.version, "\(replay)")
        case .cannotRead, .cannotWrite:
            Issue.record("decoding bytes failed as file I/O: \(error); \(replay)")
        }
    }

    @Test func errorsNameTheFile() throws {
        let path = temporaryPath("bad.lptrace")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("not a trace".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try Trace.read(from: path)
            Issue.record("garbage was accepted")
        } catch {
            #expect(error.description.hasPrefix(path + ": invalid trace at byte 0"))
        }
        #expect(throws: TraceFileError.cannotRead(path: "/nonexistent/x.lptrace", reason: "no such file or directory"))
        {
            _ = try Trace.read(from: "/nonexistent/x.lptrace")
        }
    }

    @Test func newerVersionsAreRefusedClearly() throws {
        var bytes = TraceEncoder.encode(sampleTrace())
        bytes[8] = 9
        #expect(throws: TraceFileError.unsupportedVersion(path: nil, version: 9)) {
            _ = try TraceDecoder.decode(bytes)
        }
    }
}
