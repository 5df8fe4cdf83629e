import Foundation
import LaunchTracing
import LaunchTracingTestSupport
import Testing

@Suite("Per-thread buffers")
struct BufferTests {
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

    @Test func eightThreadsAllEventsAccountedFor() {
        let spansPerThread = 100_000
        let capacity = 60_000
        let trace = LaunchTraceRecorder.record {
            let previous = LaunchTracer.eventsPerThread
            LaunchTracer.eventsPerThread = capacity
            defer { LaunchTracer.eventsPerThread = previous }
            onNewThreads(8) { _ in
                for _ in 0..<spansPerThread {
                    LaunchTracer.begin("Work").end()
                }
            }
        }
        let workers = trace.threads.filter { $0.events.contains { trace.name(of: $0) == "Work" } }
        #expect(workers.count == 8)
        let recorded = workers.reduce(0) { $0 + UInt64($1.events.count) }
        let dropped = workers.reduce(0) { $0 + $1.dropped }
        #expect(recorded + dropped == UInt64(8 * spansPerThread))
        for worker in workers {
            #expect(worker.events.count == capacity)
            #expect(worker.dropped == UInt64(spansPerThread - capacity))
            #expect(worker.events.allSatisfy { !$0.isOpen })
        }
    }

    @Test func overflowCountsDropsExactly() throws {
        let trace = LaunchTraceRecorder.record {
            let previous = LaunchTracer.eventsPerThread
            LaunchTracer.eventsPerThread = 10
            defer { LaunchTracer.eventsPerThread = previous }
            onNewThreads(1) { _ in
                for _ in 0..<25 { LaunchTracer.begin("Span").end() }
                for _ in 0..<5 { LaunchTracer.instant("Instant") }
                LaunchTracer.mark(.firstFrame)
                // A span begun with a full buffer is inert: ending it is harmless.
                let span = LaunchTracer.begin("Late")
                #expect(!span.isRecording)
                span.end()
            }
        }
        let thread = try #require(trace.threads.first { $0.events.count == 10 })
        #expect(thread.dropped == 15 + 5 + 1 + 1)
        #expect(thread.events.allSatisfy { trace.name(of: $0) == "Span" })
    }

    @Test func zeroCapacityDropsEverythingWithoutCrashing() throws {
        let trace = LaunchTraceRecorder.record {
            let previous = LaunchTracer.eventsPerThread
            LaunchTracer.eventsPerThread = 0
            defer { LaunchTracer.eventsPerThread = previous }
            onNewThreads(1) { _ in
                for _ in 0..<3 { LaunchTracer.begin("Span").end() }
            }
        }
        #expect(trace.threads.contains { $0.events.isEmpty && $0.dropped == 3 })
    }
}
