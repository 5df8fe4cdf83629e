import LaunchAnalysis
import LaunchTracing

extension HTMLReport {
    /// The SVG drawing's width in user units; it scales to the page.
    static let chartWidth = 1200.0
    /// The left gutter holding the lanes' labels.
    static let gutter = 140.0
    /// Room on the right of the plot.
    static let rightMargin = 16.0
    /// The height of one row of spans.
    static let rowHeight = 18.0

    /// Where the time axis of `layouts` ends, milliseconds: past everything drawn,
    /// and past the budget when the budget is not far beyond it.
    static func axisEnd(_ layouts: [TimelineLayout], budgetMs: Double?) -> Double {
        let content = max(layouts.map(\.extentMs).max() ?? 0, 0.001)
        var end = content
        if let budgetMs, budgetMs > content, budgetMs <= content * 1.6 { end = budgetMs }
        return end * 1.02
    }

    /// The range the verdict judges, milliseconds from each drawing's origin:
    /// up to `metric` (the launch's total), and to the budget when that is near;
    /// nil when that is most of the drawing anyway. The page opens zoomed to it,
    /// the rest a zoom-out away.
    static func judgedRange(
        _ sides: [(timeline: LaunchTimeline, layout: TimelineLayout)], metric: Phase, budgetMs: Double?
    ) -> Double? {
        let judged = sides.compactMap { $0.timeline.milliseconds(metric) }.max()
        guard let judged, judged > 0 else { return nil }
        var end = judged
        if let budgetMs, budgetMs > judged, budgetMs <= judged * 1.6 { end = budgetMs }
        end *= 1.05
        let extent = sides.map(\.layout.extentMs).max() ?? 0
        return end < extent * 0.8 ? end : nil
    }

    /// One launch drawn as SVG: the phase band, milestones, the main thread's
    /// spans by depth, other threads' lanes, and the budget line; then the
    /// legend and the details panel the script fills on a click.
    ///
    /// `side` prefixes the findings' ids (`m0`, `h3`) in each span's `data-f`.
    ///
    /// Every drawn element that sits at a time carries it in milliseconds
    /// (`data-b`, `data-e`; `data-at` for a milestone or the budget), so the
    /// page's script can zoom and pan; `judgedMs` is where it opens zoomed to.
    static func timelineFigure(
        _ layout: TimelineLayout, timeline: LaunchTimeline, findings: [Finding], side: String,
        budgetMs: Double?, axisEndMs: Double, judgedMs: Double? = nil
    ) -> String {
        let plotWidth = chartWidth - gutter - rightMargin
        func x(_ milliseconds: Double) -> Double {
            gutter + min(max(milliseconds, 0), axisEndMs) / axisEndMs * plotWidth
        }
        func x(_ nanoseconds: UInt64) -> Double { x(layout.milliseconds(nanoseconds)) }

        // Vertical layout: ticks, phase band, milestones, lanes, budget label.
        let bandTop = 22.0
        let bandHeight = 20.0
        let markerTop = bandTop + bandHeight + 6
        let lanesTop = markerTop + 38
        var laneTops: [Double] = []
        var y = lanesTop
        for lane in layout.lanes {
            laneTops.append(y)
            y += 6 + Double(lane.rows) * rowHeight + 4
        }
        let lanesBottom = y
        let height = lanesBottom + 22

        var svg =
            "<svg class=\"timeline\" viewBox=\"0 0 \(coordinate(chartWidth)) \(coordinate(height))\" "
            + "data-end=\"\(coordinate3(axisEndMs))\"" + (judgedMs.map { " data-view=\"\(coordinate3($0))\"" } ?? "")
            + " data-bottom=\"\(coordinate(lanesBottom))\" role=\"img\" aria-label=\"timeline of one launch\" xmlns=\"http://www.w3.org/2000/svg\">\n"

        // Grid and ticks.
        svg += "<g class=\"ticks\">"
        for tick in ticks(upTo: axisEndMs / 1.02) {
            let tx = coordinate(x(tick.value))
            svg +=
                "<line class=\"grid\" x1=\"\(tx)\" y1=\"16\" x2=\"\(tx)\" y2=\"\(coordinate(lanesBottom))\"/>"
                + "<text class=\"tick\" x=\"\(tx)\" y=\"12\">\(tick.label)</text>\n"
        }
        svg += "</g>\n"

        // The phase band.
        svg += "<text class=\"lane\" x=\"8\" y=\"\(coordinate(bandTop + 14))\">phases</text>\n"
        for bound in Phase.consecutive {
            guard let from = timeline.milestones[bound.from], let to = timeline.milestones[bound.to], to >= from else {
                continue
            }
            let x0 = x(from)
            let width = max(0.8, x(to) - x0)
            let duration = timeline.milliseconds(bound.phase) ?? Double(to - from) / 1_000_000
            let times =
                "data-b=\"\(coordinate3(layout.milliseconds(from)))\" data-e=\"\(coordinate3(layout.milliseconds(to)))\""
            svg +=
                "<rect class=\"ph p-\(bound.phase.rawValue)\" \(times) x=\"\(coordinate(x0))\" y=\"\(coordinate(bandTop))\" "
                + "width=\"\(coordinate(width))\" height=\"\(coordinate(bandHeight))\"><title>\(bound.phase.rawValue) "
                + "\(ms(duration)) (\(ms(layout.milliseconds(from))) → \(ms(layout.milliseconds(to))))</title></rect>"
            svg +=
                "<text class=\"phl\" \(times) data-t=\"\(bound.phase.rawValue)\" x=\"\(coordinate(x0 + 3))\" "
                + "y=\"\(coordinate(bandTop + 14))\">\(fitted(bound.phase.rawValue, width: width - 6) ?? "")</text>"
            svg += "\n"
        }

        // Milestones: a marker each, a line through the lanes, a label where there is room.
        svg += "<text class=\"lane\" x=\"8\" y=\"\(coordinate(markerTop + 10))\">milestones</text>\n"
        var taken: [[ClosedRange<Double>]] = [[], []]
        // The frame milestones claim label room first; the rest in time order.
        func rank(_ milestone: Milestone) -> Int { milestone == .firstFrame ? 0 : milestone == .fullyDrawn ? 1 : 2 }
        let ordered = timeline.milestones.sorted {
            (rank($0.key), $0.value, $0.key.rawValue) < (rank($1.key), $1.value, $1.key.rawValue)
        }
        for (milestone, nanoseconds) in ordered {
            let mx = x(nanoseconds)
            let frame = milestone == .firstFrame || milestone == .fullyDrawn
            svg +=
                "<g class=\"ms\(frame ? " frame" : "")\" data-at=\"\(coordinate3(layout.milliseconds(nanoseconds)))\" "
                + "data-x=\"\(coordinate(mx))\"><title>\(HTMLEscaping.text(milestone.id)) at \(ms(layout.milliseconds(nanoseconds)))</title>"
                + "<line x1=\"\(coordinate(mx))\" y1=\"\(coordinate(markerTop))\" x2=\"\(coordinate(mx))\" y2=\"\(coordinate(lanesBottom))\"/>"
                + "<path d=\"M\(coordinate(mx - 4)) \(coordinate(markerTop))h8l-4 7z\"/>"
            let text = HTMLEscaping.text(milestone.id)
            let width = Double(milestone.id.count) * 6.1
            // Right of the marker if there is room, else left of it; on the first of two rows that is free.
            let right = (mx + 3)...(mx + 3 + width)
            let left = (mx - 3 - width)...(mx - 3)
            let places = [right, left].filter { $0.lowerBound >= gutter - 4 && $0.upperBound <= chartWidth }
            search: for row in taken.indices {
                for place in places where !taken[row].contains(where: { $0.overlaps(place) }) {
                    taken[row].append((place.lowerBound - 4)...(place.upperBound + 4))
                    svg +=
                        "<text class=\"msl\" x=\"\(coordinate(place.lowerBound))\" y=\"\(coordinate(markerTop + 18 + Double(row) * 12))\">\(text)</text>"
                    break search
                }
            }
            svg += "</g>\n"
        }

        // Lanes.
        for (index, lane) in layout.lanes.enumerated() {
            let top = laneTops[index]
            svg +=
                "<line class=\"sep\" x1=\"0\" y1=\"\(coordinate(top))\" x2=\"\(coordinate(chartWidth))\" y2=\"\(coordinate(top))\"/>"
                + "<text class=\"lane\" x=\"8\" y=\"\(coordinate(top + 18))\">\(HTMLEscaping.text(lane.label))</text>\n"
        }
        let matcher = FindingMatcher(findings)
        for (index, placed) in layout.placed.enumerated() {
            let span = placed.span
            let x0 = x(span.beginNanoseconds)
            let width = max(0.6, x(span.endNanoseconds) - x0)
            let sy = laneTops[placed.lane] + 6 + Double(placed.row) * rowHeight
            let matched = placed.lane == 0 ? matcher.findings(for: span) : []
            var classes = "s k-" + kind(of: span)
            if let worst = matched.map({ findings[$0].severity }).max() { classes += " f sev-\(worst.rawValue)" }
            let times =
                "data-b=\"\(coordinate3(layout.milliseconds(span.beginNanoseconds)))\" "
                + "data-e=\"\(coordinate3(layout.milliseconds(span.endNanoseconds)))\""
            svg +=
                "<rect class=\"\(classes)\" \(times) x=\"\(coordinate(x0))\" y=\"\(coordinate(sy))\" width=\"\(coordinate(width))\" "
                + "height=\"\(coordinate(rowHeight - 3))\" data-s=\"\(side)\(index)\""
            if !matched.isEmpty { svg += " data-f=\"" + matched.map { "\(side)\($0)" }.joined(separator: " ") + "\"" }
            svg +=
                "><title>" + spanDetails(span, layout: layout, findings: matched.map { findings[$0] })
                + "</title></rect>"
            let label = fitted(span.name, width: width - 6)
            // Every span has its label element, empty where it does not fit: zooming in fills it.
            svg +=
                "<text class=\"sl\" \(times) data-t=\"\(HTMLEscaping.text(span.name))\" x=\"\(coordinate(x0 + 3))\" "
                + "y=\"\(coordinate(sy + 11.5))\">\(label ?? "")</text>"
            svg += "\n"
        }

        // The budget line.
        if let budgetMs {
            let labelY = coordinate(lanesBottom + 15)
            if budgetMs <= axisEndMs {
                let bx = coordinate(x(budgetMs))
                // Centred on the line, unless that would cut it off at the chart's right edge.
                let anchor = x(budgetMs) > chartWidth - rightMargin - 60 ? " class=\"end\"" : ""
                svg +=
                    "<g class=\"budget\" data-at=\"\(coordinate3(budgetMs))\" data-x=\"\(bx)\"><title>budget \(ms(budgetMs))</title>"
                    + "<line x1=\"\(bx)\" y1=\"16\" x2=\"\(bx)\" "
                    + "y2=\"\(coordinate(lanesBottom))\"/><text\(anchor) x=\"\(bx)\" y=\"\(labelY)\">budget \(ms(budgetMs))</text></g>\n"
            } else {
                svg +=
                    "<g class=\"budget\"><text class=\"end\" x=\"\(coordinate(chartWidth - rightMargin))\" y=\"\(labelY)\">"
                    + "budget \(ms(budgetMs)) → beyond this chart</text></g>\n"
            }
        }
        svg += "</svg>\n"

        var notes: [String] = []
        if layout.omittedSpans > 0 {
            notes.append(
                "drawn: the \(layout.placed.count) longest of \(layout.totalSpans) spans; \(layout.omittedSpans) shorter ones left out"
            )
        } else {
            notes.append("drawn: all \(layout.totalSpans) spans")
        }
        if layout.hasUnthreadedLanes {
            notes.append(
                "other threads' spans carry no thread id: they are laid out in lanes that never overlap, not by thread")
        }
        if timeline.spawnIsApproximate { notes.append("the spawn time is the OS's estimate") }
        if timeline.droppedEvents > 0 { notes.append("\(timeline.droppedEvents) event(s) were lost to full buffers") }

        let controls =
            "<div class=\"controls\" hidden><input type=\"search\" class=\"find\" placeholder=\"find spans by name\" "
            + "aria-label=\"find spans by name\"><span class=\"found\" aria-live=\"polite\"></span>"
            + "<button type=\"button\" data-zoom=\"in\">zoom in</button><button type=\"button\" data-zoom=\"out\">zoom out</button>"
            + "<button type=\"button\" data-zoom=\"left\" aria-label=\"pan left\">←</button>"
            + "<button type=\"button\" data-zoom=\"right\" aria-label=\"pan right\">→</button>"
            + "<button type=\"button\" data-zoom=\"all\">whole launch</button>"
            + "<span class=\"hint\">drag across the chart to zoom to a range; Ctrl + wheel zooms, Shift + wheel pans</span></div>"
        return "<figure class=\"tl\">" + controls + "<div class=\"scroll\">" + svg + "</div><figcaption>" + legend
            + "<p class=\"caption\">" + notes.map(HTMLEscaping.text).joined(separator: "; ") + ".</p></figcaption>"
            + "<div class=\"details\" aria-live=\"polite\"><pre>click a span for its source location, costs and advice</pre></div></figure>\n"
    }

    /// The colours of the spans and the marks, explained.
    static let legend: String = {
        let kinds: [(String, String)] = [
            ("cpu", "CPU work"), ("queue", "waiting for a CPU (run queue)"), ("disk", "blocked on disk I/O"),
            ("network", "blocked on the network"),
            ("lock", "lock or semaphore"), ("sleep", "sleep"), ("wait", "blocked, other"),
            ("nest", "mostly nested spans"), ("none", "not accounted"),
        ]
        return "<p class=\"legend\">span colour, what its own time went to (measured): "
            + kinds.map { "<span><i class=\"sw k-\($0.0)\"></i>\($0.1)</span>" }.joined()
            + "</p><p class=\"legend\">outline, the worst finding on the span: "
            + "<span><i class=\"sw fo sev-critical\"></i>critical</span><span><i class=\"sw fo sev-warning\"></i>warning</span>"
            + "<span><i class=\"sw fo sev-info\"></i>info</span><span><i class=\"sw bl\"></i>budget line</span></p>"
    }()

    /// What a span's own time mostly went to, as a CSS class suffix: `cpu`,
    /// `queue` (runnable, waiting for a CPU), a wait kind, `nest` (its children take most of it) or `none` (not accounted).
    static func kind(of span: SpanRecord) -> String {
        let wall = span.wallNanoseconds
        let own = span.selfNanoseconds
        if wall > 0, Double(own) < 0.2 * Double(wall) { return "nest" }
        let cpu = span.selfCPUNanoseconds
        let blocked = span.blockedNanoseconds.max { ($0.value, $0.key.rawValue) < ($1.value, $1.key.rawValue) }
        if cpu == nil && blocked == nil { return "none" }
        // Waiting for a CPU is not CPU work: drawn as its own kind when it is most of the own time.
        if let queue = span.runQueueNanoseconds, queue > (cpu ?? 0), queue > (blocked?.value ?? 0),
            Double(queue) >= 0.3 * Double(own)
        {
            return "queue"
        }
        if let blocked, blocked.value > (cpu ?? 0), Double(blocked.value) >= 0.3 * Double(own) {
            switch blocked.key {
            case .disk: return "disk"
            case .network: return "network"
            case .lock: return "lock"
            case .sleep: return "sleep"
            case .process, .ipc, .event, .other, .unknown: return "wait"
            }
        }
        return "cpu"
    }

    /// A span's hover text and details: name, place, when, costs, what it waited on, its findings.
    static func spanDetails(_ span: SpanRecord, layout: TimelineLayout, findings: [Finding]) -> String {
        var lines = [span.name + (span.isOpen ? " (still open when the trace was written)" : "")]
        lines.append("\(span.file):\(span.line) · \(span.category) · depth \(span.depth)")
        lines.append(
            "at \(ms(layout.milliseconds(span.beginNanoseconds))) → \(ms(layout.milliseconds(span.endNanoseconds)))"
                + (span.beforeFirstFrame ? "" : " (after the first frame)"))
        let split = SpanTimeSplit(span)
        lines.append("wall \(ms(Double(span.wallNanoseconds) / 1e6)) · " + split.text)
        if split.hasEstimate { lines.append(SpanTimeSplit.estimateNote) }
        var switches: [String] = []
        if let count = span.voluntaryContextSwitches, count > 0 { switches.append("\(count) voluntary") }
        if let count = span.involuntaryContextSwitches, count > 0 { switches.append("\(count) involuntary") }
        var counters = switches.isEmpty ? [] : [switches.joined(separator: " and ") + " context switches"]
        if let faults = span.majorFaults, faults > 0 { counters.append("\(faults) major page faults") }
        if !counters.isEmpty { lines.append(counters.joined(separator: ", ")) }
        for finding in findings {
            lines.append("")
            lines.append(
                "\(finding.severity.rawValue): \(finding.rule.id), \(ms(finding.medianMs)) median in "
                    + "\(finding.runsAppeared)/\(finding.runsTotal) runs")
            lines.append(finding.recommendation)
        }
        // Each line escaped (a line break from the report becomes &#xA;), joined by the tooltip's own line breaks.
        return lines.map(HTMLEscaping.text).joined(separator: "\n")
    }

    /// `text` cut to what fits in `width` user units (with `…`), escaped; nil when not even a few characters fit.
    static func fitted(_ text: String, width: Double) -> String? {
        let fits = Int(saturating: width / 6.2)
        guard fits >= 3 else { return nil }
        if text.count <= fits { return HTMLEscaping.text(text) }
        return HTMLEscaping.text(String(text.prefix(fits - 1)) + "…")
    }

    /// About eight round tick values from 0 up to `end` milliseconds, with their labels.
    static func ticks(upTo end: Double, from start: Double = 0, count: Double = 8) -> [(value: Double, label: String)] {
        let range = end - start
        guard range > 0, range.isFinite else { return [(start, tickLabel(start, step: 1))] }
        let raw = range / count
        var magnitude = 1.0
        while magnitude * 10 <= raw { magnitude *= 10 }
        while magnitude > raw { magnitude /= 10 }
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? magnitude * 10
        var values: [(Double, String)] = []
        var value = (start / step).rounded(.up) * step
        while value <= end + step * 1e-9 {
            values.append((value, tickLabel(value, step: step)))
            value += step
        }
        return values
    }

    /// `120 ms`, `0.5 ms`, `0.05 ms`: as many decimals as the step needs.
    static func tickLabel(_ value: Double, step: Double) -> String {
        if step >= 1, abs(value) < Milliseconds.hugeMagnitude { return "\(Int(saturating: value.rounded())) ms" }
        if step >= 0.1 { return "\(Milliseconds.oneDecimal(value)) ms" }
        return "\(Milliseconds.twoDecimals(value)) ms"
    }
}
