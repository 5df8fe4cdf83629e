import LaunchAnalysis

/// The words every comparison renderer uses for a metric's row, so the
/// terminal, Markdown and HTML tables say the same: the median difference
/// beside the estimated shift the verdict tests, the p in the verdict's
/// direction, and `new` / `gone` / `not recorded` for a budget span a side
/// never recorded.
///
/// ```swift
/// let row = ComparisonText.Row(metric)
/// print(row.cells)   // under ComparisonText.headings, before the verdict
/// ```
enum ComparisonText {
    /// The column headings, in order after the metric's name: one for each of
    /// ``Row/cells``, then the verdict (each renderer words the verdict itself).
    static let headings = [
        "base median", "head median", "median diff", "est. shift", "CI of shift (level)", "p", "verdict",
    ]

    /// The one line under the table: which change the verdict uses.
    static let shiftNote =
        "est. shift: the Hodges–Lehmann estimate of how much head is above base (median of all head/base "
        + "ratios, on log time), which the verdict tests with its interval, shown at the level the decision used; median diff: the plain difference of the medians, "
        + "shown beside it. p: the one-sided test in the verdict's direction (head faster for an improvement, head slower otherwise)"

    /// `10 launches per side`, or `10 base and 20 head launches` when the sides differ.
    static func launches(_ report: ComparisonReport) -> String {
        guard let first = report.metrics.first else { return "no launches compared" }
        return first.baseMs.count == first.headMs.count
            ? "\(first.baseMs.count) launches per side"
            : "\(first.baseMs.count) base and \(first.headMs.count) head launches"
    }

    /// One metric's cells (plain text; each renderer escapes and styles them).
    struct Row {
        var base: String
        var head: String
        var medianDifference: String
        var shift: String
        var interval: String
        var p: String
        /// A note for a span a side never recorded; nil for a metric both sides measured.
        var presenceNote: String?

        /// The cells in the order of ``ComparisonText/headings`` (all but the verdict):
        /// every renderer draws these, so a new column is added here and in the headings only.
        var cells: [String] { [base, head, medianDifference, shift, interval, p] }

        init(_ metric: MetricComparison) {
            let baseMedian = Summary.median(metric.baseMs)
            let headMedian = Summary.median(metric.headMs)
            base = ms(baseMedian)
            head = ms(headMedian)
            medianDifference =
                signedMs(metric.medianDifferenceMs) + " (" + Percent.text(metric.medianDifferencePercent)
                + ")"
            shift = Percent.text(metric.shiftPercent) + " (" + signedMs(metric.shiftMs) + ")"
            interval = metric.intervalText
            p = metric.verdictPValue.map(Percent.pValue) ?? "—"
            switch metric.presence {
            case .both:
                presenceNote = nil
            case .headOnly:
                base = "—"
                medianDifference = "new"
                shift = "new"
                interval = "—"
                presenceNote = "\(metric.name) is new: no base run recorded it"
            case .baseOnly:
                head = "—"
                medianDifference = "gone"
                shift = "gone"
                interval = "—"
                presenceNote = "\(metric.name) is gone: no head run recorded it"
            case .neither:
                base = "—"
                head = "—"
                medianDifference = "—"
                shift = "—"
                interval = "—"
                p = "—"
                presenceNote =
                    "\(metric.name): no run of either side recorded a span of that name (is the budget's name spelt right?)"
            }
        }
    }

    /// What "why it changed" lists, each finding and span named once: with "what to fix"
    /// shown above it, the new findings and slower spans it names are left out here; a
    /// span a moved finding names is not listed again as a span.
    struct WhyItChanged {
        var new: [FindingsDiff.FindingChange]
        var gone: [FindingsDiff.FindingChange]
        var moved: [FindingsDiff.FindingChange]
        var spans: [FindingsDiff.SpanChange]
        /// How many findings and spans "what to fix" already named (0 without it).
        var namedAbove: Int

        init(_ changes: FindingsDiff, whatToFixShown: Bool) {
            // Only what moved: a report written before the rule may list findings that did not.
            moved = changes.moved.filter(\.hasMoved)
            gone = changes.gone
            func key(_ name: String, _ file: String?, _ line: Int?) -> String {
                SpanRecord.key(name: name, file: file ?? "", line: line ?? 0)
            }
            var named = Set(moved.map { key($0.span, $0.file, $0.line) })
            var above = 0
            if whatToFixShown {
                new = []
                let slower = changes.slowerSpans
                above = changes.new.count + slower.count
                named.formUnion(changes.new.map { key($0.span, $0.file, $0.line) })
                named.formUnion(slower.map { key($0.name, $0.file, $0.line) })
            } else {
                new = changes.new
            }
            spans = changes.spans.filter { $0.hasMoved && !named.contains(key($0.name, $0.file, $0.line)) }
            namedAbove = above
        }

        var isEmpty: Bool { new.isEmpty && gone.isEmpty && moved.isEmpty && spans.isEmpty }
    }

    /// A span's change and how sure it is: `+63.5 ms, 95 % interval +50.1 to +70.2 ms`;
    /// `+3.1 ms, interval −2.0 to +9.4 ms: within noise`; just the change in reports written before intervals.
    static func spanChange(_ span: FindingsDiff.SpanChange, level: Double?) -> String {
        let change = signedMs(span.deltaMs)
        let percent = level.map { "\(Int(($0 * 100).rounded())) % " } ?? ""
        if span.isUnbounded == true { return change + ", too few launches for an interval: within noise" }
        guard let lower = span.lowerMs, let upper = span.upperMs else { return change }
        let interval = "\(percent)interval \(signedMs(lower)) to \(signedMs(upper))"
        return change + ", " + interval + (span.isWithinNoise ? ": within noise" : "")
    }

    /// The note under the spans: the level, the family, the adjustment, and what an interval does not say.
    static func spanIntervalNote(_ changes: FindingsDiff) -> String? {
        guard let method = changes.spanInterval else { return nil }
        return method.text + "; surest first, those within noise last. An interval says the span's time changed, "
            + "not that its code did: a span waiting on a contended CPU or lock slows with no change of its own"
    }
}
