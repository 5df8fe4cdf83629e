import LaunchTracing
import Testing

/// The `spanSchedule` and `sampleDetails` sections: run-queue waits, exact wait
/// kinds and wait targets survive a round trip, and readers that do not know
/// them still read the rest.
@Suite("Trace file: wait sections")
struct WaitSectionsTests {
    func trace() -> Trace {
        let span = TraceEvent(kind: .span, nameID: 0, beginNanoseconds: 1_000, endNanoseconds: 9_000)
        let thread = TraceThread(
            index: 0, osThreadID: 7, isMain: true, events: [span, span],
            usage: [
                SpanUsage(
                    eventIndex: 0,
                    usage: ResourceUsage(cpuNanoseconds: 3_000, majorFaults: 2, runQueueNanoseconds: 1_500)),
                SpanUsage(eventIndex: 1, usage: ResourceUsage(cpuNanoseconds: 4_000)),
            ])
        let fifo = WaitTarget(kind: .pipe, name: "/run/app/events.fifo")
        return Trace(
            clockSource: .monotonic, processID: 1, strings: ["Load"], threads: [thread],
            samples: [
                ThreadSample(
                    nanoseconds: 2_000, osThreadID: 7, state: UInt8(ascii: "S"), syscall: 0, wait: .ipc, target: fifo),
                ThreadSample(nanoseconds: 3_000, osThreadID: 7, state: UInt8(ascii: "R"), syscall: -1, wait: .none),
                ThreadSample(
                    nanoseconds: 4_000, osThreadID: 7, state: UInt8(ascii: "S"), syscall: 0, wait: .ipc, target: fifo),
                ThreadSample(
                    nanoseconds: 5_000, osThreadID: 7, state: UInt8(ascii: "S"), syscall: 61, wait: .process,
                    target: WaitTarget(kind: .process, name: "/usr/bin/git status")),
                ThreadSample(nanoseconds: 6_000, osThreadID: 7, state: UInt8(ascii: "S"), syscall: 232, wait: .event),
            ])
    }

    @Test func runQueueWaitsWaitKindsAndTargetsSurviveARoundTrip() throws {
        let original = trace()
        let decoded = try TraceDecoder.decode(TraceEncoder.encode(original))
        #expect(decoded.threads == original.threads)
        #expect(decoded.samples == original.samples)
    }

    @Test func aReaderThatSkipsTheNewSectionsSeesOtherForTheNewWaitKinds() throws {
        var bytes = TraceEncoder.encode(trace())
        // Rename sections 8 and 9 to an unknown tag (and fix their checksums), as an older reader sees them.
        bytes = WaitSectionsTests.retagging(bytes, from: [8, 9], to: 200)
        let decoded = try TraceDecoder.decode(bytes)
        #expect(decoded.samples.map(\.wait) == [.other, .none, .other, .other, .other])
        #expect(decoded.samples.allSatisfy { $0.target == nil })
        #expect(decoded.threads[0].usage[0].usage.runQueueNanoseconds == nil)
        #expect(decoded.threads[0].usage[0].usage.cpuNanoseconds == 3_000)
    }

    /// The file with every section tagged one of `tags` retagged `tag` (checksums recomputed).
    static func retagging(_ bytes: [UInt8], from tags: Set<UInt8>, to tag: UInt8) -> [UInt8] {
        var bytes = bytes
        var offset = 12
        while offset < bytes.count {
            let length =
                Int(bytes[offset + 1]) | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]) << 16 | Int(
                    bytes[offset + 4]) << 24
            if tags.contains(bytes[offset]) {
                bytes[offset] = tag
                let crc = checksum(Array(bytes[offset..<offset + 5 + length]), version: bytes[8])
                for index in 0..<4 {
                    bytes[offset + 5 + length + index] = UInt8(truncatingIfNeeded: crc >> (8 * index))
                }
            }
            if bytes[offset] == 0xFF { break }
            offset += 5 + length + 4
        }
        return bytes
    }

    /// A section's checksum, bit by bit: CRC-32 (IEEE) in a version 1 file, CRC-32C in version 2.
    static func checksum(_ bytes: [UInt8], version: UInt8) -> UInt32 {
        let polynomial: UInt32 = version >= 2 ? 0x82F6_3B78 : 0xEDB8_8320
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ polynomial : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
