import Foundation
import LaunchTracing
import LaunchTracingTestSupport
import Testing
import _LaunchTracingShims

@Suite("Recording")
struct RecordingTests {
    struct DecodeFailure: Error {}

    @Test func spanRecordsNameCategoryCallSiteAndDuration() {
        let clock = ManualLaunchClock()
        var expectedLine: UInt32 = 0
        let trace = LaunchTraceRecorder.record(clock: clock) {
            expectedLine = #line + 1
            let span = LaunchTracer.begin("LoadSettings", category: .io)
            clock.advance(byMilliseconds: 12)
            span.end()
        }
        let spans = trace.spans(named: "LoadSettings")
        #expect(spans.count == 1)
        let span = try! #require(spans.first)
        #expect(span.durationNanoseconds == 12_000_000)
        #expect(SpanCategory(rawValue: span.category) == .io)
        #expect(trace.file(of: span) == "LaunchTracingTests/RecordingTests.swift")
        #expect(span.line == expectedLine)
        #expect(!span.isOpen)
    }

    @Test func measureReturnsAndRethrows() throws {
        let clock = ManualLaunchClock()
        var value = 0
        var caught = false
        let trace = LaunchTraceRecorder.record(clock: clock) {
            value = LaunchTracer.measure("Compute", category: .compute) {
                clock.advance(byNanoseconds: 500)
                return 42
            }
            do {
                try LaunchTracer.measure("Decode") { () throws(DecodeFailure) in
                    clock.advance(byNanoseconds: 700)
                    throw DecodeFailure()
                }
            } catch {
                caught = true
            }
        }
        #expect(value == 42)
        #expect(caught)
        #expect(trace.spans(named: "Compute").map(\.durationNanoseconds) == [500])
        // The span ends even when the body throws.
        #expect(trace.spans(named: "Decode").map(\.durationNanoseconds) == [700])
        #expect(trace.spans(named: "Decode").first?.isOpen == false)
    }

    @Test func instantsAndMilestones() {
        let clock = ManualLaunchClock(start: 5_000)
        let trace = LaunchTraceRecorder.record(clock: clock) {
            LaunchTracer.instant("CacheMiss")
            clock.advance(byNanoseconds: 10)
            LaunchTracer.mark(.firstFrame)
            clock.advance(byNanoseconds: 10)
            LaunchTracer.mark(.fullyDrawn)
        }
        let instant = trace.events(named: "CacheMiss")
        #expect(instant.map(\.kind) == [.instant])
        #expect(instant.first?.beginNanoseconds == 5_000)
        #expect(trace.milestones.map(\.milestone) == [.firstFrame, .fullyDrawn])
        #expect(trace.milestones.map(\.nanoseconds) == [5_010, 5_020])
        #expect(trace.events(named: "firstFrame").first?.kind == .mark)
    }

    @Test func disabledTracingRecordsNothing() {
        let trace = LaunchTraceRecorder.record {
            LaunchTracer.isEnabled = false
            let span = LaunchTracer.begin("Invisible")
            #expect(!span.isRecording)
            span.end()
            LaunchTracer.instant("AlsoInvisible")
            LaunchTracer.mark(.firstFrame)
            LaunchTracer.isEnabled = true
            LaunchTracer.instant("Visible")
        }
        #expect(trace.eventCount == 1)
        #expect(trace.events(named: "Visible").count == 1)
        #expect(trace.droppedCount == 0)
    }

    @Test func singleCharacterNamesAreKept() {
        let trace = LaunchTraceRecorder.record {
            LaunchTracer.begin("A").end()
            LaunchTracer.instant("é")
        }
        #expect(trace.spans(named: "A").count == 1)
        #expect(trace.events(named: "é").count == 1)
    }

    @Test func openSpansAreKeptAndMarkedOpen() {
        let clock = ManualLaunchClock(start: 100)
        let trace = LaunchTraceRecorder.record(clock: clock) {
            _ = LaunchTracer.begin("NeverEnded")
            clock.advance(byNanoseconds: 50)
        }
        let span = trace.spans(named: "NeverEnded").first
        #expect(span?.isOpen == true)
        // An open span runs to the moment the trace was taken.
        #expect(span?.endNanoseconds == 150)
    }

    @Test func threadIdentityIsRecorded() throws {
        let trace = LaunchTraceRecorder.record {
            LaunchTracer.instant("OnTestThread")
            let done = DispatchSemaphore(value: 0)
            Thread {
                // Named through the shim (pthread) directly: Foundation's `Thread.name` may leave the OS
                // name the thread inherited from its creator (a Dispatch worker's) for a while.
                lp_set_current_thread_name("lp-worker")
                LaunchTracer.instant("OnNamedThread")
                done.signal()
            }.start()
            done.wait()
        }
        let named = try #require(
            trace.threads.first { thread in
                thread.events.contains { trace.name(of: $0) == "OnNamedThread" }
            })
        #expect(named.name == "lp-worker")
        #expect(!named.isMain)
        #expect(named.osThreadID != 0)
        let indices = trace.threads.map(\.index)
        #expect(Set(indices).count == indices.count)
    }

    @Test func aThreadThatExitedKeepsTheNameItHadThen() throws {
        // Registration reads no name: a thread that exited before the flush is named by what its
        // exit kept, not by whatever thread has its id now.
        let trace = LaunchTraceRecorder.record {
            onJoinedThreads(1) {
                LaunchTracer.instant("BeforeNaming")
                lp_set_current_thread_name("lp-renamed")
                LaunchTracer.instant("AfterNaming")
            }
        }
        let exited = try #require(
            trace.threads.first { thread in
                thread.events.contains { trace.name(of: $0) == "BeforeNaming" }
            })
        #expect(exited.name == "lp-renamed")
        #expect(!exited.isMain)
    }

    @Test func resourceAccountingMeasuresBlockingAndCPU() throws {
        let trace = LaunchTraceRecorder.record {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                LaunchTracer.setResourceAccounting(true)
                LaunchTracer.measure("Spin") {
                    // 20 ms of this thread's CPU time, however busy the machine is.
                    var x: UInt64 = 1
                    let start = threadCPUNanoseconds()
                    while threadCPUNanoseconds() - start < 20_000_000 { x = x &* 6364136223846793005 &+ 1 }
                    blackHole(x)
                }
                _ = LaunchTracer.measure("Sleep") { usleep(20_000) }
                LaunchTracer.setResourceAccounting(false)
                LaunchTracer.measure("NotAccounted") {}
                done.signal()
            }
            thread.start()
            done.wait()
        }
        let thread = try #require(trace.threads.first { !$0.usage.isEmpty })
        #expect(thread.usage.count == 2)
        let byName = Dictionary(
            uniqueKeysWithValues: thread.usage.map {
                (trace.name(of: thread.events[Int($0.eventIndex)]), $0.usage)
            })
        let spin = try #require(byName["Spin"])
        let sleep = try #require(byName["Sleep"])
        // Spinning burns its 20 ms of CPU; sleeping burns almost none and blocks.
        #expect(spin.cpuNanoseconds > 15_000_000)
        #expect(sleep.cpuNanoseconds < 5_000_000)
        #expect(sleep.voluntaryContextSwitches >= 1)
    }
}

/// The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), nanoseconds.
func threadCPUNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
