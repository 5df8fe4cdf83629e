import LaunchAnalysis
import SampleApp

/// The options that say which program a command launches (``ProgramTarget``): the
/// bundled sample's variant, or each side of a comparison given as a command or a
/// variant, and the baseline a measurement is kept as.
public enum ProgramOptions {
    /// `--sample` of `measure` and `calibrate`: the bundled sample's variant, `naive` by default.
    static let sample = DefaultedOption<SampleApp.Variant>.choice(
        "--sample", "VARIANT", "the bundled sample's variant: \(HelpText.sampleVariants)", default: .naive)

    /// `--base CMD` or `--head CMD`: one string split into words as a shell would.
    static func command(_ side: ComparisonSide) -> Option<String> {
        .text(
            "--\(side.rawValue)", "CMD",
            side == .base
                ? "the base program, one string split into words as a shell would (no shell is run)"
                : "the head program, likewise")
    }

    /// `--base-sample` or `--head-sample`: the bundled sample as that side.
    static func sample(_ side: ComparisonSide) -> Option<SampleApp.Variant> {
        .choice(
            "--\(side.rawValue)-sample", "VARIANT",
            "the bundled sample as the \(side.rawValue): " + HelpText.sampleVariants)
    }

    /// `--baseline NAME` of `compare`.
    static let baseline = Option<String>.text(
        "--baseline", "NAME",
        "compare a measurement made now (of the command after '--', or --head-sample) "
            + "with the stored baseline <output>/baselines/NAME.json, session against session: with 3 or more sessions "
            + "in its history (calibrate --save-baseline, then each measure --save-baseline), else inconclusive")

    /// `--save-baseline NAME` of `measure`.
    static let saveBaseline = Option<String>.text(
        "--save-baseline", "NAME",
        "also keep the report as baselines/NAME.json in the output folder, "
            + "for 'launchprof compare --baseline NAME' (commit it)")

    /// `--base-report` and `--head-report`: stored reports, one per machine or pooled.
    static func report(_ side: ComparisonSide) -> RepeatedOption {
        side == .base
            ? RepeatedOption(
                "--base-report", "FILE",
                "a stored base report (repeatable: one per machine, or a pooled one): a fleet "
                    + "comparison, launches compared within each machine and the machines combined")
            : RepeatedOption("--head-report", "FILE", "a stored head report, likewise (repeatable)")
    }

    /// `measure`'s own options, after the shared ones.
    public static let measureTable: [OptionSpec] = [sample.spec, saveBaseline.spec]

    /// `compare`'s sides, before `--stages`.
    public static let compareSidesTable: [OptionSpec] = [
        command(.base).spec, command(.head).spec, sample(.base).spec, sample(.head).spec, baseline.spec,
    ]

    /// `compare`'s stored reports, last in its help.
    public static let storedReportsTable: [OptionSpec] = [report(.base).spec, report(.head).spec]
}

extension Option where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// One of `Value`'s raw values, with no default.
    static func choice(_ name: String, _ placeholder: String, _ help: String) -> Self {
        let words = Value.allCases.map(\.rawValue)
        return Self(spec: .value(name, placeholder, help, type: .choice(words))) { text throws(UsageError) in
            try Self.word(text, of: name, among: words)
        }
    }

    /// The value `text` names, or the error listing the words: "--mode takes warm, cold or hot, not 'x'".
    static func word(_ text: String, of name: String, among words: [String]) throws(UsageError) -> Value {
        guard let value = Value(rawValue: text) else {
            throw UsageError(
                "\(name) takes \(words.dropLast().joined(separator: ", ")) or \(words.last!), not '\(text)'"
                    + suggestion(text, among: words))
        }
        return value
    }
}
