import Foundation
import LaunchTracingTestSupport
import Testing
import _LaunchTracingShims

@testable import LaunchTracing

/// The 32-byte event and the flush that writes it in ticks (format version 2): what a
/// flush writes reads back as the snapshot of the same moment, long spans, late lines,
/// accounted spans and file paths included; version 1 files still read.
@Suite("Compact events and the version 2 flush")
struct CompactEventTests {
    @Test func anEventTakes32Bytes() {
        #expect(MemoryLayout<lp_event>.size == 32)
        #expect(MemoryLayout<lp_event>.stride == 32)
    }

    /// Records a bit of everything on a manual clock; returns the snapshot and the flushed file read back.
    func snapshotAndFlush(accounted: Bool) throws -> (snapshot: Trace, flushed: Trace) {
        let clock = ManualLaunchClock()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("compact-\(UUID()).lptrace").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var flushed: Trace?
        let snapshot = try LaunchTraceRecorder.record(clock: clock) { () throws in
            if accounted { LaunchTracer.setResourceAccounting(true) }
            defer { if accounted { LaunchTracer.setResourceAccounting(false) } }
            for index in 0..<300 {
                let span = LaunchTracer.begin("Row", category: .compute)
                clock.advance(byNanoseconds: 45_000 + UInt64(index % 7))
                span.end()
                clock.advance(byNanoseconds: 1_000)
                if index % 50 == 0 { LaunchTracer.instant("Tick") }
            }
            LaunchTracer.measure("A") { clock.advance(byNanoseconds: 10) }  // a scalar name
            // Longer than a 32-bit duration holds: the end is kept whole beside the event.
            let long = LaunchTracer.begin("Long", category: .io)
            clock.advance(byNanoseconds: 6_000_000_000)
            long.end()
            LaunchTracer.begin("Late line", line: 1_048_000).end()
            LaunchTracer.mark(.firstFrame)
            _ = LaunchTracer.begin("Open at the flush")
            clock.advance(byNanoseconds: 5)
            try LaunchTracer.flush(to: path)
            flushed = try Trace.read(from: path)
        }
        return (snapshot, try #require(flushed))
    }

    @Test(arguments: [false, true])
    func aFlushReadsBackAsTheSnapshotOfTheSameMoment(_ accounted: Bool) throws {
        let (snapshot, flushed) = try snapshotAndFlush(accounted: accounted)
        #expect(flushed.formatVersion == 2)
        #expect(flushed.strings == snapshot.strings)
        #expect(flushed.filePaths == snapshot.filePaths)
        #expect(flushed.threads.map(\.events) == snapshot.threads.map(\.events))
        #expect(flushed.threads.map(\.usage) == snapshot.threads.map(\.usage))
        let long = try #require(flushed.events(named: "Long").first)
        #expect(long.durationNanoseconds == 6_000_000_000)
        #expect(try #require(flushed.events(named: "Late line").first).line == 1_048_000)
        #expect(flushed.events(named: "Open at the flush").first?.isOpen == true)
        #expect(flushed.events(named: "A").count == 1)
        let row = try #require(flushed.events(named: "Row").first)
        #expect(flushed.filePath(of: row) == #filePath)
        if accounted {  // (on the thread the test runs on, which is not the main thread)
            #expect(flushed.threads.contains { !$0.usage.isEmpty })
        }
        // Read again, written from the model (version 2, CRC-32C): the same trace.
        #expect(try TraceDecoder.decode(TraceEncoder.encode(flushed)) == flushed)
    }

    /// Runs of events with one name and file whose line, category, kind, end or accounting
    /// change partway (what the flush's loop writes as a row with the previous call site, and
    /// what it must write whole) read back as the snapshot of the same moment.
    @Test func runsThatChangePartwayFlushAsTheSnapshotReadsThem() throws {
        let clock = ManualLaunchClock()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID()).lptrace").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var flushed: Trace?
        let snapshot = try LaunchTraceRecorder.record(clock: clock) { () throws in
            for index in 0..<200 {
                let category: SpanCategory = index % 17 == 0 ? .io : .compute
                let line: UInt = index % 23 == 0 ? 7 : 8
                if index % 31 == 0 { LaunchTracer.setResourceAccounting(index % 2 == 0) }
                let span = LaunchTracer.begin("Run", category: category, line: line)
                clock.advance(byNanoseconds: UInt64(index % 5) * 1_000)  // 0: the shortest span there is
                if index % 41 != 0 { span.end() }  // else left open
                if index % 13 == 0 { LaunchTracer.instant("Run", category: category, line: line) }
                clock.advance(byNanoseconds: 500)
            }
            LaunchTracer.setResourceAccounting(false)
            try LaunchTracer.flush(to: path)
            flushed = try Trace.read(from: path)
        }
        let trace = try #require(flushed)
        #expect(trace.threads.map(\.events) == snapshot.threads.map(\.events))
        #expect(trace.threads.map(\.usage) == snapshot.threads.map(\.usage))
        let runs = trace.events(named: "Run")
        #expect(runs.count == 216)
        #expect(runs.filter(\.isOpen).count == 5)
        #expect(Set(runs.map(\.line)) == [7, 8])
    }

    /// A line past what an event holds (20 bits) reads as the last it holds.
    @Test func linesPastTheLimitReadAsTheLimit() {
        let trace = LaunchTraceRecorder.record {
            LaunchTracer.begin("Far", line: 5_000_000).end()
        }
        #expect(trace.events(named: "Far").first?.line == LP_EVENT_LINE_MAX)
    }

    /// A file the old flush wrote (version 1, CRC-32, events in nanoseconds with usage
    /// attributed at the flush): 40 accounted spans on the main thread.
    @Test func aVersion1FlushStillReads() throws {
        let trace = try Trace.read(from: FlushIdentityTests.goldens + "version1-flush.lptrace")
        #expect(trace.formatVersion == 1)
        let main = try #require(trace.threads.first { $0.isMain })
        #expect(main.events.count == 40)
        #expect(main.events.allSatisfy { trace.name(of: $0) == "Accounted" && $0.durationNanoseconds == 45_000 })
        #expect(!main.usage.isEmpty)
    }

    /// Spans on a thread that writes more than the first event's pool, on memory no chunk held
    /// before: the recording thread hands populating it to the populater (a count the tracer
    /// keeps, not a time), and its events are all there.
    @Test func aThreadThatRecordsMuchHandsPopulatingOff() {
        lp_arena_set_fresh_only(1)
        defer { lp_arena_set_fresh_only(0) }
        let before = lp_populater_requests()
        let trace = LaunchTraceRecorder.record {
            let done = DispatchSemaphore(value: 0)
            Thread {
                for _ in 0..<50_000 { LaunchTracer.begin("Many").end() }
                done.signal()
            }.start()
            done.wait()
        }
        #expect(lp_populater_requests() > before)
        #expect(trace.events(named: "Many").count == 50_000)
        #if os(Linux)
            // It names itself, so that a profile or `top -H` of the app tells it apart.
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            let names = tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            #expect(names.contains("lp-populate\n"), "\(names)")
        #endif
    }
}
