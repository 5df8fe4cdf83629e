import Testing

@testable import LaunchAnalysis
@testable import LaunchReports

/// A comparison says what to fix right under its verdict, as a measurement's
/// page does: the head's new findings and the spans that got slower, with
/// their file and line.
@Suite("Comparison: what to fix")
struct ComparisonWhatToFixTests {
    /// The sample (its runs five times over) as head; as base, the sample without the spans of its first
    /// finding with a call site (so that finding is new in the head) and with
    /// another span a tenth as long (so it got slower in the head, beyond the runs' spread).
    func comparison() throws -> (report: ComparisonReport, finding: Finding, slower: SpanRecord) {
        // The sample's two runs, five times over: enough launches for the spans' intervals to exclude 0.
        let sample = try SampleReports.sample()
        let head = MeasurementReport(
            name: sample.name, createdAt: sample.createdAt, environment: sample.environment,
            configuration: sample.configuration,
            runs: (0..<5).flatMap { copy in
                sample.runs.map { run in
                    var run = run
                    run.index += copy * 100
                    return run
                }
            })
        let finding = try #require(head.profile.findings.first { $0.file != nil })
        let spans = try #require(head.successfulRuns.first?.timeline?.mainThreadSpans)
        // A leaf (no span nested in it), so that halving it keeps the nesting whole.
        // One that ran in every run: a span missing from a run counts 0 there, and its change is then within the noise.
        let everywhere = head.successfulRuns.compactMap(\.timeline).map {
            Set($0.mainThreadSpans.filter(\.beforeFirstFrame).map(\.key))
        }
        let leaves = spans.filter { span in
            span.beforeFirstFrame && span.key != finding.spanKey && span.wallNanoseconds > 2_000_000
                && everywhere.allSatisfy { $0.contains(span.key) }
                && !spans.contains {
                    $0.depth > span.depth && $0.beginNanoseconds >= span.beginNanoseconds
                        && $0.beginNanoseconds < span.endNanoseconds
                }
        }
        // The longest in its shortest run: a span whose runs differ tenfold (InstallSampleData) is not sure to have slowed.
        func shortest(_ span: SpanRecord) -> UInt64 {
            head.successfulRuns.compactMap(\.timeline).flatMap(\.mainThreadSpans).filter { $0.key == span.key }
                .map(\.wallNanoseconds).min() ?? 0
        }
        let slower = try #require(leaves.max { shortest($0) < shortest($1) })
        var runs = head.runs
        for index in runs.indices {
            guard var timeline = runs[index].timeline else { continue }
            timeline.mainThreadSpans.removeAll { $0.key == finding.spanKey }
            for position in timeline.mainThreadSpans.indices where timeline.mainThreadSpans[position].key == slower.key
            {
                var span = timeline.mainThreadSpans[position]
                span.endNanoseconds = span.beginNanoseconds + span.wallNanoseconds / 10
                span.selfNanoseconds /= 10
                timeline.mainThreadSpans[position] = span
            }
            runs[index].timeline = timeline
        }
        let base = MeasurementReport(
            name: "base", createdAt: head.createdAt, environment: head.environment, configuration: head.configuration,
            runs: runs)
        try #require(!base.profile.findings.contains { $0.spanKey == finding.spanKey && $0.rule == finding.rule })
        return (SampleReports.comparison(base, head), finding, slower)
    }

    @Test func markdownListsNewFindingsAndSlowerSpansUnderTheVerdict() throws {
        let (report, finding, slower) = try comparison()
        #expect(report.changes.newFindingsToFix.contains { $0.rule == finding.rule && $0.span == finding.span })
        #expect(report.changes.slowerSpans.contains { $0.name == slower.name && $0.line == slower.line })
        let markdown = MarkdownReport.render(.comparison(report))
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let top = try #require(lines.firstIndex(of: "**What to fix**"))
        #expect(
            lines[2].hasPrefix("❌") || lines[2].hasPrefix("✅") || lines[2].hasPrefix("⚠️"),
            "the verdict first: \(lines[2])")
        #expect(top == 4, "right under the verdict:\n\(markdown)")
        #expect(lines.firstIndex { $0.hasPrefix("| metric |") }.map { $0 > top } ?? true)
        let site = SourceSite.text(file: finding.file!, line: finding.line!)
        #expect(
            lines[top + 2].hasPrefix("- new `\(finding.rule.id)` **") && lines[top + 2].contains("`\(site)`"),
            "\(lines[top + 2])")
        let slowerSite = SourceSite.text(file: slower.file, line: slower.line)
        #expect(lines.contains { $0.hasPrefix("- slower **") && $0.contains("`\(slowerSite)`") }, "\(markdown)")
    }

    @Test func theHTMLPageListsThemRightUnderTheVerdictLinkedToTheHeadsTimeline() throws {
        let (report, finding, slower) = try comparison()
        let page = HTMLReport.render(.comparison(report))
        let top = try #require(page.range(of: "<section id=\"top\"><h2>What to fix</h2>"))
        let verdict = try #require(page.range(of: "<div class=\"verdict"))
        #expect(verdict.upperBound < top.lowerBound)
        for later in ["<section id=\"metrics\"", "<section id=\"changes\"", "<section id=\"timeline\""] {
            if let range = page.range(of: later) { #expect(top.upperBound < range.lowerBound, "\(later)") }
        }
        let index = try #require(report.head.profile.findings.firstIndex(of: finding))
        let end = try #require(page[top.upperBound...].range(of: "</section>"))
        let section = String(page[top.lowerBound..<end.lowerBound])
        #expect(section.contains("data-finding=\"h\(index)\""))
        // Call sites as the rest of the page shows them (HTMLReport.site: the file as the program named it, and the line).
        #expect(section.contains("<code>\(finding.file!):\(finding.line!)</code>"))
        #expect(section.contains("<code>\(slower.file):\(slower.line)</code>"))
        // The head's timeline marks the finding's spans with the same id, so a click finds them.
        #expect(page.contains("h\(index)\""))
    }

    @Test func ciAnnotationsMarkTheSlowerSpansAtTheirFileAndLine() throws {
        let (report, _, slower) = try comparison()
        var asked: [(fileID: String, filePath: String?)] = []
        let annotations = GitHubAnnotations.render(.comparison(report)) { fileID, filePath in
            asked.append((fileID, filePath))
            return "Sources/\(fileID)"
        }
        let lines = annotations.split(separator: "\n").map(String.init)
        let site = SourceSite.text(file: slower.file, line: slower.line)
        let line = try #require(
            lines.first {
                $0.hasPrefix("::warning file=Sources/\(slower.file),line=\(slower.line),") && $0.contains("slower span")
            },
            "\(annotations)")
        #expect(line.contains("::\(GitHubAnnotations.data(slower.name)) (\(site)): "), "\(line)")
        #expect(line.hasSuffix("ms)"), "base → head (+Δ): \(line)")
        // Every slower span What to fix lists is annotated, each once, and nothing else is called a slower span.
        let spans = report.changes.slowerSpans
        #expect(lines.filter { $0.contains("slower span") || $0.contains("new span") }.count == spans.count)
        #expect(asked.contains { $0.fileID == slower.file }, "the locator is asked for the span's #fileID")
        // The outcome's annotation stays the last line.
        #expect(lines.last?.contains("title=launchprof compare%3A ") == true, "\(annotations)")
    }

    @Test func aSlowerSpansAnnotationEscapesItsNameAsWorkflowCommandsNeedIt() {
        let span = FindingsDiff.SpanChange(name: "Load:a,b%\nc", file: "App/A.swift", line: 7, baseMs: 1, headMs: 3)
        let title = "launchprof: slower span " + span.name
        let line = GitHubAnnotations.line(
            level: "warning", file: "Sources/App/A.swift", line: 7, title: title,
            message: GitHubAnnotations.slowerSpanMessage(span))
        #expect(
            line == "::warning file=Sources/App/A.swift,line=7,title=launchprof%3A slower span Load%3Aa%2Cb%25%0Ac::"
                + "Load:a,b%25%0Ac (A.swift:7): 1.00 ms → 3.00 ms (+2.00 ms)")
    }

    @Test func aHeadThatAddedNothingHasNoList() throws {
        let sample = try SampleReports.sample()
        let report = SampleReports.comparison(sample, sample)
        #expect(!MarkdownReport.render(.comparison(report)).contains("What to fix"))
        #expect(!HTMLReport.render(.comparison(report)).contains("What to fix"))
    }
}
