import Foundation
import LaunchTracing
import LaunchTracingTestSupport
import Testing
import _LaunchTracingShims

/// Readings taken while a thread's switch count stays put (the head of a switch
/// watch's ring, lent to accounting with `lp_account_count_switches`) need no system
/// call: the thread did not leave the CPU since its last reading, so its CPU clock ran
/// with the wall clock. The count here is two words of the test's own; the manual
/// clock decides which boundaries are read, whatever the load.
@Suite("Accounting: readings while the thread stays on the CPU")
struct QuietReadingTests {
    /// What each read boundary was: taken without a system call or not, and its reading.
    final class Log: @unchecked Sendable {
        var lent = false
        /// Per stage, one entry a span: (quiet readings before, after; system calls before, after).
        var stages: [String: [(quiet: Range<UInt64>, calls: Range<UInt64>)]] = [:]
        var readings: [lp_reading] = []
    }

    @Test func aReadingWhileTheCountStaysPutTakesNoSystemCallAndAMovedCountReadsAgain() throws {
        let clock = ManualLaunchClock()
        let log = Log()
        _ = LaunchTraceRecorder.record(clock: clock) {
            let done = DispatchSemaphore(value: 0)
            Thread {
                LaunchTracer.setResourceAccounting(true)
                let words = UnsafeMutablePointer<UInt64>.allocate(capacity: 2)  // the ring's head, then its tail
                words.initialize(repeating: 0, count: 2)
                log.lent = lp_account_count_switches(lp_thread_id(), words, words + 1, 4_096) == 1
                func stage(_ name: String, spans: Int) {
                    for _ in 0..<spans {
                        // 100 µs after the last boundary: past the granularity, a gap that could hold a wait: read.
                        clock.advance(byNanoseconds: 100_000)
                        let quiet = LaunchTracer.accountingReadingsWithoutSystemCall
                        let calls = LaunchTracer.accountingSystemCalls
                        LaunchTracer.begin("Span").end()
                        log.stages[name, default: []].append(
                            (
                                quiet..<LaunchTracer.accountingReadingsWithoutSystemCall,
                                calls..<LaunchTracer.accountingSystemCalls
                            ))
                    }
                }
                stage("first", spans: 1)
                stage("still", spans: 30)
                words[0] = 48  // a switch record written: the thread left the CPU
                stage("moved", spans: 1)
                stage("stillAgain", spans: 5)
                words[0] = 48 + 4_000  // more than half the ring unread: a record could be lost
                stage("nearlyFull", spans: 5)
                lp_account_stop_counting_switches(words)
                words[1] = words[0]
                stage("returned", spans: 3)
                if let buffer = lp_current_buffer() {
                    let count = lp_account_reading_count(buffer)
                    log.readings = [lp_reading](repeating: lp_reading(), count: count)
                    _ = log.readings.withUnsafeMutableBufferPointer {
                        lp_account_copy_readings(buffer, $0.baseAddress, count)
                    }
                }
                words.deallocate()
                LaunchTracer.setResourceAccounting(false)
                done.signal()
            }.start()
            done.wait()
        }
        #expect(log.lent)
        func quiet(_ name: String) -> [Bool] { (log.stages[name] ?? []).map { !$0.quiet.isEmpty } }
        // Every read boundary is one or the other: no system call when quiet, some when not.
        for (name, spans) in log.stages {
            for span in spans {
                #expect(span.quiet.isEmpty != span.calls.isEmpty, "\(name): \(span)")
            }
        }
        #expect(quiet("first") == [false])  // a thread's first reading reads
        // Within LP_ACCOUNTING_QUIET_LONGEST_NS (2 ms) of the last reading that read; a
        // thread held off the CPU that long reads again, so not every one need be quiet.
        #expect(quiet("still").contains(true))
        #expect(quiet("moved") == [false])
        #expect(quiet("nearlyFull").allSatisfy { !$0 })
        #expect(quiet("returned").allSatisfy { !$0 })
        // A quiet reading's CPU clock ran with the wall clock since the reading before it.
        var index = 0
        for stage in ["first", "still", "moved", "stillAgain", "nearlyFull", "returned"] {
            for span in log.stages[stage] ?? [] {
                defer { index += 1 }
                guard !span.quiet.isEmpty, index > 0, index < log.readings.count else { continue }
                let (before, after) = (log.readings[index - 1], log.readings[index])
                #expect(after.cpu_ns - before.cpu_ns == after.wall_ns - before.wall_ns, "\(stage)")
                #expect(after.voluntary_switches == before.voluntary_switches)
            }
        }
        #expect(index == log.readings.count, "one reading a span")
        // The CPU clock read again after quiet readings (which ran it with the wall clock, past
        // the time the thread really had) never goes back: the difference counts as off the CPU.
        #expect(zip(log.readings, log.readings.dropFirst()).allSatisfy { $0.cpu_ns <= $1.cpu_ns })
    }
}
