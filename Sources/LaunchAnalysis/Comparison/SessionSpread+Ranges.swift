// The values a stored spread may hold: the medians a measurement can give, by what they are a time of.

import LaunchTracing

extension SessionSpread {
    /// The median of a whole launch a stored spread may hold, milliseconds: 1 µs to an hour.
    ///
    /// The values are session medians of launch time in milliseconds (not SDs): the
    /// gate takes their logarithms and uses the variance of those as the session SD
    /// (``GateDecision/logarithm(_:)``, ``SessionComparison``). A whole launch (the
    /// primary metric, spawn to ready, or its CPU time) never takes less than 1 µs
    /// (creating and running a process alone takes tens of µs), which is also the
    /// floor the gate takes any time below to; so 0, a subnormal such as 5e-324, or
    /// 1e-6 is no measurement, and beside real medians it would make the session SD
    /// absurd (hundreds of percent: every regression inconclusive). The top is
    /// ``LaunchBudget/maximumMilliseconds``, the longest a launch may take (an hour).
    public static let launchMilliseconds: ClosedRange<Double> =
        GateDecision
        .smallestMs...LaunchBudget
        .maximumMilliseconds

    /// The smallest nonzero median of a phase or span a stored spread may hold,
    /// milliseconds (0.1 ns): the time base counts nanoseconds, so a median is 0 (a
    /// phase too short for the clock) or at least the half nanosecond between two
    /// ticks; anything nearer 0 (a subnormal) is no measurement.
    public static let smallestPartMilliseconds = 1e-7

    /// True for a median a phase or span (``MetricID/phase(_:)``, ``MetricID/span(_:)``) can have:
    /// 0, or from ``smallestPartMilliseconds`` to an hour.
    static func isPartTime(_ milliseconds: Double) -> Bool {
        milliseconds == 0
            || (smallestPartMilliseconds...LaunchBudget.maximumMilliseconds).contains(milliseconds)
    }

    /// True when `name` is the time of a whole launch: this spread's ``metric``, a
    /// total such as `timeToReady`, or `cpuTime` (not a `phase:` or `span:`).
    func isWholeLaunch(_ name: String) -> Bool {
        guard name != metric else { return true }
        switch MetricID(parsing: name) {
        case .total, .cpuTime: return true
        case .phase, .span, nil: return false
        }
    }

    /// The range of a median of `name`, in words, as ``problem`` names it.
    static func rangeText(of name: String, whole: Bool) -> String {
        let top = Int(LaunchBudget.maximumMilliseconds)
        guard whole else { return "a median of \(name), a phase or span, is 0 or from 1e-7 to \(top) ms" }
        return "a median of \(name), a whole launch, is from \(launchMilliseconds.lowerBound) to \(top) ms"
    }
}
