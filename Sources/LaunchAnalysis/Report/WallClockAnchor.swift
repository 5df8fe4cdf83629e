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
            ? unixNanoseconds.addingClamped(nanoseconds - monotonicNanoseconds)
            : unixNanoseconds.subtractingClamped(monotonicNanoseconds - nanoseconds)
    }

    /// A Unix time as UTC to the millisecond, for people: `2026-11-25T23:23:53.123Z`
    /// (the civil calendar from days since 1970, proleptic Gregorian).
    public static func utcText(unixNanoseconds: UInt64) -> String {
        let milliseconds = unixNanoseconds / 1_000_000
        let days = Int64(milliseconds / 86_400_000)
        let inDay = Int64(milliseconds % 86_400_000)
        // Days since 1970-01-01 to year, month, day (Howard Hinnant's civil_from_days).
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = inDay % 1_000
        return
            "\(year)-\(two(month))-\(two(day))T\(two(inDay / 3_600_000)):\(two(inDay / 60_000 % 60)):\(two(inDay / 1_000 % 60))."
            + (millis < 10 ? "00" : millis < 100 ? "0" : "") + "\(millis)Z"
    }
}
