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

    /// One launch drawn on a `<canvas>` by the page's script: the phase band,
    /// milestones, the main thread's spans by depth (each split in proportion into
    /// CPU, waiting for a CPU and blocked time by kind), the main thread's state
    /// lane, other threads' lanes, and the budget line; then the legend and the
    /// details panel the script fills when a span is chosen.
    ///
    /// The page carries every span of the run as ``TimelineData`` (columns and a
    /// string table), so its size grows by a few dozen bytes per span, and the
    /// script draws what fits: spans narrower than a pixel are merged into one bar
    /// with a count, so a frame is bounded by the chart's width times its rows,
    /// whatever the run holds or which spans carry a finding. `side` prefixes the
    /// findings' ids (`m0`, `h3`); `judgedMs` is the range the chart opens zoomed to.
    static func timelineFigure(
        _ layout: TimelineLayout, timeline: LaunchTimeline, findings: [Finding], side: String,
        budgetMs: Double?, axisEndMs: Double, judgedMs: Double? = nil
    ) -> String {
        let data = TimelineData(
            layout, timeline: timeline, findings: findings, side: side, axisEndMs: axisEndMs, judgedMs: judgedMs,
            budgetMs: budgetMs)
        var notes = [
            "all \(layout.totalSpans) spans are in the page; spans narrower than a pixel are merged into one bar "
                + "with their count (zoom in to part them)"
        ]
        if layout.hasUnthreadedLanes {
            notes.append(
                "other threads' spans carry no thread id: they are laid out in lanes that never overlap, not by thread")
        }
        notes.append(gapNote(timeline))
        if timeline.spawnIsApproximate { notes.append("the spawn time is the OS's estimate") }
        if timeline.droppedEvents > 0 { notes.append("\(timeline.droppedEvents) event(s) were lost to full buffers") }

        let controls =
            "<div class=\"controls\" hidden><input type=\"search\" class=\"find\" placeholder=\"find spans by name\" "
            + "aria-label=\"find spans by name\"><button type=\"button\" data-step=\"-1\" aria-label=\"previous match\">▲</button>"
            + "<button type=\"button\" data-step=\"1\" aria-label=\"next match\">▼</button>"
            + "<span class=\"found\" aria-live=\"polite\"></span>"
            + "<button type=\"button\" data-zoom=\"in\">zoom in</button><button type=\"button\" data-zoom=\"out\">zoom out</button>"
            + "<button type=\"button\" data-zoom=\"left\" aria-label=\"pan left\">←</button>"
            + "<button type=\"button\" data-zoom=\"right\" aria-label=\"pan right\">→</button>"
            + "<button type=\"button\" data-zoom=\"all\">whole launch</button>"
            + "<span class=\"hint\">drag across the chart to zoom to a range; Ctrl + wheel zooms, Shift + wheel pans; "
            + "on the chart, arrow keys move between spans, + and − zoom</span></div>"
        let canvas =
            "<div class=\"scroll\"><canvas class=\"timeline\" tabindex=\"0\" role=\"img\" "
            + "aria-label=\"timeline of one launch; arrow keys move between spans, their details are read below\">"
            + "</canvas><noscript><p class=\"note\">the timeline is drawn by the page's script; "
            + "the phase table below has its numbers.</p></noscript></div>"
        var figure = "<figure class=\"tl\">" + controls + canvas
        figure += "<script type=\"application/json\" class=\"tl-data\">" + data.json + "</script>"
        figure += "<figcaption>" + legend + "<p class=\"caption\">"
        figure += notes.map(HTMLEscaping.text).joined(separator: "; ") + ".</p></figcaption>"
        figure += "<div class=\"details\" aria-live=\"polite\"><pre>choose a span (click, or arrow keys on the chart) "
        figure += "for its source location, costs and advice</pre></div></figure>\n"
        return figure
    }

    /// What the thread-state lane shows between spans in this launch, plainly.
    static func gapNote(_ timeline: LaunchTimeline) -> String {
        let between = "the tracer reads CPU time and waits only at span boundaries"
        guard timeline.sampleCount > 0 else {
            return "between spans the thread-state lane has no readings: \(between), and no sampler read the main "
                + "thread in this launch (LaunchHarness's sampler runs in apps that use the harness)"
        }
        guard let gaps = timeline.mainThreadGaps else {
            return "between spans the thread-state lane has no readings: \(between), and this report was written "
                + "before launchprof kept the sampler's readings between spans"
        }
        let samples = gaps.map(\.sampleCount).reduce(0, +)
        guard samples > 0 else {
            return "between spans the thread-state lane has no readings: \(between), and none of the sampler's "
                + "\(timeline.sampleCount) samples fell outside a span"
        }
        return "between spans the thread-state lane shows the sampler's \(samples) of \(timeline.sampleCount) samples "
            + "that fell there, in proportion (an estimate; \(between)); grey where none fell"
    }

    /// The colours of the spans and the marks, explained.
    static let legend: String = {
        let kinds: [(String, String)] = [
            ("cpu", "CPU"), ("queue", "waiting for a CPU (run queue)"), ("disk", "blocked on disk I/O"),
            ("network", "blocked on the network"), ("lock", "lock or semaphore"), ("sleep", "sleep"),
            ("wait", "blocked, other"), ("none", "not accounted, or no readings"),
        ]
        return "<p class=\"legend\">each main-thread span is split in proportion (not in time order) into what its "
            + "own time went to, then its nested spans (paler); the thread-state lane under the main thread shows, at each "
            + "moment, the split of the innermost span running then, and between spans what the sampler saw, hatched "
            + "(running or waiting for a CPU in the CPU colour: a sample cannot tell them apart), grey where nothing was read: "
            + kinds.map { "<span><i class=\"sw k-\($0.0)\"></i>\($0.1)</span>" }.joined()
            + "<span><i class=\"sw est\"></i>hatched: estimated from the sampler</span></p>"
            + "<p class=\"legend\"><span><i class=\"sw merged\"></i>spans under a pixel, merged (their count on the bar)</span>"
            + "<span>outline, the worst finding on the span:</span>"
            + "<span><i class=\"sw fo sev-critical\"></i>critical</span><span><i class=\"sw fo sev-warning\"></i>warning</span>"
            + "<span><i class=\"sw fo sev-info\"></i>info</span><span><i class=\"sw bl\"></i>budget line</span></p>"
    }()

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
