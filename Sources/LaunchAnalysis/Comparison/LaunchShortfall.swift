/// Too few launches for a comparison ever to decide: what there is, and how many
/// are needed.
///
/// ``GateSettings/shortfall(baseCount:headCount:gatedMetrics:looks:)`` makes it;
/// ``ComparisonError/tooFewLaunches(_:)`` carries it to the caller (the command
/// line exits 2 with ``description``).
///
/// ```swift
/// if let short = GateSettings().shortfall(baseCount: 1, headCount: 1, gatedMetrics: 1, looks: 1) {
///     print(short)  // 1 base and 1 head launch(es) … at least 5 per side are needed
/// }
/// ```
public struct LaunchShortfall: Sendable, Equatable, CustomStringConvertible {
    /// The metric (or `machine 'NAME'` of a fleet comparison) that has too few.
    public var subject: String
    /// Launches on the base side.
    public var baseCount: Int
    /// Launches on the head side.
    public var headCount: Int
    /// Launches needed on each side.
    public var neededPerSide: Int
    /// Why that many: the level the test must reach, or the fleet rule.
    public var reason: String

    /// One line: what there is, how many are needed, and why.
    public var description: String {
        "\(subject): \(baseCount) base and \(headCount) head launch(es) are too few: at least \(neededPerSide) per side are needed (\(reason))"
    }
}

extension GateSettings {
    /// The fewest launches per machine and side a fleet comparison takes a machine with.
    ///
    /// Below 5 no machine's own Mann–Whitney test can reach 1 % (1/C(8, 4) = 1/70), and
    /// the stratified interval's coverage is shown (in `GateAuditTests.fleetCoverage`) from 5 on.
    public static let minimumLaunchesPerMachine = 5

    /// The one-sided level each test of a comparison must be able to reach:
    /// α / looks / gated metrics (Holm's first step at the stage split).
    ///
    /// ```swift
    /// GateSettings().smallestLevel(gatedMetrics: 8, looks: 3)  // 0.01 / 24
    /// ```
    public func smallestLevel(gatedMetrics: Int, looks: Int) -> Double {
        alpha / Double(max(looks, 1)) / Double(max(gatedMetrics, 1))
    }

    /// Why `baseCount` against `headCount` launches can never decide, or nil when they can.
    ///
    /// The most extreme ordering (every head launch beyond every base launch) gives
    /// the exact one-sided test its smallest p-value, 1/C(n+m, n); unless that is
    /// below ``smallestLevel(gatedMetrics:looks:)`` no data of these sizes can be a
    /// regression, an improvement or a pass, and no interval at that level has a
    /// finite bound. The count needed is ``minimumRuns(gatedMetrics:looks:)`` per side.
    ///
    /// ```swift
    /// GateSettings().shortfall(baseCount: 6, headCount: 6, gatedMetrics: 9, looks: 3)?.neededPerSide  // 7
    /// GateSettings().shortfall(baseCount: 30, headCount: 3, gatedMetrics: 1, looks: 1)                  // nil: 1/C(33, 3) < 0.01
    /// ```
    public func shortfall(baseCount: Int, headCount: Int, gatedMetrics: Int, looks: Int, subject: String = "the comparison")
        -> LaunchShortfall? {
        let level = smallestLevel(gatedMetrics: gatedMetrics, looks: looks)
        let n = max(baseCount, 0), m = max(headCount, 0)
        // 1/C(n+m, n) < level, computed in logarithms (C(n+m, n) overflows quickly).
        var logArrangements = 0.0
        for i in 0..<min(n, m) { logArrangements += Platform.naturalLogarithm(Double(n + m - i) / Double(i + 1)) }
        if n > 0, m > 0, level > 0, -logArrangements < Platform.naturalLogarithm(level) { return nil }
        let needed = minimumRuns(gatedMetrics: gatedMetrics, looks: looks)
        return LaunchShortfall(
            subject: subject, baseCount: n, headCount: m, neededPerSide: needed,
            reason: "no test could reach the level \(Self.levelText(level)) = α \(Self.levelText(alpha)) over \(max(looks, 1)) look(s) "
                + "and \(max(gatedMetrics, 1)) gated metric(s)")
    }

    static func levelText(_ value: Double) -> String {
        var text = Milliseconds.fixed(value, decimals: 6)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
