import Foundation
import LaunchAnalysis
import Testing
import _SyntheticReports

@testable import LaunchReports

/// The HTML page laid out by a real browser (headless Chromium): at 400 px
/// nothing sticks out but the tables' and charts' own scroll boxes; at
/// 1280 × 900 the verdict and the first finding are on screen and not covered;
/// a click on a finding zooms its span into view; search counts and steps
/// through every match, drawn or not; the drawn split of a span is its stored one.
///
/// The page is loaded into an `iframe` of the width under test (Chromium's
/// window is never narrower than 500 px) through `srcdoc`, so a script in the
/// harness page can read its layout; the results are written into the
/// harness's DOM, which `--dump-dom` prints. Skipped, with the reason, when no
/// `chromium` is installed (`.ci/run` installs it).
@Suite("HTML report in a browser", .enabled(if: Chromium.path != nil, "no chromium on PATH (.ci/run installs it)"))
struct HeadlessBrowserTests {

    /// The checks, run in the harness page once the framed report has loaded.
    static let checks = """
        window.addEventListener('load', function () {
          var out = {}, frame = document.getElementById('f'), win = frame.contentWindow, doc = frame.contentDocument;
          try {
            out.width = win.innerWidth;
            out.scrollWidth = doc.documentElement.scrollWidth;
            var clipped = [], all = doc.body.querySelectorAll('*');
            for (var i = 0; i < all.length; i++) {
              var el = all[i];
              if (el.closest('.tablebox, .scroll') || el.closest('svg')) { continue; }
              var box = el.getBoundingClientRect();
              if (box.width > 0 && box.right > win.innerWidth + 0.5) { clipped.push(el.tagName + '.' + el.className + ' ' + Math.round(box.right)); }
            }
            out.clipped = clipped.slice(0, 5);
            var boxes = doc.querySelectorAll('.tablebox'), cut = [];
            for (var b = 0; b < boxes.length; b++) {
              if (boxes[b].scrollWidth > boxes[b].clientWidth + 1) { cut.push(boxes[b].parentNode.id + ' ' + boxes[b].scrollWidth + '/' + boxes[b].clientWidth); }
            }
            out.tablesCut = cut;
            // Tables that stack on a narrow window: none scrolls, and every verdict is on screen.
            var stacked = doc.querySelectorAll('.tablebox table.stack'), stackCut = [];
            for (var t = 0; t < stacked.length; t++) {
              var holder = stacked[t].parentNode;
              if (holder.scrollWidth > holder.clientWidth + 1) { stackCut.push(holder.parentNode.id + ' ' + holder.scrollWidth + '/' + holder.clientWidth); }
            }
            var verdicts = doc.querySelectorAll('td.verdict-cell'), offscreen = [];
            for (var v = 0; v < verdicts.length; v++) {
              var vb = verdicts[v].getBoundingClientRect();
              if (!(vb.width > 0) || vb.right > win.innerWidth + 0.5 || vb.left < -0.5) { offscreen.push(verdicts[v].textContent + ' ' + Math.round(vb.left) + '–' + Math.round(vb.right)); }
            }
            out.stackCut = stackCut;
            // The strip charts' text (ticks, labels, the budget) stays inside its chart, across and up and down.
            var strips = doc.querySelectorAll('svg.strip'), outside = [];
            for (var c = 0; c < strips.length; c++) {
              var chart = strips[c].getBoundingClientRect(), texts = strips[c].querySelectorAll('text');
              for (var x = 0; x < texts.length; x++) {
                var tb = texts[x].getBoundingClientRect();
                if (tb.width > 0 && (tb.right > chart.right + 0.5 || tb.left < chart.left - 0.5 || tb.top < chart.top - 0.5 || tb.bottom > chart.bottom + 0.5)) { outside.push(texts[x].textContent + ' ' + Math.round(tb.left) + '–' + Math.round(tb.right) + ' in ' + Math.round(chart.left) + '–' + Math.round(chart.right)); }
              }
            }
            out.stripTextOutside = outside.slice(0, 5);
            // Shown tick labels never run into each other.
            var crowded = [];
            for (var c2 = 0; c2 < strips.length; c2++) {
              var ticks = strips[c2].querySelectorAll('text.tick'), last = null;
              for (var t2 = 0; t2 < ticks.length; t2++) {
                var box2 = ticks[t2].getBoundingClientRect();
                if (!(box2.width > 0)) { continue; }
                if (last && box2.left < last.right + 2) { crowded.push(ticks[t2].textContent); }
                last = box2;
              }
            }
            out.ticksCrowded = crowded;
            out.verdictCells = verdicts.length;
            out.verdictsOffscreen = offscreen;
            function hit(selector) {
              var el = doc.querySelector(selector);
              if (!el) { return 'missing'; }
              var box = el.getBoundingClientRect(), x = box.left + box.width / 2, y = box.top + box.height / 2;
              if (y > win.innerHeight || x > win.innerWidth) { return 'below the fold at ' + Math.round(y); }
              var found = doc.elementFromPoint(x, y);
              return found && (found === el || el.contains(found)) ? 'ok' : 'covered by ' + (found ? found.tagName + '.' + found.className : 'nothing');
            }
            out.verdict = hit('.verdict');
            out.finding = hit('[data-finding]');
            var finding = doc.querySelector('[data-finding]');
            if (finding) {
              finding.click();
              var models = win.launchprof ? win.launchprof.timelines : [], m = null;
              for (var k = 0; k < models.length; k++) { if (models[k].sel >= 0) { m = models[k]; } }
              if (!m) { out.zoom = 'no span selected'; } else {
                var s = m.sel, w = m.x(m.e[s]) - m.x(m.b[s]), box = m.canvas.getBoundingClientRect();
                out.zoom = !(w >= 8) ? 'not zoomed: ' + w.toFixed(1) + ' px'
                  : m.x(m.b[s]) < m.G - 1 || m.x(m.e[s]) > m.G + m.P + 1 ? 'outside its chart'
                  : box.bottom < 0 || box.top > win.innerHeight ? 'not scrolled into view'
                  : !m.hl || m.hl.indexOf(s) < 0 ? 'not highlighted' : 'ok';
              }
            }
          } catch (error) { out.error = String(error); }
          var pre = document.createElement('pre');
          pre.id = 'result';
          pre.textContent = JSON.stringify(out);
          document.body.appendChild(pre);
        });
        """

    /// What the checks found for `page` framed at `width` × `height`.
    static func layout(of page: String, width: Int, height: Int, checks: String = checks) throws -> [String: Any] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "launchprof-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let srcdoc = page.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        let harness =
            "<!DOCTYPE html><html><head><style>body{margin:0}iframe{border:0;display:block}</style></head><body>"
            + "<iframe id=\"f\" width=\"\(width)\" height=\"\(height)\" srcdoc=\"\(srcdoc)\"></iframe><script>\(checks)</script></body></html>"
        let file = directory.appendingPathComponent("harness.html")
        try harness.write(to: file, atomically: true, encoding: .utf8)
        let output = try run([
            "--headless", "--no-sandbox", "--disable-gpu", "--window-size=\(max(width, 500)),\(height + 100)",
            "--virtual-time-budget=5000", "--dump-dom", file.absoluteString,
        ])
        let start = try #require(
            output.range(of: "<pre id=\"result\">"), "no result in the dumped DOM:\n\(output.prefix(400))")
        let end = try #require(output.range(of: "</pre>", range: start.upperBound..<output.endIndex))
        let json = String(output[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// Runs chromium with `arguments`, returning its standard output.
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Chromium.path!)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The naive sample, a plain program and a comparison of the sample with a slower head.
    static func pages() throws -> [(name: String, html: String)] {
        let sample = try SampleReports.sample()
        var slower = sample
        for index in slower.runs.indices {
            guard var timeline = slower.runs[index].timeline else { continue }
            timeline.milestones = timeline.milestones.mapValues { $0 + 20_000_000 }
            slower.runs[index].timeline = timeline
        }
        return [
            ("naive sample", HTMLReport.render(.measurement(sample))),
            (
                "plain program",
                HTMLReport.render(.measurement(try SampleReports.uninstrumented(SampleReports.around(400, 100))))
            ),
            ("comparison", HTMLReport.render(.comparison(SampleReports.comparison(sample, slower)))),
            ("regression", HTMLReport.render(RenderedGoldenTests.comparison())),
            // The budget at the chart's right edge, an outlier run beside it: their labels must stay inside.
            (
                "budget at the edge",
                HTMLReport.render(
                    .measurement(
                        try SampleReports.uninstrumented((0..<19).map { 350 + Double($0 % 5) - 2 } + [399.5])))
            ),
        ]
    }

    @Test func atFourHundredPixelsNothingSticksOutButTheScrollBoxes() throws {
        // LAUNCHPROF_BROWSER_PAGES=DIR keeps the pages, to look at or screenshot.
        if let keep = ProcessInfo.processInfo.environment["LAUNCHPROF_BROWSER_PAGES"] {
            for page in try Self.pages() {
                try page.html.write(
                    toFile: keep + "/" + page.name.replacingOccurrences(of: " ", with: "-") + ".html", atomically: true,
                    encoding: .utf8)
            }
        }
        for page in try Self.pages() {
            let result = try Self.layout(of: page.html, width: 400, height: 900)
            #expect(result["error"] == nil, "\(page.name): \(result["error"] ?? "")")
            #expect(result["width"] as? Int == 400, "\(page.name)")
            let scrollWidth = try #require(result["scrollWidth"] as? Int)
            #expect(scrollWidth <= 400, "\(page.name): scrollWidth \(scrollWidth)")
            #expect((result["clipped"] as? [String]) == [], "\(page.name): \(result["clipped"] ?? "")")
            #expect(
                (result["stripTextOutside"] as? [String]) == [], "\(page.name): \(result["stripTextOutside"] ?? "")")
            #expect((result["ticksCrowded"] as? [String]) == [], "\(page.name): \(result["ticksCrowded"] ?? "")")
            // The phase and metric tables stack their rows instead of scrolling, so every verdict is readable.
            #expect((result["stackCut"] as? [String]) == [], "\(page.name): \(result["stackCut"] ?? "")")
            #expect(
                (result["verdictsOffscreen"] as? [String]) == [], "\(page.name): \(result["verdictsOffscreen"] ?? "")")
            if page.name == "regression" {
                #expect((result["verdictCells"] as? Int ?? 0) > 0, "\(page.name): no verdict cells")
            }
        }
    }

    @Test(arguments: [1280, 1920])
    func atDesktopWidthsNothingIsCutOffAndNoTableScrolls(width: Int) throws {
        for page in try Self.pages() {
            let result = try Self.layout(of: page.html, width: width, height: 900)
            #expect(result["error"] == nil, "\(page.name): \(result["error"] ?? "")")
            #expect((result["scrollWidth"] as? Int).map { $0 <= width } == true, "\(page.name) at \(width)")
            #expect((result["clipped"] as? [String]) == [], "\(page.name) at \(width): \(result["clipped"] ?? "")")
            #expect((result["tablesCut"] as? [String]) == [], "\(page.name) at \(width): \(result["tablesCut"] ?? "")")
            #expect(
                (result["stripTextOutside"] as? [String]) == [],
                "\(page.name) at \(width): \(result["stripTextOutside"] ?? "")")
        }
    }

    @Test func atDesktopSizeTheVerdictAndTheFirstFindingAreOnScreenAndAClickZoomsToItsSpan() throws {
        for page in try Self.pages() {
            let result = try Self.layout(of: page.html, width: 1280, height: 900)
            #expect(result["error"] == nil, "\(page.name): \(result["error"] ?? "")")
            #expect(result["verdict"] as? String == "ok", "\(page.name): verdict \(result["verdict"] ?? "")")
            if page.name == "naive sample" {
                #expect(result["finding"] as? String == "ok", "\(page.name): first finding \(result["finding"] ?? "")")
                #expect(result["zoom"] as? String == "ok", "\(page.name): \(result["zoom"] ?? "")")
            }
        }
    }

    /// The page's search, run in the page: every match counted and stepped through, most of them not drawn.
    static let searchChecks = """
        window.addEventListener('load', function () {
          var out = {}, win = document.getElementById('f').contentWindow;
          try {
            var m = win.launchprof.timelines[0];
            m.zoomTo(0, m.end);
            out.spans = m.n;
            out.count = m.search('tinyone');
            out.shown = m.found.textContent;
            function drawnAlone(span) {
              var items = m.items[m.raw.t[span]];
              for (var k = 0; k < items.length; k++) {
                if (items[k][3] < 0 && m.tracks[m.raw.t[span]][items[k][2]] === span) { return true; }
              }
              return false;
            }
            var alone = 0;
            for (var i = 0; i < m.n; i++) { if (m.matchFlag[i] && drawnAlone(i)) { alone++; } }
            out.drawnAtWholeView = alone;
            var seen = {}, distinct = 0, revealed = 0;
            for (var k = 0; k < out.count; k++) {
              var span = m.step(1);
              if (!seen[span]) { seen[span] = 1; distinct++; }
              if (drawnAlone(span) && m.sel === span) { revealed++; }
            }
            out.distinct = distinct;
            out.revealed = revealed;
            out.wrapped = m.step(1) === m.matches[0];
          } catch (error) { out.error = String(error); }
          var pre = document.createElement('pre');
          pre.id = 'result';
          pre.textContent = JSON.stringify(out);
          document.body.appendChild(pre);
        });
        """

    @Test func searchCountsAndStepsThroughEveryMatchDrawnOrNot() throws {
        var report = SyntheticReports.synthetic(runs: 1, spans: 6_000)
        var timeline = try #require(report.runs[0].timeline)
        var renamed = 0
        for index in timeline.mainThreadSpans.indices where index % 20 == 1 {
            timeline.mainThreadSpans[index].name = "TinyOne"
            timeline.mainThreadSpans[index].endNanoseconds = timeline.mainThreadSpans[index].beginNanoseconds + 2_000
            renamed += 1
        }
        report.runs[0].timeline = timeline
        let result = try Self.layout(
            of: HTMLReport.render(.measurement(report)), width: 1280, height: 900, checks: Self.searchChecks)
        #expect(result["error"] == nil, "\(result["error"] ?? "")")
        #expect(result["spans"] as? Int == 6_000)
        #expect(result["count"] as? Int == renamed)
        #expect((result["shown"] as? String)?.hasPrefix("\(renamed) span(s) match") == true)
        let drawn = try #require(result["drawnAtWholeView"] as? Int)
        #expect(drawn < renamed / 10, "\(drawn) of \(renamed) drawn alone at the whole view")
        #expect(result["distinct"] as? Int == renamed)
        #expect(result["revealed"] as? Int == renamed)
        #expect(result["wrapped"] as? Bool == true)
    }

    /// The milestone labels at the opening view and the whole launch: each label's extent, row and milestones.
    static let markChecks = """
        window.addEventListener('load', function () {
          var out = {}, win = document.getElementById('f').contentWindow;
          try {
            var m = win.launchprof.timelines[0];
            out.width = m.W; out.gutter = m.G;
            out.opening = { labels: m.markLabels, inView: m.marksInView };
            m.zoomTo(0, m.end);
            out.whole = { labels: m.markLabels, inView: m.marksInView };
          } catch (error) { out.error = String(error); }
          var pre = document.createElement('pre');
          pre.id = 'result';
          pre.textContent = JSON.stringify(out);
          document.body.appendChild(pre);
        });
        """

    @Test(arguments: [1280, 400])
    func milestoneLabelsNeverOverlapStayInTheChartAndNameEveryMilestone(width: Int) throws {
        let page = HTMLReport.render(.measurement(try SampleReports.sample()))
        let result = try Self.layout(of: page, width: width, height: 900, checks: Self.markChecks)
        #expect(result["error"] == nil, "\(result["error"] ?? "")")
        let chartWidth = try #require((result["width"] as? NSNumber)?.doubleValue)
        let gutter = try #require((result["gutter"] as? NSNumber)?.doubleValue)
        for view in ["opening", "whole"] {
            let state = try #require(result[view] as? [String: Any])
            let labels = try #require(state["labels"] as? [[Double]])
            let inView = try #require(state["inView"] as? Int)
            #expect(inView > 3, "\(view): \(inView) milestones in view")
            // Every milestone in view is in exactly one label ("spawn +2" holds three).
            #expect(labels.map { Int($0[3]) }.reduce(0, +) == inView, "\(view): \(labels)")
            for label in labels {
                #expect(label[0] >= gutter - 4 && label[1] <= chartWidth, "\(view): \(label) outside 0–\(chartWidth)")
            }
            for (index, label) in labels.enumerated() {
                for other in labels[(index + 1)...] where other[2] == label[2] {
                    #expect(
                        other[0] >= label[1] + 4 || label[0] >= other[1] + 4, "\(view): \(label) and \(other) overlap")
                }
            }
        }
    }

    /// Each main-thread span's drawn segments (as the page's script computes them to draw), in nanoseconds.
    static let splitChecks = """
        window.addEventListener('load', function () {
          var out = {}, win = document.getElementById('f').contentWindow;
          try {
            var m = win.launchprof.timelines[0], kinds = ['cpu', 'runQueue', 'disk', 'network', 'lock', 'sleep', 'wait', 'none'];
            out.spans = [];
            for (var i = 0; i < m.n; i++) {
              if (m.trackLane[m.raw.t[i]] !== 0) { continue; }
              var parts = {};
              m.segments(i).forEach(function (s) {
                var key = s[0] < 0 ? 'nested' : s[0] === 6 ? 'other' : kinds[s[0]];
                parts[key] = (parts[key] || 0) + s[1] * m.raw.d[i];
              });
              out.spans.push({ name: m.raw.str[m.raw.nm[i]], begin: m.b[i], parts: parts });
            }
          } catch (error) { out.error = String(error); }
          var pre = document.createElement('pre');
          pre.id = 'result';
          pre.textContent = JSON.stringify(out);
          document.body.appendChild(pre);
        });
        """

    @Test func theDrawnSplitOfEveryMainThreadSpanIsItsStoredSplit() throws {
        let report = try SampleReports.sample()
        let median = try #require(HTMLReport.medianRun(of: report, metric: .timeToFirstFrame)?.timeline)
        let result = try Self.layout(
            of: HTMLReport.render(.measurement(report)), width: 1280, height: 900, checks: Self.splitChecks)
        #expect(result["error"] == nil, "\(result["error"] ?? "")")
        let drawn = try #require(result["spans"] as? [[String: Any]])
        #expect(drawn.count == median.mainThreadSpans.count)
        var checked = 0
        for (span, shown) in zip(median.mainThreadSpans, drawn) {
            #expect(shown["name"] as? String == span.name)
            let parts = try #require(shown["parts"] as? [String: Any]).mapValues {
                ($0 as? NSNumber)?.doubleValue ?? .nan
            }
            let split = SpanTimeSplit(span)
            let accounted = split.parts.map(\.milliseconds).reduce(0, +)
            // Drawn as stored when the parts fit in the self time (as a well-formed record's do).
            guard accounted <= split.selfMs + 1e-6 else { continue }
            for part in split.parts {
                let key =
                    ["cpu", "runQueue", "disk", "network", "lock", "sleep"].contains(part.key) ? part.key : "other"
                let stored = split.parts.filter {
                    (["cpu", "runQueue", "disk", "network", "lock", "sleep"].contains($0.key) ? $0.key : "other") == key
                }
                .map(\.milliseconds).reduce(0, +)
                #expect(abs((parts[key] ?? 0) / 1e6 - stored) < 1e-6, "\(span.name) \(key)")
            }
            #expect(abs((parts["none"] ?? 0) / 1e6 - (split.selfMs - accounted)) < 1e-6, "\(span.name) not accounted")
            #expect(
                abs(
                    (parts["nested"] ?? 0)
                        - Double(span.wallNanoseconds - min(span.selfNanoseconds, span.wallNanoseconds))) < 1,
                "\(span.name) nested")
            checked += 1
        }
        #expect(checked > 5)
    }
}

/// Where headless Chromium is, if it is installed.
enum Chromium {
    static let path: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome"] {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()
}
