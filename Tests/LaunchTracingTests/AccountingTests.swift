import Foundation
import LaunchTracing
import LaunchTracingTestSupport
import Testing
import _LaunchTracingShims

/// Per-span accounting that reads the thread's usage only where something could
/// have changed, and attributes the rest.
@Suite("Accounting")
struct AccountingTests {
    /// What a reference reading of the calling thread says: wall, CPU and run-queue time.
    struct Reference {
        var wall: UInt64
        var cpu: UInt64
        var runQueue: UInt64

        /// Read just before a span: the clocks last, so the schedstat read is outside.
        /// A reading the thread was switched out in the middle of (its schedstat's
        /// timeslice count moved) is taken again: its run-queue wait and its clocks
        /// would be of different moments.
        static func before(_ schedstat: Int32) -> Reference {
            while true {
                let (runQueue, slices) = schedstatFields(schedstat)
                let cpu = threadCPUNanoseconds()
                let wall = monotonicNanoseconds()
                if schedstatFields(schedstat).timeslices == slices {
                    return Reference(wall: wall, cpu: cpu, runQueue: runQueue)
                }
            }
        }

        /// Read just after a span: the clocks first (taken again, later, if the thread
        /// was switched out in the middle).
        static func after(_ schedstat: Int32) -> Reference {
            while true {
                let slices = schedstatFields(schedstat).timeslices
                let wall = monotonicNanoseconds()
                let cpu = threadCPUNanoseconds()
                let (runQueue, slicesAfter) = schedstatFields(schedstat)
                if slicesAfter == slices { return Reference(wall: wall, cpu: cpu, runQueue: runQueue) }
            }
        }

        /// Off-CPU time from `self` to `later`: wall − CPU − run-queue wait.
        func offCPU(to later: Reference) -> UInt64 {
            (later.wall - wall).subtractingClamped(later.cpu - cpu).subtractingClamped(later.runQueue - runQueue)
        }
    }

    /// Runs `body` on a new thread with accounting on; returns the trace.
    private func recordAccounted(clock: ManualLaunchClock? = nil, _ body: @escaping @Sendable () -> Void) -> Trace {
        LaunchTraceRecorder.record(clock: clock) {
            let done = DispatchSemaphore(value: 0)
            Thread {
                LaunchTracer.setResourceAccounting(true)
                body()
                LaunchTracer.setResourceAccounting(false)
                done.signal()
            }.start()
            done.wait()
        }
    }

    @Test func tenThousandSpansPayAtMostOneSystemCallInTen() {
        let calls = Counter()
        let trace = recordAccounted {
            for _ in 0..<10_000 { LaunchTracer.begin("Row").end() }
            calls.value = LaunchTracer.accountingSystemCalls
        }
        // Some were read (the first at least), most attributed; a read costs 1 to 4 calls.
        #expect(calls.value >= 1)
        #expect(calls.value <= 1_000, "\(calls.value) system calls for 10,000 accounted spans")
        let thread = trace.threads.first { !$0.usage.isEmpty }
        #expect(thread?.usage.count == 10_000)
    }

    /// A boundary soon after a reading is attributed; when the thread then left the
    /// CPU before the next reading, and the boundary came 3 µs or more after the
    /// reading (the wait could lie before it), the span is marked an estimate. The
    /// manual clock decides which boundaries are read (the tracer's ticks), whatever the load.
    private func recordAttributedAcrossAWait() -> Trace {
        let clock = ManualLaunchClock()
        return recordAccounted(clock: clock) {
            let lead = LaunchTracer.begin("Lead")  // the first boundary: read
            clock.advance(byNanoseconds: 1_000)
            lead.end()  // attributed, and the thread stays on the CPU until…
            clock.advance(byNanoseconds: 5_000)
            let blocked = LaunchTracer.begin("Blocked")  // attributed, 6 µs after the reading
            usleep(2_000)
            clock.advance(byMilliseconds: 3)
            blocked.end()  // read: the thread left the CPU since the last reading
        }
    }

    /// The same wait, but the span begins 2 µs after the reading: less than
    /// `LP_OFF_CPU_GAP_NS` (3 µs), in which no wait fits, so the thread ran up to the
    /// begin and its attribution is exact, not an estimate. After the last reading the
    /// same holds: a span within 3 µs of it is exact, one begun 5 µs after it is not.
    @Test func aBoundaryLessThan3MicrosecondsAfterItsReadingIsExact() throws {
        let clock = ManualLaunchClock()
        let trace = recordAccounted(clock: clock) {
            let lead = LaunchTracer.begin("Lead")  // the first boundary: read
            clock.advance(byNanoseconds: 1_000)
            lead.end()
            clock.advance(byNanoseconds: 1_000)
            let blocked = LaunchTracer.begin("Blocked")  // attributed, 2 µs after the reading
            usleep(2_000)
            clock.advance(byMilliseconds: 3)
            blocked.end()  // read: the last reading
            clock.advance(byNanoseconds: 1_000)
            let tail = LaunchTracer.begin("Tail")  // 1 µs after it
            clock.advance(byNanoseconds: 1_000)
            tail.end()  // 2 µs after it
            clock.advance(byNanoseconds: 3_000)
            let late = LaunchTracer.begin("LateTail")  // 5 µs after it
            usleep(200)
            clock.advance(byNanoseconds: 1_000)
            late.end()
        }
        let thread = try #require(trace.threads.first { !$0.usage.isEmpty })
        let byName = Dictionary(
            uniqueKeysWithValues: thread.usage.map { (trace.name(of: thread.events[Int($0.eventIndex)]), $0) })
        let blocked = try #require(byName["Blocked"])
        #expect(!blocked.isEstimated)
        #expect(blocked.usage.voluntaryContextSwitches >= 1)
        #expect(blocked.usage.cpuNanoseconds < 2_000_000)
        #expect(byName["Tail"]?.isEstimated == false)
        #expect(byName["LateTail"]?.isEstimated == true)
    }

    /// Past the 40 µs granularity a boundary is read only once the gaps between
    /// consecutive boundaries that could have held a wait (3 µs or more) add up to
    /// `LP_ACCOUNTING_WAITABLE_NS` (10 µs), or once the last reading is
    /// `LP_ACCOUNTING_LONGEST_NS` (0.5 ms) old; a run of closer boundaries is attributed.
    /// The manual clock's ticks decide, whatever the load.
    @Test func closeBoundariesAreReadOnlyOnceTheirGapsCouldHoldAWaitOrTheLastReadingIsOld() {
        let clock = ManualLaunchClock()
        let counts = ReadingCounts()
        _ = recordAccounted(clock: clock) {
            LaunchTracer.begin("First").end()  // the first boundary: read
            func readings(_ body: () -> Void) -> Int {
                let before = lp_account_reading_count(lp_current_buffer())
                body()
                return lp_account_reading_count(lp_current_buffer()) - before
            }
            // 450 µs of 2 µs spans 1 µs apart: past the granularity, but no gap of 3 µs.
            counts.quiet = readings {
                for _ in 0..<150 {
                    clock.advance(byNanoseconds: 1_000)
                    let span = LaunchTracer.begin("Quiet")
                    clock.advance(byNanoseconds: 2_000)
                    span.end()
                }
            }
            // Two gaps of 5 µs, each long enough to hold a wait: together 10 µs, read.
            counts.waitable = readings {
                for _ in 0..<2 {
                    clock.advance(byNanoseconds: 5_000)
                    LaunchTracer.begin("Gap").end()
                }
            }
            // 50 µs later (past the granularity again), one gap: read.
            counts.afterGap = readings {
                clock.advance(byNanoseconds: 50_000)
                LaunchTracer.begin("AfterGap").end()
            }
            // 700 µs of close boundaries: read once, when the last reading is 0.5 ms old.
            counts.long = readings {
                for _ in 0..<700 {
                    clock.advance(byNanoseconds: 1_000)
                    LaunchTracer.begin("Quiet").end()
                }
            }
        }
        #expect(counts.quiet == 0, "\(counts.quiet) readings for 450 µs of close boundaries past the granularity")
        #expect(counts.waitable == 1, "\(counts.waitable) readings after two 5 µs gaps")
        #expect(counts.afterGap == 1)
        #expect(counts.long == 1, "\(counts.long) readings for 0.7 ms of close boundaries")
    }

    @Test func aBoundaryAttributedAcrossAWaitIsAnEstimate() throws {
        let trace = recordAttributedAcrossAWait()
        let thread = try #require(trace.threads.first { !$0.usage.isEmpty })
        let byName = Dictionary(
            uniqueKeysWithValues: thread.usage.map { (trace.name(of: thread.events[Int($0.eventIndex)]), $0) })
        let blocked = try #require(byName["Blocked"])
        #expect(blocked.isEstimated)
        // It slept: some voluntary switch, and little CPU against its 2 ms or more of wall time.
        #expect(blocked.usage.voluntaryContextSwitches >= 1)
        #expect(blocked.usage.cpuNanoseconds < 2_000_000)
    }

    @Test func longSpansAgreeWithReadingsAtTheirBoundaries() throws {
        let references = ReferenceLog()
        let trace = recordAccounted {
            // Each long span comes right after a short one, so its begin is often attributed
            // rather than read; CPU work, one long wait, many short waits, and a mix.
            let shapes: [(StaticString, () -> Void)] = [
                ("Compute", { spin(cpuNanoseconds: 3_000_000) }),
                ("OneWait", { usleep(1_200) }),
                ("ShortWaits", { for _ in 0..<20 { usleep(100) } }),
                (
                    "Mixed",
                    {
                        for _ in 0..<5 {
                            spin(cpuNanoseconds: 300_000)
                            usleep(200)
                        }
                    }
                ),
            ]
            let schedstat = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)
            defer { close(schedstat) }
            for _ in 0..<3 {
                for (name, work) in shapes {
                    LaunchTracer.begin("Lead").end()
                    let before = Reference.before(schedstat)
                    let span = LaunchTracer.begin(name)
                    work()
                    span.end()
                    references.append(before, Reference.after(schedstat))
                }
            }
        }
        let thread = try #require(trace.threads.first { !$0.usage.isEmpty })
        let long = thread.usage.filter { trace.name(of: thread.events[Int($0.eventIndex)]) != "Lead" }
        #expect(long.count == references.pairs.count)
        for (usage, reference) in zip(long, references.pairs) {
            let event = thread.events[Int(usage.eventIndex)]
            let wall = event.durationNanoseconds
            #expect(wall >= 1_000_000)
            let cpu = reference.1.cpu - reference.0.cpu
            let offCPU = reference.0.offCPU(to: reference.1)
            let tracedOff = wall.subtractingClamped(usage.usage.cpuNanoseconds)
                .subtractingClamped(usage.usage.runQueueNanoseconds ?? 0)
            let bound = max(50_000, (reference.1.wall - reference.0.wall) / 20)
            // The references bracket the span from outside: the tracer's own begin and end
            // (its readings, a reading block's allocation) fall between them and the span's
            // stamps. A wait there (under load, a page fault queued behind another test's
            // mmap) is in the references alone, never in the span: allowed, and no more.
            let outside = (reference.1.wall - reference.0.wall).subtractingClamped(wall)
            let name = trace.name(of: event)
            #expect(
                distance(usage.usage.cpuNanoseconds, cpu) <= bound + outside,
                "\(name): CPU \(usage.usage.cpuNanoseconds) ns, read \(cpu) ns; wall \(wall) ns, read \(reference.1.wall - reference.0.wall) ns; run queue \(usage.usage.runQueueNanoseconds ?? 0) ns, read \(reference.1.runQueue - reference.0.runQueue) ns; estimated \(usage.isEstimated)"
            )
            #expect(
                distance(tracedOff, offCPU) <= bound + outside,
                "\(name): off-CPU \(tracedOff) ns, read \(offCPU) ns; \(outside) ns between the references and the span"
            )
        }
    }

    @Test func estimatesSurviveTheTraceFile() throws {
        let trace = recordAttributedAcrossAWait()
        let decoded = try TraceDecoder.decode(TraceEncoder.encode(trace))
        let before = try #require(trace.threads.first { !$0.usage.isEmpty })
        let after = try #require(decoded.threads.first { !$0.usage.isEmpty })
        #expect(after.usage.map(\.isEstimated) == before.usage.map(\.isEstimated))
        #expect(after.usage.contains { $0.isEstimated })
    }

    @Test func aSpanEndedOnAnotherThreadIsNotAccounted() throws {
        let trace = recordAccounted {
            let span = LaunchTracer.begin("Handed")
            let done = DispatchSemaphore(value: 0)
            Thread {
                span.end()
                done.signal()
            }.start()
            done.wait()
            LaunchTracer.begin("Kept").end()
        }
        let thread = try #require(trace.threads.first { !$0.usage.isEmpty })
        let names = thread.usage.map { trace.name(of: thread.events[Int($0.eventIndex)]) }
        #expect(names == ["Kept"])
    }
    /// A flush may run while an accounted thread records: it sees whole readings for the
    /// spans it sees, however often the thread's readings outgrow their storage. The
    /// manual clock moves 50 µs a boundary, so every boundary is read (tens of thousands
    /// of readings); the main thread takes snapshots until the recording thread is done.
    @Test func aFlushWhileAnAccountedThreadRecordsSeesWholeReadings() throws {
        let clock = ManualLaunchClock()
        let spans = 6_000
        var partial: [Trace] = []
        let trace = LaunchTraceRecorder.record(clock: clock) {
            let done = DispatchSemaphore(value: 0)
            Thread {
                LaunchTracer.setResourceAccounting(true)
                for _ in 0..<spans {
                    let span = LaunchTracer.begin("Row")
                    clock.advance(byNanoseconds: 50_000)
                    span.end()
                    clock.advance(byNanoseconds: 50_000)
                }
                LaunchTracer.setResourceAccounting(false)
                done.signal()
            }.start()
            while done.wait(timeout: .now()) == .timedOut {
                partial.append(LaunchTracer.snapshot())
            }
        }
        #expect(!partial.isEmpty)
        for snapshot in partial + [trace] {
            for thread in snapshot.threads where thread.events.contains(where: { snapshot.name(of: $0) == "Row" }) {
                let closed = thread.events.filter { $0.kind == .span && !$0.isOpen }
                // Every closed span has usage, from readings that are whole: CPU time of a
                // span of 50 µs that was read at both ends is the thread clock's, never garbage.
                #expect(thread.usage.count == closed.count)
                #expect(thread.usage.allSatisfy { $0.usage.cpuNanoseconds < 1_000_000_000 })
            }
        }
        let rows = try #require(trace.threads.first { !$0.usage.isEmpty })
        #expect(rows.usage.count == spans)
        #expect(rows.usage.allSatisfy { !$0.isEstimated })
    }
}

final class Counter: @unchecked Sendable { var value: UInt64 = 0 }

final class ReadingCounts: @unchecked Sendable { var quiet = 0, waitable = 0, afterGap = 0, long = 0 }

final class ReferenceLog: @unchecked Sendable {
    var pairs: [(AccountingTests.Reference, AccountingTests.Reference)] = []
    func append(_ before: AccountingTests.Reference, _ after: AccountingTests.Reference) {
        pairs.append((before, after))
    }
}

private func distance(_ a: UInt64, _ b: UInt64) -> UInt64 { a > b ? a - b : b - a }

/// Burns `cpuNanoseconds` of the calling thread's CPU time.
func spin(cpuNanoseconds: UInt64) {
    var x: UInt64 = 1
    let start = threadCPUNanoseconds()
    while threadCPUNanoseconds() - start < cpuNanoseconds { x = x &* 6364136223846793005 &+ 1 }
    blackHole(x)
}

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// The run-queue wait (nanoseconds) and the count of timeslices (times the thread
/// was put on a CPU) in the calling thread's open schedstat; zeros where there is none.
func schedstatFields(_ schedstat: Int32) -> (runQueue: UInt64, timeslices: UInt64) {
    var bytes = [UInt8](repeating: 0, count: 96)
    let count = pread(schedstat, &bytes, bytes.count, 0)
    guard count > 0 else { return (0, 0) }
    let fields = bytes[0..<count].split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") })
    func field(_ index: Int) -> UInt64 {
        fields.count > index ? UInt64(String(decoding: fields[index], as: UTF8.self)) ?? 0 : 0
    }
    return (field(1), field(2))
}
