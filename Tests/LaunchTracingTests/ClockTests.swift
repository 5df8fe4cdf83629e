import Foundation
import LaunchTracing
import LaunchTracingTestSupport
import Testing
import _LaunchTracingShims

@Suite("Clock")
struct ClockTests {
    @Test func convertedTimesTrackClockGettimeAndNeverGoBackwards() throws {
        var references: [(before: UInt64, after: UInt64)] = []
        let trace = LaunchTraceRecorder.record {
            let start = lp_monotonic_ns()
            // 300 instants over at least 100 ms, each bracketed by clock_gettime reads:
            // ended by a count, not by a wall-clock window that a busy machine could
            // fill with a handful of them. The 10 s cap only keeps a broken clock from
            // looping forever (and then the count check below fails).
            while references.count < 300 || lp_monotonic_ns() - start < 100_000_000,
                lp_monotonic_ns() - start < 10_000_000_000
            {
                let before = lp_monotonic_ns()
                LaunchTracer.instant("Tick")
                let after = lp_monotonic_ns()
                references.append((before, after))
                usleep(200)
            }
        }
        let events = trace.events(named: "Tick")
        #expect(events.count == references.count)
        #expect(events.count >= 300)
        // ±1 µs does not depend on load: preemption between a reference read and the
        // event only widens [before, after], and each calibration pair is the
        // narrowest of seven bracketed reads, so only the tick conversion's error counts.
        for (index, (event, reference)) in zip(events, references).enumerated() {
            let time = Int64(event.beginNanoseconds)
            #expect(
                time >= Int64(reference.before) - 1_000, "event \(index) is \(Int64(reference.before) - time) ns early")
            #expect(
                time <= Int64(reference.after) + 1_000, "event \(index) is \(time - Int64(reference.after)) ns late")
            if index > 0 { #expect(event.beginNanoseconds >= events[index - 1].beginNanoseconds) }
        }
    }

    @Test func clockSourceIsStatedInTheTrace() {
        let trace = LaunchTraceRecorder.record { LaunchTracer.instant("X") }
        #expect(trace.clockSource == LaunchTracer.clockSource)
        if trace.clockSource == .cpuCounter {
            #expect(trace.calibration.count == 2)
            #expect(trace.calibration[1].nanoseconds > trace.calibration[0].nanoseconds)
        }
        #expect(trace.runtimeInitNanoseconds > 0)
        #expect(trace.runtimeInitNanoseconds <= trace.flushNanoseconds)
    }

    @Test func spawnTimeFallsBackToTheOperatingSystem() throws {
        // The test runner was not launched by launchprof: the OS's record is used.
        try #require(ProcessInfo.processInfo.environment["LAUNCHPROF_SPAWN_NS"] == nil)
        let trace = LaunchTraceRecorder.record { LaunchTracer.instant("X") }
        let spawn = try #require(trace.spawn)
        #expect(spawn.isApproximate)
        // Within a clock tick or so of when user code started.
        #expect(spawn.nanoseconds <= trace.runtimeInitNanoseconds + 20_000_000)
        #expect(trace.runtimeInitNanoseconds - spawn.nanoseconds < 60_000_000_000)
    }
}
