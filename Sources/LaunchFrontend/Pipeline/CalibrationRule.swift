import LaunchAnalysis

/// The calibrate rule: the smallest effect worth gating on is the widest
/// change any A/A round's confidence interval allowed when nothing changed,
/// rounded up to the next half percent and half millisecond (at least 0.5 each).
struct CalibrationRule {
    /// The widest A/A interval so far, percent and milliseconds either way.
    private(set) var widestPercent = 0.0, widestMs = 0.0

    /// The settings of an A/A round: no least effect, so the interval is the noise.
    static let roundSettings = GateSettings(minimumEffectPercent: 0, minimumEffectMs: 0)

    /// Takes in one round's primary comparison.
    mutating func add(_ primary: MetricComparison) {
        widestPercent = max(widestPercent, abs(primary.intervalPercent[0]), abs(primary.intervalPercent[1]))
        widestMs = max(widestMs, abs(primary.intervalMs[0]), abs(primary.intervalMs[1]))
    }

    /// The recommended `--min-effect`, percent.
    var percent: Double { max(0.5, (widestPercent * 2).rounded(.up) / 2) }

    /// The recommended `--min-effect-ms`.
    var milliseconds: Double { max(0.5, (widestMs * 2).rounded(.up) / 2) }
}
