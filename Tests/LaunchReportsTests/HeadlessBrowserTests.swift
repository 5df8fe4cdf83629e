import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// The HTML page laid out by a real browser (headless Chromium): at 400 px
/// nothing sticks out but the tables' and charts' own scroll boxes; at
/// 1280 × 900 the verdict and the first finding are on screen and not covered;
/// a click on a finding zooms its span into view.
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
              var id = finding.getAttribute('data-finding'), span = doc.querySelector('[data-f~="' + id + '"]');
              var before = span ? span.getBoundingClientRect().width : -1;
              finding.click();
              var box = span ? span.getBoundingClientRect() : null, svg = span ? span.closest('svg').getBoundingClientRect() : null;
              out.zoom = !span ? 'no span drawn' : win.getComputedStyle(span).display === 'none' ? 'hidden'
                : !(box.width >= 8 && box.width >= before) ? 'not zoomed: ' + before.toFixed(1) + ' → ' + box.width.toFixed(1) + ' px'
                : box.left < svg.left - 1 || box.right > svg.right + 1 ? 'outside its chart'
                : box.top < 0 || box.bottom > win.innerHeight ? 'not scrolled into view' : 'ok';
            }
          } catch (error) { out.error = String(error); }
          var pre = document.createElement('pre');
          pre.id = 'result';
          pre.textContent = JSON.stringify(out);
          document.body.appendChild(pre);
        });
        """

    /// What the checks found for `page` framed at `width` × `height`.
    static func layout(of page: String, width: Int, height: Int) throws -> [String: Any] {
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
