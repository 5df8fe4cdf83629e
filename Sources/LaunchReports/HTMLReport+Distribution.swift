import LaunchAnalysis

extension HTMLReport {
    /// How many machine colours the page has (`m0`…`m5`); further machines reuse them in turn.
    static let machinePalette = 6

    /// A strip plot of every run's total against the budget: one dot per run,
    /// the median as a line, its confidence interval as a band, outliers ringed
    /// and named.
    static func distributionFigure(_ rows: [DistributionRow], metric: String, budgetMs: Double?) -> String {
        let values = rows.flatMap { $0.points.map(\.ms) }
        guard let low = values.min(), let high = values.max() else { return "" }
        // The budget is on the scale unless it is far from every run; then an arrow names it.
        var lower = low
        var upper = high
        let spread = high - low
        if let budgetMs {
            if budgetMs > high, budgetMs <= high + 2 * spread + 0.25 * high { upper = budgetMs }
            if budgetMs < low, budgetMs >= low - 2 * spread - 0.25 * low { lower = budgetMs }
        }
        let pad = max((upper - lower) * 0.06, upper * 0.01, 0.01)
        lower = max(0, lower - pad)
        upper += pad

        let rowHeight = 56.0
        let top = 24.0
        let height = top + Double(rows.count) * rowHeight + 26
        let plotWidth = chartWidth - gutter - rightMargin
        func x(_ value: Double) -> Double { gutter + (value - lower) / (upper - lower) * plotWidth }
        let bottom = top + Double(rows.count) * rowHeight

        var svg =
            "<svg class=\"strip\" viewBox=\"0 0 \(coordinate(chartWidth)) \(coordinate(height))\" role=\"img\" "
            + "aria-label=\"distribution of \(metric)\" xmlns=\"http://www.w3.org/2000/svg\">\n"
        for tick in ticks(upTo: upper, from: lower) {
            let tx = coordinate(x(tick.value))
            svg +=
                "<line class=\"grid\" x1=\"\(tx)\" y1=\"16\" x2=\"\(tx)\" y2=\"\(coordinate(bottom))\"/>"
                + "<text class=\"tick\" x=\"\(tx)\" y=\"12\">\(tick.label)</text>\n"
        }
        for (index, row) in rows.enumerated() {
            let rowTop = top + Double(index) * rowHeight
            let center = rowTop + rowHeight / 2
            // A machine's row: its key cut to fit the gutter (whole in the tooltip), its dots in its colour.
            let label = row.machine == nil || row.label.count <= 20 ? row.label : String(row.label.prefix(19)) + "…"
            let tooltip =
                row.machine.map { _ in
                    "<title>" + HTMLEscaping.text("\(row.label): \(row.points.count) runs") + "</title>"
                } ?? ""
            let machineClass = row.machine.map { " m\($0.position % machinePalette)" } ?? ""
            svg +=
                "<line class=\"sep\" x1=\"0\" y1=\"\(coordinate(rowTop))\" x2=\"\(coordinate(chartWidth))\" y2=\"\(coordinate(rowTop))\"/>"
                + "<text class=\"lane\(machineClass)\" x=\"8\" y=\"\(coordinate(center + 4))\">"
                + HTMLEscaping.text(label)
                + " (\(row.points.count))\(tooltip)</text>\n"
            let interval = row.summary.medianConfidenceInterval
            svg +=
                "<rect class=\"ci\" x=\"\(coordinate(x(interval.lowerBound)))\" y=\"\(coordinate(rowTop + 4))\" "
                + "width=\"\(coordinate(max(1, x(interval.upperBound) - x(interval.lowerBound))))\" height=\"\(coordinate(rowHeight - 8))\">"
                + "<title>95% CI of the median: \(TerminalReport.interval(row.summary))</title></rect>"
            let mx = coordinate(x(row.summary.median))
            svg +=
                "<line class=\"median\" x1=\"\(mx)\" y1=\"\(coordinate(rowTop + 2))\" x2=\"\(mx)\" y2=\"\(coordinate(rowTop + rowHeight - 2))\">"
                + "<title>median \(ms(row.summary.median))</title></line>\n"
            for point in row.points {
                // A fixed jitter per run (golden-ratio steps) keeps equal values apart and the page deterministic.
                let jitter = (Double(point.run) * 0.618_034).truncatingRemainder(dividingBy: 1) - 0.5
                let py = center + jitter * (rowHeight - 20)
                let outlier = row.outliers.contains(point.run)
                let drawn = row.highlighted == point.run
                let classes = "pt" + machineClass + (outlier ? " out" : "") + (drawn ? " med" : "")
                var title = "run \(point.run): \(ms(point.ms))"
                if outlier { title += " (outlier)" }
                if drawn { title += " — the run drawn in the timeline" }
                if let budgetMs, point.ms > budgetMs { title += " — over the budget" }
                svg +=
                    "<circle class=\"\(classes)\" cx=\"\(coordinate(x(point.ms)))\" cy=\"\(coordinate(py))\" r=\"\(outlier || drawn ? 5 : 4)\">"
                    + "<title>\(title)</title></circle>"
                if outlier {
                    svg +=
                        "<text class=\"outl\" x=\"\(coordinate(x(point.ms) + 7))\" y=\"\(coordinate(py + 4))\">run \(point.run)</text>"
                }
                svg += "\n"
            }
        }
        if let budgetMs {
            let labelY = coordinate(bottom + 16)
            if budgetMs >= lower && budgetMs <= upper {
                let at = x(budgetMs)
                let bx = coordinate(at)
                // Near an edge the label runs inward from the line, so it stays inside the chart
                // (the page's script also pulls back any text its scaling pushed out).
                let label =
                    at > chartWidth - rightMargin - 80
                    ? "<text class=\"end\" x=\"\(coordinate(at - 4))\""
                    : at < gutter + 80 ? "<text class=\"start\" x=\"\(coordinate(at + 4))\"" : "<text x=\"\(bx)\""
                svg +=
                    "<g class=\"budget\"><line x1=\"\(bx)\" y1=\"16\" x2=\"\(bx)\" y2=\"\(coordinate(bottom))\"/>"
                    + label + " y=\"\(labelY)\">budget \(ms(budgetMs))</text></g>\n"
            } else if budgetMs > upper {
                svg +=
                    "<g class=\"budget\"><text class=\"end\" x=\"\(coordinate(chartWidth - rightMargin))\" y=\"\(labelY)\">"
                    + "budget \(ms(budgetMs)) →</text></g>\n"
            } else {
                svg +=
                    "<g class=\"budget\"><text class=\"start\" x=\"\(coordinate(gutter))\" y=\"\(labelY)\">"
                    + "← budget \(ms(budgetMs))</text></g>\n"
            }
        }
        svg += "</svg>\n"
        return "<figure class=\"dist\"><div class=\"scroll\">" + svg + "</div></figure>\n"
    }
}
