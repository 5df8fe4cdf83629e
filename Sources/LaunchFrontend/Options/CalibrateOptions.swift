import LaunchAnalysis
import LaunchTracing

/// `calibrate`'s own options, each declared once with its type, default and help
/// (``Option``), and read by ``Frontend/calibrate(_:options:)``.
public enum CalibrateOptions {
    static let rounds = DefaultedOption<Int>.wholeNumber(
        "--rounds", "N", "A/A comparisons to make", in: 1...100, default: 3)

    static let targetEffect = DefaultedOption<Double>.percent(
        "--target-effect",
        "the smallest change that matters to you: the recommended ε is the largest "
            + "with which compare finds it in 80% of comparisons",
        in: 0...LaunchBudget.maximumEffectPercent, excludingLower: true, example: "10%", default: 10)

    static let writeBudget = Flag(
        "--write-budget", "write the recommended minimum effect into the budget file (--budget, or ./launchprof.json)")

    static let saveBaseline = Option<String>.text(
        "--save-baseline", "NAME",
        "also keep every round's launches as baselines/NAME.json in the output folder, "
            + "with every round's session beside it (NAME.spread.json), the history compare --baseline tests sessions with"
    )

    /// `calibrate`'s options after the shared ones, in help order.
    public static let table: [OptionSpec] = [
        ProgramOptions.sample.spec, rounds.spec, targetEffect.spec, writeBudget.spec, saveBaseline.spec,
    ]
}
