import Foundation
import LaunchHarness
import LaunchTracing

/// Runs real work on a thread of its own while `MainThreadSampler` samples that
/// thread, and keeps the samples taken while the work ran.
struct SampledActivity {
    var samples: [ThreadSample]

    /// Samples per class.
    var counts: [ThreadSample.Wait: Int] {
        samples.reduce(into: [:]) { $0[$1.wait, default: 0] += 1 }
    }

    /// The class most samples fell in.
    var majority: ThreadSample.Wait? {
        counts.max { $0.value < $1.value }?.key
    }

    /// The share of samples in `wait`.
    func share(_ wait: ThreadSample.Wait) -> Double {
        samples.isEmpty ? 0 : Double(counts[wait, default: 0]) / Double(samples.count)
    }

    /// How many times the work ran.
    var runs = 0

    /// Runs `work` on a thread of its own, sampled every `intervalMicroseconds`,
    /// and keeps the samples taken while it ran. On a busy machine the sampler
    /// may get few turns: the work then runs again (`before` first, unsampled),
    /// up to `attempts` times in all, until `minimumSamples` were taken.
    static func run(
        minimumSamples: Int, attempts: Int = 5, intervalMicroseconds: Int = 500, sleepsWhileRunning: Bool = false,
        before: @escaping @Sendable () -> Void = {}, _ work: @escaping @Sendable () -> Void
    ) -> SampledActivity {
        var activity = SampledActivity(samples: [])
        while activity.runs < attempts, activity.samples.count < minimumSamples {
            activity.samples += once(
                intervalMicroseconds: intervalMicroseconds, sleepsWhileRunning: sleepsWhileRunning, before: before, work
            )
            activity.runs += 1
        }
        return activity
    }

    private static func once(
        intervalMicroseconds: Int, sleepsWhileRunning: Bool, before: @escaping @Sendable () -> Void,
        _ work: @escaping @Sendable () -> Void
    ) -> [ThreadSample] {
        let threadID = Locked<UInt64>(0)
        let window = Locked<(start: UInt64, end: UInt64)>((0, 0))
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            threadID.value = System.currentThreadID
            before()
            ready.signal()
            go.wait()
            let start = System.monotonicNanoseconds
            work()
            window.value = (start, System.monotonicNanoseconds)
            done.signal()
        }
        thread.name = "lp-sampled-activity"
        thread.start()
        ready.wait()
        let sampler = MainThreadSampler(
            threadID: threadID.value, intervalMicroseconds: intervalMicroseconds, sleepsWhileRunning: sleepsWhileRunning
        )
        sampler.start()
        go.signal()
        done.wait()
        let all = sampler.stop()
        let (start, end) = window.value
        return all.filter { $0.nanoseconds >= start && $0.nanoseconds <= end }
    }
}

extension SampledActivity: CustomStringConvertible {
    var description: String {
        let parts = ThreadSample.Wait.allCases.compactMap { wait in counts[wait].map { "\(wait): \($0)" } }
        let syscalls = Dictionary(grouping: samples, by: \.syscall).mapValues(\.count)
            .sorted { $0.value > $1.value }.prefix(4).map { "\($0.key)×\($0.value)" }
        return
            "\(samples.count) samples in \(runs) run(s) (\(parts.joined(separator: ", "))); syscalls \(syscalls.joined(separator: " "))"
    }
}
