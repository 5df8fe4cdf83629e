import _LaunchTracingShims

/// The clock a trace's timestamps were read from.
///
/// Every timestamp in a decoded ``Trace`` is in nanoseconds on one base:
/// CLOCK_MONOTONIC on Linux, the continuous monotonic clock on Darwin. The
/// source says how the tracer got there.
public enum TraceClockSource: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// Raw CPU ticks (rdtsc with an invariant TSC on x86_64, the virtual counter
    /// on arm64), converted with calibration pairs taken at start and at flush.
    case cpuCounter = 0
    /// `clock_gettime(CLOCK_MONOTONIC)` read directly.
    case monotonic = 1
    /// A manual clock (tests), in nanoseconds.
    case manual = 2

    init(tickSource: Int32) {
        switch tickSource {
        case Int32(LP_TICK_SOURCE_CPU_COUNTER.rawValue): self = .cpuCounter
        case Int32(LP_TICK_SOURCE_MANUAL.rawValue): self = .manual
        default: self = .monotonic
        }
    }

    public var description: String {
        switch self {
        case .cpuCounter:
            #if arch(x86_64)
                return "tsc"
            #else
                return "cpu-counter"
            #endif
        case .monotonic: return "clock_gettime(CLOCK_MONOTONIC)"
        case .manual: return "manual"
        }
    }
}

/// One (ticks, nanoseconds) pair read back to back, used to convert CPU ticks.
public struct CalibrationPair: Sendable, Hashable {
    public var ticks: UInt64
    public var nanoseconds: UInt64

    public init(ticks: UInt64, nanoseconds: UInt64) {
        self.ticks = ticks
        self.nanoseconds = nanoseconds
    }
}

/// Converts ticks to nanoseconds by linear interpolation between two pairs.
struct TickConverter {
    let source: TraceClockSource
    let start: CalibrationPair
    let end: CalibrationPair
    private let nanosecondsPerTick: Double

    init(source: TraceClockSource, start: CalibrationPair, end: CalibrationPair) {
        self.source = source
        self.start = start
        self.end = end
        let tickSpan = Double(Int64(bitPattern: end.ticks &- start.ticks))
        let nanoSpan = Double(Int64(bitPattern: end.nanoseconds &- start.nanoseconds))
        nanosecondsPerTick = tickSpan > 0 ? nanoSpan / tickSpan : 1
    }

    @inline(__always)
    func nanoseconds(_ ticks: UInt64) -> UInt64 {
        guard source == .cpuCounter else { return ticks }
        let delta = Double(Int64(bitPattern: ticks &- start.ticks))
        let converted = Double(start.nanoseconds) + delta * nanosecondsPerTick
        return converted <= 0 ? 0 : Self.roundedHalfAwayFromZero(converted)
    }

    /// `UInt64(value.rounded())` for a positive `value`, without the call into libm's
    /// `round` (a tenth of a flush's cost a span): the part after the point is exact
    /// (below 2⁵², subtracting the truncated whole loses nothing; above, there is none).
    @inline(__always)
    static func roundedHalfAwayFromZero(_ value: Double) -> UInt64 {
        // 146 years of nanoseconds: not a clock reading (a damaged file's calibration may give anything)
        guard value < 0x1p62 else { return value.isNaN ? 0 : value >= 0x1p64 ? .max : UInt64(value.rounded()) }
        let whole = Int64(value)  // signed conversions are one instruction each way
        return UInt64(value - Double(whole) >= 0.5 ? whole + 1 : whole)
    }
}
