import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing
import Testing

/// The HTML page, checked against the report it was rendered from: what it
/// says, what it draws, what it escapes, and that it fetches nothing.
@Suite("HTML report")
struct HTMLReportTests {
    static func fixture() throws -> MeasurementReport {
        try JSONReport.read(from: FixtureFiles.path("measurement-v1-sample.json"))
    }

    /// The successful counted run whose time to first frame is the median (the lower middle one).
    static func medianRun(_ report: MeasurementReport) throws -> RunRecord {
        let runs = report.runs.filter { !$0.isWarmup && $0.status == .ok && $0.milliseconds(.timeToFirstFrame) != nil }
            .sorted {
                ($0.milliseconds(.timeToFirstFrame)!, $0.index) < ($1.milliseconds(.timeToFirstFrame)!, $1.index)
            }
        try #require(!runs.isEmpty)
        return runs[(runs.count - 1) / 2]
    }

    /// `text` as the page escapes it.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// The timeline data of the figure whose findings' ids start with `side` (`m`, `b`, `h`).
    static func timelineData(_ page: String, side: String) throws -> [String: Any] {
        try #require(try TimelineDataTests.data(page).first { $0["side"] as? String == side })
    }

    /// The names of every span the timeline of `side` carries, in the data's order.
    static func drawnSpanNames(_ page: String, side: String) throws -> [String] {
        let data = try timelineData(page, side: side)
        let strings = try #require(data["str"] as? [String])
        return try #require(data["nm"] as? [Int]).map { strings[$0] }
    }

    /// Every way a page could make a request, outside the SVG namespace declaration.
    static func requests(in page: String) -> [String] {
        let scanned = page.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "").lowercased()
        return ["src=", "href=", "url(", "@import", "fetch(", "http://", "https://", "<link", "<img", "<iframe"].filter
        {
            scanned.contains($0)
        }
    }

    @Test func eachOtherThreadHasALaneNamedAfterIt() throws {
        var report = try Self.fixture()
        let median = try Self.medianRun(report)
        let index = try #require(report.runs.firstIndex { $0.index == median.index && !$0.isWarmup })
        var timeline = try #require(report.runs[index].timeline)
        let other = try #require(timeline.otherSpans.first)
        // A report written before spans carried their thread: lanes of spans that never overlap, said so.
        let old = HTMLReport.render(.measurement(report))
        #expect(old.contains("not by thread"))
        // Spans that carry their thread's id: a lane per thread, by name (escaped), and no such note.
        timeline.threads = [
            TimelineThread(id: 7, name: "main", isMain: true), TimelineThread(id: 41, name: "io<queue>", isMain: false),
        ]
        var named = other
        var unnamed = other
        named.threadID = 41
        unnamed.threadID = 42
        unnamed.name = "OnAnotherThread"
        timeline.otherSpans = [named, unnamed]
        report.runs[index].timeline = timeline
        let page = HTMLReport.render(.measurement(report))
        let lanes = try #require(try Self.timelineData(page, side: "m")["lanes"] as? [[Any]]).map { $0[0] as? String }
        #expect(lanes.contains("io<queue> · 41"))
        #expect(lanes.contains("thread 42"))
        #expect(!page.contains("not by thread"))
    }

    @Test func theMeasurementPageSaysWhatTheReportSays() throws {
        let report = try Self.fixture()
        let page = HTMLReport.render(.measurement(report))
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains(Self.escaped(report.outcome.reason)))
        // The verdict comes before everything else.
        let verdict = try #require(page.range(of: "class=\"verdict"))
        let name = try #require(page.range(of: "<h1>" + Self.escaped(report.name) + "</h1>"))
        #expect(verdict.lowerBound < name.lowerBound)
        #expect(page.contains("mode <b>\(report.configuration.mode.rawValue)</b>"))

        // Every phase, with its median as the terminal writes it, on its own row.
        try #require(!report.profile.phases.isEmpty)
        for statistics in report.profile.phases {
            let row =
                "\(statistics.phase.rawValue)</td><td class=\"n\" data-label=\"median\">\(ms(statistics.summary.median))</td>"
            #expect(page.contains(row), "phase row \(statistics.phase.rawValue)")
        }

        // Every finding: rule, call site, recommendation.
        try #require(!report.profile.findings.isEmpty)
        for finding in report.profile.findings {
            #expect(page.contains("<code class=\"rule\">\(finding.rule.id)</code>"))
            if let file = finding.file, let line = finding.line {
                #expect(page.contains("<code>" + Self.escaped("\(file):\(line)") + "</code>"))
            }
            #expect(page.contains("<p class=\"rec\">" + Self.escaped(finding.recommendation) + "</p>"))
        }
    }

    @Test func theTimelineDrawsEachSpanOfTheMedianRunOnce() throws {
        let report = try Self.fixture()
        let page = HTMLReport.render(.measurement(report))
        let median = try Self.medianRun(report)
        let timeline = try #require(median.timeline)
        #expect(
            page.contains(
                "run \(median.index) of \(report.profile.runCount): timeToFirstFrame "
                    + Milliseconds.text(try #require(median.milliseconds(.timeToFirstFrame)))))

        let spans = timeline.mainThreadSpans + timeline.otherSpans
        let drawn = try Self.drawnSpanNames(page, side: "m")
        #expect(drawn.sorted() == spans.map(\.name).sorted())
        #expect(page.contains("all \(spans.count) spans are in the page"))

        // Every phase of the band between spawn and the first frame, and every milestone.
        let data = try Self.timelineData(page, side: "m")
        let phases = try #require(data["phases"] as? [[Any]]).compactMap { $0[0] as? String }
        for phase in [Phase.loader, .staticInit, .appInit, .willFinishLaunching, .didFinishLaunching, .initialFrame]
        where timeline.phases[phase] != nil {
            #expect(phases.contains(phase.rawValue))
        }
        let marks = try #require(data["marks"] as? [[Any]]).compactMap { $0[0] as? String }
        #expect(Set(marks) == Set(timeline.milestones.keys.map(\.id)))
        #expect(
            data["budgetText"] as? String
                == "budget \(Milliseconds.text(report.configuration.budget.timeToFirstFrameMs))")

        // Each main-thread span a finding names (by name and call site) carries the finding, and no other span does.
        let spansOf = try #require(data["fsp"] as? [[Int]])
        let ids = try #require(data["fid"] as? [String])
        let texts = try #require(data["ft"] as? [String])
        let worst = try #require(data["fx"] as? [Int])
        for (index, finding) in report.profile.findings.enumerated() {
            let concerned = timeline.mainThreadSpans.filter {
                $0.name == finding.span && (finding.file == nil || ($0.file == finding.file && $0.line == finding.line))
            }
            #expect(ids[index] == "m\(index)")
            #expect(spansOf[index].count == concerned.count, "finding \(finding.rule.id) on \(finding.span)")
            #expect(spansOf[index].allSatisfy { drawn[$0] == finding.span })
            #expect(texts[index].hasSuffix("\n" + finding.recommendation))
        }
        #expect(
            worst.count / 2
                == timeline.mainThreadSpans.filter { span in
                    report.profile.findings.contains {
                        $0.span == span.name && ($0.file == nil || ($0.file == span.file && $0.line == span.line))
                    }
                }.count)
    }

    @Test func theDistributionHasOneDotPerSuccessfulRun() throws {
        let report = try Self.fixture()
        let page = HTMLReport.render(.measurement(report))
        let runs = report.runs.filter { !$0.isWarmup && $0.status == .ok }
        #expect(page.components(separatedBy: "<circle class=\"pt").count - 1 == runs.count)
        for run in runs {
            #expect(
                page.contains(
                    "<title>run \(run.index): \(Milliseconds.text(try #require(run.milliseconds(.timeToFirstFrame))))"))
        }
    }

    @Test func outlierRunsAreRinged() throws {
        var report = try Self.fixture()
        let phase = try #require(report.profile.phases.firstIndex { $0.phase == .timeToFirstFrame })
        report.profile.phases[phase].outlierRuns = [report.runs.last!.index]
        let page = HTMLReport.render(.measurement(report))
        #expect(page.contains("<circle class=\"pt out"))
        #expect(page.contains(">run \(report.runs.last!.index)</text>"))
    }

    @Test func thePageFetchesNothing() throws {
        let report = try Self.fixture()
        let measurement = HTMLReport.render(.measurement(report))
        #expect(Self.requests(in: measurement) == [])
        #expect(measurement.contains("default-src 'none'"))
        let comparison = HTMLReport.render(.comparison(try Self.comparison()))
        #expect(Self.requests(in: comparison) == [])
    }

    @Test func namesFromTheReportAreEscaped() throws {
        var report = try Self.fixture()
        let hostile = "Load <Cache> & \"Prefs\" 'x'"
        for index in report.runs.indices {
            report.runs[index].timeline?.mainThreadSpans[1].name = hostile
        }
        report.name = "<b>app</b>"
        report.outcome.reason = "over <budget> & \"late\""
        report.profile.findings[0].span = hostile
        report.profile.findings[0].recommendation = "move <script>alert(1)</script> & co"
        let page = HTMLReport.render(.measurement(report))
        for raw in [hostile, "<b>app</b>", "<budget>", "<script>alert", "<Cache>"] {
            #expect(!page.contains(raw), "\(raw) unescaped")
        }
        #expect(page.contains(Self.escaped(hostile)))
        #expect(try Self.drawnSpanNames(page, side: "m").contains(hostile))
        #expect(page.contains("over &lt;budget&gt; &amp; &quot;late&quot;"))
        #expect(page.contains("move &lt;script&gt;alert(1)&lt;/script&gt; &amp; co"))
        // The page's own script is the only one.
        #expect(page.components(separatedBy: "<script>").count == 2)
    }

    static func comparison() throws -> ComparisonReport {
        let base = try fixture()
        var head = try fixture()
        head.name = "sample-head"
        // Two runs a side: only a level above 1/C(4, 2) can ever decide (issue 21), so α is raised for this rendering test.
        let plan = ComparisonPlan(
            name: "sample", source: .storedReports, settings: GateSettings(alpha: 0.4), stages: [2])
        return ComparisonReport(plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-23T10:00:00Z")
    }

    @Test func aComparisonShowsItsVerdictMetricsAndBothTimelines() throws {
        let report = try Self.comparison()
        let page = HTMLReport.render(.comparison(report))
        #expect(page.contains(Self.escaped(report.outcome.reason)))
        try #require(!report.metrics.isEmpty)
        for metric in report.metrics {
            #expect(page.contains("<td>" + Self.escaped(metric.name)))
        }
        #expect(
            page.contains(
                "<th class=\"n\">base median</th><th class=\"n\">head median</th><th class=\"n\">median diff</th>"
                    + "<th class=\"n\">est. shift</th>"))
        let base = try Self.medianRun(report.base)
        let head = try Self.medianRun(report.head)
        let baseTitle = try #require(page.range(of: "<h3>base: run \(base.index), timeToFirstFrame"))
        let headTitle = try #require(page.range(of: "<h3>head: run \(head.index), timeToFirstFrame"))
        #expect(baseTitle.lowerBound < headTitle.lowerBound)
        let baseSpans = try #require(base.timeline).mainThreadSpans + base.timeline!.otherSpans
        let headSpans = try #require(head.timeline).mainThreadSpans + head.timeline!.otherSpans
        #expect(try Self.drawnSpanNames(page, side: "b").count == baseSpans.count)
        #expect(try Self.drawnSpanNames(page, side: "h").count == headSpans.count)
        #expect(page.contains("<title>launchprof compare — sample</title>"))
    }

    @Test func whyItChangedListsNewAndGoneFindings() throws {
        var head = try Self.fixture()
        let gone = head.profile.findings.removeFirst()
        let base = try Self.fixture()
        let plan = ComparisonPlan(name: "sample", source: .storedReports, settings: GateSettings(), stages: [2])
        let report = ComparisonReport(
            plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-23T10:00:00Z")
        try #require(report.changes.gone.count == 1)
        let page = HTMLReport.render(.comparison(report))
        #expect(page.contains("<h2>Why it changed</h2>"))
        #expect(
            page.contains(
                "<span class=\"tag good\">gone</span><code class=\"rule\">\(gone.rule.id)</code><b>"
                    + Self.escaped(gone.span) + "</b>"))
    }

    /// A 100-run report of 10,000 spans a run: the page carries every span of the
    /// median run (the script draws what fits), once, and no other run's spans, so
    /// it stays under 5 MB, at most a few hundred bytes a span, and 99 more runs add
    /// only their dots. How long it takes to render is `Benchmarks/timeline-timing.py`'s
    /// business, not a test's.
    @Test func aLargeReportStaysLight() throws {
        var report = try Self.fixture()
        let template = try #require(report.runs.first { $0.timeline != nil })
        var timeline = try #require(template.timeline)
        let spawn = try #require(timeline.milestones[.spawn])
        let firstFrame = try #require(timeline.milestones[.firstFrame])
        let step = (firstFrame - spawn) / 10_000
        var spans: [SpanRecord] = []
        spans.reserveCapacity(10_000)
        let model = timeline.mainThreadSpans[0]
        for index in 0..<10_000 {
            var span = model
            span.name = "Work\(index)"
            span.line = index
            span.depth = index % 3
            span.beginNanoseconds = spawn + UInt64(index) * step
            span.endNanoseconds = span.beginNanoseconds + step / UInt64(1 + index % 7)
            spans.append(span)
        }
        timeline.mainThreadSpans = Array(spans[..<8_000])
        timeline.otherSpans = Array(spans[8_000...])
        // The runs share one span array (copy on write), so the test stays small too.
        report.runs = (1...100).map { index in
            var run = template
            run.index = index
            run.isWarmup = false
            run.timeline = timeline
            run.timeline?.phases[.timeToFirstFrame] = (firstFrame - spawn) + UInt64(index) * 1_000
            run.timeToReadyMs = Double(index)
            return run
        }
        let page = HTMLReport.render(.measurement(report))
        #expect(page.utf8.count < 5_000_000)
        #expect(page.utf8.count / 10_000 < 400, "\(page.utf8.count / 10_000) bytes a span")
        #expect(try Self.drawnSpanNames(page, side: "m").count == 10_000)
        #expect(page.components(separatedBy: "script type=\"application/json\" class=\"tl-data\"").count - 1 == 1)
        #expect(page.contains("all 10000 spans are in the page"))
        #expect(page.components(separatedBy: "<circle class=\"pt").count - 1 == 100)
        // One run of the same spans: the other 99 runs add their dots and rows, never their spans.
        var single = report
        single.runs = [report.runs[49]]
        let onePage = HTMLReport.render(.measurement(single))
        #expect(try Self.drawnSpanNames(onePage, side: "m").count == 10_000)
        #expect(page.utf8.count - onePage.utf8.count < 99 * 1_000, "\(page.utf8.count - onePage.utf8.count) bytes")
    }
}
