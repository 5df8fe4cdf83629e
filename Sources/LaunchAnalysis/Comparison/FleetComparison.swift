/// How one metric compared across machines: the stratified test, the machines
/// that took part with each one's own shift, and the machines left out.
///
/// Present on a ``MetricComparison`` (and, for the primary metric, on the
/// ``ComparisonReport``) when the comparison was stratified by machine (a fleet
/// comparison: several stored reports per side, or a pooled report). In JSON,
/// the property names as written.
///
/// ```swift
/// if let fleet = report.primary?.fleet {
///     for machine in fleet.machines { print(machine.machine, machine.shiftPercent) }
///     for machine in fleet.leftOut { print("left out: \(machine.machine), \(machine.side) only") }
/// }
/// ```
public struct FleetComparison: Sendable, Equatable, Codable {
    /// One machine that has launches on both sides.
    public struct Machine: Sendable, Equatable, Codable {
        /// The machine key (``MachineEnvironment/machine``).
        public var machine: String
        /// Its base launches that count (finite values).
        public var baseCount: Int
        /// Its head launches that count.
        public var headCount: Int
        /// The median of its base launches, milliseconds.
        public var baseMedianMs: Double
        /// The median of its head launches, milliseconds.
        public var headMedianMs: Double
        /// Its own Hodges–Lehmann shift (median of its head − base log differences),
        /// milliseconds at its base median: baseMedian · (eˢ − 1).
        public var shiftMs: Double
        /// Its own shift in percent: 100 · (eˢ − 1).
        public var shiftPercent: Double
        /// Its own shape check (its head against its base, ``ShapeCheck``): launches of
        /// different machines are never pooled, so in a fleet the check is made per
        /// machine. Nil when a side has fewer than 5 launches on it, and in reports
        /// written before schema version 4.
        public var shape: ShapeCheck?
    }

    /// One side of a comparison.
    public typealias Side = ComparisonSide

    /// A machine with launches on one side only: reported, and left out of the statistics.
    public struct LeftOut: Sendable, Equatable, Codable {
        /// The machine key.
        public var machine: String
        /// The side it has launches on.
        public var side: Side
        /// How many launches it has there.
        public var launches: Int
    }

    /// The test that decided across machines. In JSON, `van-elteren` or `mann-whitney`.
    public enum Test: String, Sendable, Equatable, Codable {
        /// Van Elteren's stratified test, and the interval from inverting it: two or more machines took part.
        case vanElteren = "van-elteren"
        /// One machine took part: its single-machine statistics apply as they are
        /// (exact test when possible, Moses interval).
        case mannWhitney = "mann-whitney"
    }

    /// The test that combined the machines.
    public var test: Test
    /// Van Elteren's T = Σ W/(N + 1) over the machines (the head's rank sums),
    /// nil when one machine took part.
    public var statistic: Double?
    /// Its z-score under the null, nil when one machine took part.
    public var z: Double?
    /// How many bootstrap resamples gave the interval: 0 when the interval is van
    /// Elteren's test inverted (schema version 2 on) or one machine took part;
    /// 2,000 in reports of schema version 1, whose interval was a percentile bootstrap.
    public var resamples: Int
    /// The bootstrap's seed (0 when no bootstrap was drawn).
    public var seed: UInt64
    /// The machines with launches on both sides, in order of first appearance.
    public var machines: [Machine]
    /// The machines with launches on one side only.
    public var leftOut: [LeftOut]

    /// The keys of the machines that took part.
    public var machineKeys: [String] { machines.map(\.machine) }
}
