import LaunchAnalysis

/// The words every comparison renderer uses for a metric's row, so the
/// terminal, Markdown and HTML tables say the same: the median difference
/// beside the estimated shift the verdict tests, the p in the verdict's
/// direction, and `new` / `gone` / `not recorded` for a budget span a side
/// never recorded.
///
/// ```swift
/// let cells = ComparisonText.Row(metric)
/// print(cells.base, cells.head, cells.medianDifference, cells.shift, cells.interval, cells.p)
/// ```
enum ComparisonText {
    /// The column headings, in order after the metric's name.
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

        init(_ metric: MetricComparison) {
            let baseMedian = Summary.median(metric.baseMs)
            let headMedian = Summary.median(metric.headMs)
            base = ms(baseMedian)
            head = ms(headMedian)
            medianDifference =
                Milliseconds.signed(metric.medianDifferenceMs) + " (" + Percent.text(metric.medianDifferencePercent)
                + ")"
            shift = Percent.text(metric.shiftPercent) + " (" + Milliseconds.signed(metric.shiftMs) + ")"
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
}
