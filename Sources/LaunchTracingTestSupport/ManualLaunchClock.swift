import LaunchTracing
import _LaunchTracingShims

/// A clock that moves only when a test tells it to, for deterministic tests of
/// launch code.
///
/// While a ``LaunchTraceRecorder`` records with a manual clock, every event the
/// tracer records is stamped with this clock's reading.
///
/// ```swift
/// let clock = ManualLaunchClock()
/// let trace = LaunchTraceRecorder.record(clock: clock) {
///     let span = LaunchTracer.begin("Work")
///     clock.advance(byMilliseconds: 5)
///     span.end()
/// }
/// // trace's "Work" span lasts exactly 5 ms.
/// ```
public final class ManualLaunchClock: Sendable {
    /// Creates a clock reading `start` nanoseconds.
    public init(start: UInt64 = 1_000_000_000) {
        initial = start
    }

    let initial: UInt64

    /// The clock's reading, nanoseconds. Meaningful while it is installed.
    public var now: UInt64 { lp_manual_get() }

    /// Moves the clock forward by `nanoseconds`.
    public func advance(byNanoseconds nanoseconds: UInt64) {
        lp_manual_set(lp_manual_get() &+ nanoseconds)
    }

    /// Moves the clock forward by `milliseconds` (NaN and negative values by
    /// nothing, values past `UInt64.max` nanoseconds by that much).
    public func advance(byMilliseconds milliseconds: Double) {
        let nanoseconds = milliseconds * 1_000_000
        advance(byNanoseconds: !(nanoseconds > 0) ? 0 : nanoseconds >= 0x1p64 ? .max : UInt64(nanoseconds))
    }
}
