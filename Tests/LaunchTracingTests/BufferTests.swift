import Foundation
import LaunchTracing
import LaunchTracingTestSupport
import Testing

/// Runs `body` on `count` new threads at once and waits for all of them.
func onNewThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}

/// Runs `body` on `count` new POSIX threads and joins them: when it returns the
/// threads have exited (their thread-exit handlers have run).
func onJoinedThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var threads: [pthread_t] = []
    for _ in 0..<count {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let status = pthread_create(
            &thread, nil,
            { context in
                let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        precondition(status == 0, "pthread_create: \(status)")
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}

/// Runs `body` with the process-wide event memory capped at `bytes` past what
/// is held now, restoring the cap afterwards (inside a recording).
func withBufferRoom<Result>(_ bytes: Int, _ body: () -> Result) -> Result {
    // The first event reserves room for the cap in force then: make sure it is
    // the default, not the lowered one.
    LaunchTracer.instant("Reserve")
    let previous = LaunchTracer.bufferLimitBytes
    LaunchTracer.bufferLimitBytes = LaunchTracer.bufferBytesInUse + bytes
    defer { LaunchTracer.bufferLimitBytes = previous }
    return body()
}

/// The size of the events in each of a thread's first chunks: 4 KiB less a
/// 32-byte header, doubling; an event is 32 bytes.
let eventBytes = 32
let firstChunkEvents = (4096 - 32) / eventBytes
let secondChunkEvents = (8192 - 32) / eventBytes

@Suite("Per-thread event storage")
struct BufferTests {
    @Test func eightThreadsOfAHundredThousandEventsLoseNothingUnderTheDefaultCap() {
        let spansPerThread = 100_000
        let trace = LaunchTraceRecorder.record {
            onNewThreads(8) { _ in
                for _ in 0..<spansPerThread { LaunchTracer.begin("Work").end() }
            }
        }
        let workers = trace.threads.filter { $0.events.contains { trace.name(of: $0) == "Work" } }
        #expect(workers.count == 8)
        for worker in workers {
            #expect(worker.events.count == spansPerThread)
            #expect(worker.dropped == 0)
            #expect(worker.events.allSatisfy { !$0.isOpen && $0.endNanoseconds >= $0.beginNanoseconds })
        }
    }

    @Test func overflowAtTheCapCountsEveryDrop() {
        let spansPerThread = 100_000
        let room = 4 << 20  // 4 MiB: about 87,000 events in all
        let trace = LaunchTraceRecorder.record {
            withBufferRoom(room) {
                onNewThreads(8) { _ in
                    for _ in 0..<spansPerThread { LaunchTracer.begin("Work").end() }
                }
                #expect(LaunchTracer.bufferBytesInUse <= LaunchTracer.bufferLimitBytes)
            }
        }
        let workers = trace.threads.filter { $0.events.contains { trace.name(of: $0) == "Work" } || $0.dropped > 0 }
        let recorded = workers.reduce(0) { $0 + $1.events.count }
        let dropped = workers.reduce(0) { $0 + Int($1.dropped) }
        #expect(recorded + dropped == 8 * spansPerThread)
        #expect(dropped > 0)
        // Nearly all of the room holds events: only chunk headers and the last
        // partly filled chunks of each thread are not events.
        #expect(recorded * eventBytes > room - 8 * (256 << 10))
        #expect(recorded * eventBytes <= room)
    }

    @Test func aSpanBegunAtTheCapIsInertAndEverythingIsCounted() throws {
        let trace = LaunchTraceRecorder.record {
            withBufferRoom(0) {
                onNewThreads(1) { _ in
                    for _ in 0..<25 { LaunchTracer.begin("Span").end() }
                    for _ in 0..<5 { LaunchTracer.instant("Instant") }
                    LaunchTracer.mark(.firstFrame)
                    let span = LaunchTracer.begin("Late")
                    #expect(!span.isRecording)
                    span.end()  // harmless
                }
            }
        }
        #expect(trace.threads.contains { $0.events.isEmpty && $0.dropped == 25 + 5 + 1 + 1 })
    }

    /// Every event across a thread's chunk boundaries comes back once, in order,
    /// with its own timestamp and line.
    @Test(arguments: [
        1, firstChunkEvents - 1, firstChunkEvents, firstChunkEvents + 1,
        firstChunkEvents + secondChunkEvents, firstChunkEvents + secondChunkEvents + 1, 20_000,
    ])
    func eventsAcrossChunkBoundariesComeBackInOrder(count: Int) throws {
        let clock = ManualLaunchClock()
        let trace = LaunchTraceRecorder.record(clock: clock) {
            onNewThreads(1) { _ in
                for _ in 0..<count {
                    clock.advance(byNanoseconds: 10)
                    LaunchTracer.instant("Tick")
                }
            }
        }
        let thread = try #require(trace.threads.first { $0.events.contains { trace.name(of: $0) == "Tick" } })
        #expect(thread.dropped == 0)
        #expect(thread.events.count == count)
        let begins = thread.events.map(\.beginNanoseconds)
        #expect(zip(begins, begins.dropFirst()).allSatisfy { $1 &- $0 == 10 })
    }

    @Test func threadsStartingAndExitingWhileOthersRecordLoseNothing() {
        let longSpans = 50_000
        let shortThreads = 64
        let shortSpans = 300
        let trace = LaunchTraceRecorder.record {
            let group = DispatchGroup()
            for _ in 0..<3 {
                group.enter()
                Thread {
                    for _ in 0..<longSpans { LaunchTracer.begin("Long").end() }
                    group.leave()
                }.start()
            }
            // Short-lived threads come and go, a few at a time, while the long ones record.
            for _ in 0..<(shortThreads / 4) {
                onNewThreads(4) { _ in
                    for _ in 0..<shortSpans { LaunchTracer.begin("Short").end() }
                }
            }
            group.wait()
        }
        let long = trace.threads.filter { $0.events.first.map { trace.name(of: $0) == "Long" } ?? false }
        let short = trace.threads.filter { $0.events.first.map { trace.name(of: $0) == "Short" } ?? false }
        #expect(long.count == 3)
        #expect(long.allSatisfy { $0.events.count == longSpans && $0.dropped == 0 })
        #expect(short.count == shortThreads)
        #expect(short.allSatisfy { $0.events.count == shortSpans && $0.dropped == 0 })
        #expect(Set(trace.threads.map(\.index)).count == trace.threads.count)
    }

    @Test func aFlushWhileThreadsExitSeesWholeEventsAndFinallyAll() throws {
        let threads = 16
        let spans = 2_000
        var partial: [Trace] = []
        let trace = LaunchTraceRecorder.record {
            let group = DispatchGroup()
            for _ in 0..<threads {
                group.enter()
                Thread {
                    for _ in 0..<spans { LaunchTracer.begin("Exiting").end() }
                    group.leave()
                }.start()
            }
            while group.wait(timeout: .now()) == .timedOut {
                partial.append(LaunchTracer.snapshot())
            }
        }
        for snapshot in partial + [trace] {
            for thread in snapshot.threads {
                #expect(thread.events.count <= spans)
                #expect(thread.events.allSatisfy { snapshot.name(of: $0) == "Exiting" || $0.kind == .mark })
            }
        }
        let finished = trace.threads.filter { $0.events.contains { trace.name(of: $0) == "Exiting" } }
        #expect(finished.count == threads)
        #expect(finished.allSatisfy { $0.events.count == spans && $0.events.allSatisfy { !$0.isOpen } })
        // A snapshot's file survives a round trip whatever moment it was taken at.
        if let middle = partial.dropFirst(partial.count / 2).first {
            #expect(try TraceDecoder.decode(TraceEncoder.encode(middle)) == middle)
        }
    }

    @Test func aThreadThatRecordsTenEventsHoldsOneSmallChunk() {
        _ = LaunchTraceRecorder.record {
            let before = LaunchTracer.bufferBytesInUse
            onNewThreads(1) { _ in
                for _ in 0..<10 { LaunchTracer.begin("Few").end() }
            }
            #expect(LaunchTracer.bufferBytesInUse - before == 4096)
        }
    }

    @Test func resetGivesBackTheChunksOfThreadsThatExited() {
        LaunchTraceRecorder.withExclusiveTracer {
            LaunchTracer.resetAll()
            let before = LaunchTracer.bufferBytesInUse
            onJoinedThreads(4) {
                for _ in 0..<10_000 { LaunchTracer.begin("Gone").end() }
            }
            #expect(LaunchTracer.bufferBytesInUse > before + 4 * 10_000 * eventBytes)
            LaunchTracer.resetAll()
            #expect(LaunchTracer.bufferBytesInUse <= before)
            // And the next threads reuse them: the arena does not grow.
            onNewThreads(4) { _ in
                for _ in 0..<10_000 { LaunchTracer.begin("Again").end() }
            }
            let trace = LaunchTracer.snapshot()
            #expect(trace.threads.filter { $0.events.count == 10_000 && $0.dropped == 0 }.count == 4)
            LaunchTracer.resetAll()
        }
    }

    @Test func theCapCannotGrowPastWhatWasReservedAtTheFirstEvent() {
        LaunchTraceRecorder.withExclusiveTracer {
            LaunchTracer.instant("Reserve")  // the arena exists from here on
            let limit = LaunchTracer.bufferLimitBytes
            LaunchTracer.bufferLimitBytes = limit * 4
            #expect(LaunchTracer.bufferLimitBytes == limit)
            LaunchTracer.bufferLimitBytes = limit / 2
            #expect(LaunchTracer.bufferLimitBytes == limit / 2)
            LaunchTracer.bufferLimitBytes = limit
            #expect(LaunchTracer.bufferLimitBytes == limit)
            LaunchTracer.resetAll()
        }
    }
}
