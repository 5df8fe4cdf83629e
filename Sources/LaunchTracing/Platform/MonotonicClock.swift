// The one time base: CLOCK_MONOTONIC on Linux, the continuous clock on Darwin
// (the shims' `lp_monotonic_ns` holds the `#if`).

import _LaunchTracingShims

/// The clock every LaunchProf timestamp is on, read directly.
///
/// CLOCK_MONOTONIC nanoseconds on Linux: system-wide, so `launchprof`'s spawn
/// time and the launched app's trace compare directly. On Darwin, the same
/// continuous clock the tracer converts its ticks to. One `clock_gettime` call;
/// thread-safe.
///
/// ```swift
/// let start = MonotonicClock.nanoseconds
/// work()
/// let elapsed = MonotonicClock.nanoseconds - start
/// ```
package enum MonotonicClock {
    /// Nanoseconds on the monotonic clock now.
    package static var nanoseconds: UInt64 { lp_monotonic_ns() }
}
