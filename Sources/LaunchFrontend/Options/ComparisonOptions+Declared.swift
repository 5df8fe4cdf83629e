import Foundation
import LaunchAnalysis
import LaunchTracing

/// The options of the regression gate, each declared once with its type, default
/// and help (``Option``), and read by ``ComparisonOptions/init(_:budget:metrics:)``.
/// Their defaults are ``GateSettings``'s: a budget file's values come between.
extension ComparisonOptions {
    /// `--stages`, for the help of the commands that launch in stages.
    public static var stagesSpec: OptionSpec { stages.spec }

    /// The gate's options, in help order, after `--stages`.
    public static let table: [OptionSpec] = [
        minimumEffect.spec, minimumEffectMs.spec, alpha.spec, gate.spec, sessionSD.spec, failOverBudget.spec,
    ]

    static let stages = Option<[Int]>.increasingList(
        "--stages", "LIST",
        "cumulative launches per side at which to decide, e.g. 20,40,60 (default: --runs, "
            + "twice and three times it); launching stops at the first stage with a verdict",
        in: 1...100_000, what: "launch counts per side", example: "20,40,60")

    static let minimumEffect = Option<Double>.percent(
        "--min-effect", "the least slowdown called a regression, percent",
        in: 0...LaunchBudget.maximumEffectPercent, example: "5%",
        shownDefault: DecimalText.plain(GateSettings().minimumEffectPercent) + "%")

    static let minimumEffectMs = Option<Double>.milliseconds(
        "--min-effect-ms", "MS",
        "the least slowdown called a regression, milliseconds (default "
            + DecimalText.plain(GateSettings().minimumEffectMs) + "); the larger applies",
        allowingZero: true)

    static let alpha = Option<Double>.fraction(
        "--alpha", "A", "significance level, spent over the stages as α·t³",
        shownDefault: DecimalText.plain(GateSettings().alpha))

    static let gate = Option<[String]>(
        spec: .value(
            "--gate", "LIST",
            "metrics besides the primary one that decide: all, or names such as "
                + "phase:didFinishLaunching,span:DecodeCatalog")
    ) { text throws(UsageError) in
        text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static let sessionSD = Option<Double>.percent(
        "--session-sd",
        "the between-session standard deviation to assume when the sides come from "
            + "different sessions and nothing else estimates it, e.g. 3%; α then holds only if the truth is no larger",
        in: 0...100, example: "3%")

    static let failOverBudget = Flag(
        "--fail-over-budget", "a head over its budget fails (exit 1) even without a regression")
}
