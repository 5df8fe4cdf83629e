import LaunchTracing

/// Where one run's monotonic clock stood on the wall clock: the moment the
/// run was spawned, read on both clocks, so any of its trace's timestamps can
/// be placed in calendar time (``unixNanoseconds(atMonotonic:)``).
///
/// The monotonic clock has no calendar meaning and restarts with the machine;
/// exporters that need absolute times (OpenTelemetry's Unix nanoseconds) map
/// through this anchor once per run, so the spans of a run keep their exact
/// offsets from one another.
///
/// ```swift
/// if let anchor = run.wallClock {
///     let start = anchor.unixNanoseconds(atMonotonic: span.beginNanoseconds)
/// }
/// ```
public struct WallClockAnchor: Sendable, Codable, Equatable {
    /// The run's spawn on the monotonic clock (the trace's clock), nanoseconds.
    public var monotonicNanoseconds: UInt64
    /// The same moment on the wall clock, nanoseconds since 1970-01-01T00:00:00Z.
    public var unixNanoseconds: UInt64

    /// Makes an anchor from one moment read on both clocks.
    public init(monotonicNanoseconds: UInt64, unixNanoseconds: UInt64) {
        self.monotonicNanoseconds = monotonicNanoseconds
        self.unixNanoseconds = unixNanoseconds
    }

    /// The wall-clock time of a monotonic timestamp of the same run, Unix nanoseconds.
    public func unixNanoseconds(atMonotonic nanoseconds: UInt64) -> UInt64 {
        nanoseconds >= monotonicNanoseconds
            ? unixNanoseconds &+ (nanoseconds - monotonicNanoseconds)
            : unixNanoseconds.subtractingClamped(monotonicNanoseconds - nanoseconds)
    }
}
