// TEMPORARY: stands in for the statistics core until it is merged. Deleted then.
public enum RankStatistics { public enum Method: String, Sendable, Codable { case exact, asymptotic } }
public struct GateSettings: Sendable, Equatable, Codable {
    public var alpha: Double; public var minimumEffectPercent: Double; public var minimumEffectMs: Double
    public init(alpha: Double = 0.01, minimumEffectPercent: Double = 5, minimumEffectMs: Double = 5) {
        self.alpha = alpha; self.minimumEffectPercent = minimumEffectPercent; self.minimumEffectMs = minimumEffectMs
    }
    public func minimumRuns(gatedMetrics: Int, looks: Int = 1) -> Int { 5 }
}
public enum MetricVerdict: String, Sendable, Hashable, Codable, CaseIterable { case regression, pass, improvement, inconclusive }
public struct MetricComparison: Sendable, Equatable, Codable {
    public var name: String; public var gated: Bool; public var baseMs: [Double]; public var headMs: [Double]
    public var shiftMs: Double; public var shiftPercent: Double; public var intervalMs: [Double]; public var intervalPercent: [Double]
    public var mannWhitneyU: Double; public var pValue: Double; public var adjustedPValue: Double; public var verdict: MetricVerdict
    public var method: RankStatistics.Method
}
public struct StagedGate: Sendable {
    public var stages: [Int]; public var settings: GateSettings
    public init(stages: [Int], settings: GateSettings) { self.stages = stages; self.settings = settings }
    public func look(_ index: Int, metrics: [(name: String, gated: Bool, baseMs: [Double], headMs: [Double])], primary: String)
        -> (metrics: [MetricComparison], verdict: MetricVerdict, stop: Bool) { ([], .inconclusive, true) }
}
