import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing
import Testing

/// Each text defect the report review found, checked on the rendered text.
@Suite("Report text")
struct TextDefectTests {
    /// `report` made again from its runs with a changed configuration (its profile and outcome recomputed).
    static func remade(
        _ report: MeasurementReport, runs: [RunRecord]? = nil, _ change: (inout MeasureConfiguration) -> Void = { _ in }
    )
        -> MeasurementReport
    {
        var configuration = report.configuration
        change(&configuration)
        return MeasurementReport(
            name: report.name, createdAt: report.createdAt, environment: report.environment,
            configuration: configuration,
            runs: runs ?? report.runs)
    }

    /// The sample's runs without any main-thread span named `name`.
    static func without(_ name: String, _ report: MeasurementReport) -> [RunRecord] {
        report.runs.map { run in
            var run = run
            run.timeline?.mainThreadSpans.removeAll { $0.name == name }
            return run
        }
    }

    @Test func theMarkdownSaysHowManyFindingsItLeavesOut() throws {
        let report = try SampleReports.sample()
        #expect(report.profile.findings.count == 8)
        let markdown = MarkdownReport.render(.measurement(report))
        #expect(markdown.contains("… and 3 more finding(s) (8 in all)"))
        let listed = markdown.split(separator: "\n").filter { $0.hasPrefix("- `") }
        #expect(listed.count == MarkdownReport.findingsShown)
    }

    @Test func theShareOfBudgetNamesTheBudgetItIsAgainst() throws {
        let report = try SampleReports.sample()
        let hook = try #require(
            report.profile.findings.first { $0.rule == .hookOverBudget && $0.span == "didFinishLaunching" })
        let check = try #require(report.profile.verdict.check(.phase(.didFinishLaunching)))
        // Against the hook's own budget, whatever share the report stored (this one, against the frame budget).
        let share = Int((hook.medianMs / check.budgetMs * 100).rounded())
        #expect(share > 100)
        let page = HTMLReport.render(.measurement(report))
        #expect(page.contains("\(share)% of didFinishLaunching&#39;s budget (\(ms(check.budgetMs)))"))
        #expect(page.contains("% of the time-to-first-frame budget"))
        let terminal = TerminalReport.render(.measurement(report), options: RenderOptions(color: false))
        #expect(terminal.contains("\(share)% of didFinishLaunching's budget"))
        #expect(!page.contains("% of budget<"))
    }

    @Test func aSpanOverItsBudgetIsAShareOfThatSpansBudget() throws {
        let sample = try SampleReports.sample()
        let report = Self.remade(sample) { $0.budget.spansMs = ["DecodeCatalog": 1] }
        let finding = try #require(
            report.profile.findings.first { $0.rule == .spanOverBudget && $0.span == "DecodeCatalog" })
        let check = try #require(report.profile.verdict.check(.span("DecodeCatalog")))
        let share = Int((finding.medianMs / check.budgetMs * 100).rounded())
        #expect(share > 100)
        let terminal = TerminalReport.render(
            .measurement(report), options: RenderOptions(color: false, findingsLimit: .max))
        #expect(terminal.contains("\(share)% of DecodeCatalog's budget (\(ms(check.budgetMs)))"), "\(terminal)")
    }

    @Test func noWarmUpIsSuggestedAfterOneRan() throws {
        let slowFirst: [Double?] = [200] + SampleReports.around(100, 9)
        let cold = try SampleReports.uninstrumented(slowFirst)
        #expect(cold.profile.phases.contains { !$0.warnings.isEmpty })
        #expect(TerminalReport.render(.measurement(cold), options: RenderOptions()).contains("add --warmup"))
        let warmed = Self.remade(cold) { $0.warmup = 2 }
        for text in [
            TerminalReport.render(.measurement(warmed), options: RenderOptions()),
            HTMLReport.render(.measurement(warmed)),
        ] {
            #expect(!text.contains("add --warmup"))
            #expect(text.contains("even after 2 warm-up launch(es)"))
        }
    }

    @Test func whyItChangedListsOnlyFindingsThatMoved() throws {
        let base = try SampleReports.sample()
        var head = base
        // Every finding the same but one, which moves by a hair (as 40.0 → 40.0 ms would).
        head.profile.findings[3].medianMs += 0.001
        head.profile.findings[4].medianMs *= 1.5
        let report = SampleReports.comparison(base, head)
        #expect(report.changes.moved.map(\.span) == [head.profile.findings[4].span])
        // A stored report written before the rule: its hair's-breadth move is not shown.
        var stored = report
        var hair = report.changes.moved[0]
        hair.headMs = hair.baseMs.map { $0 + 0.001 }
        stored.changes.moved.append(hair)
        for text in [
            MarkdownReport.render(.comparison(stored)), ComparisonTerminalReport.render(stored, color: false),
            HTMLReport.render(.comparison(stored)),
        ] {
            let shown = text.components(separatedBy: "moved").count - 1
            #expect(shown >= 1)
            #expect(!text.contains("\(ms(hair.baseMs!)) → \(ms(hair.headMs!))"))
        }
    }

    @Test func theStatedPMatchesTheVerdictsDirection() throws {
        let base = try SampleReports.uninstrumented(SampleReports.around(400), name: "base")
        let head = try SampleReports.uninstrumented(SampleReports.around(300), name: "head")
        let report = SampleReports.comparison(base, head)
        let metric = try #require(report.metrics.first)
        #expect(metric.verdict == .improvement)
        #expect(metric.pValue > 0.99)  // the "head slower" test's p, which must not be printed
        let p = try #require(metric.verdictPValue)
        #expect(p < 0.001)
        for text in [
            MarkdownReport.render(.comparison(report)), ComparisonTerminalReport.render(report, color: false),
            HTMLReport.render(.comparison(report)), report.outcome.reason,
        ] {
            #expect(!text.contains("1.0000"))
            #expect(
                text.contains(Percent.pValue(p))
                    || text.contains(Percent.pValue(p).replacingOccurrences(of: "<", with: "&lt;")))
        }
    }

    @Test func aSpanTheBaseNeverRecordedIsNewAndAMisspeltOneIsNotRecorded() throws {
        let sample = try SampleReports.sample()
        let base = Self.remade(sample, runs: Self.without("DecodeCatalog", sample)) {
            $0.budget.spansMs = ["DecodeCatalog": 400, "DecodeCatalgo": 50]
        }
        let head = Self.remade(sample) { $0.budget.spansMs = ["DecodeCatalog": 400, "DecodeCatalgo": 50] }
        // The fixture has 3 runs a side: at α 0.01 the gate refuses to compare them at all.
        let report = SampleReports.comparison(base, head, alpha: 0.25)
        let new = try #require(report.metrics.first { $0.name == "span:DecodeCatalog" })
        #expect(new.presence == .headOnly)
        let typo = try #require(report.metrics.first { $0.name == "span:DecodeCatalgo" })
        #expect(typo.presence == .neither)
        for text in [
            MarkdownReport.render(.comparison(report)), ComparisonTerminalReport.render(report, color: false),
            HTMLReport.render(.comparison(report)),
        ] {
            let lines = text.split(separator: "\n")
            let newRow = try #require(lines.first { $0.contains("span:DecodeCatalog") })
            #expect(newRow.contains("new"))
            #expect(!newRow.contains("%)") && !newRow.contains("+∞"))
            let typoRow = try #require(lines.first { $0.contains("span:DecodeCatalgo") && !$0.contains("spelt") })
            #expect(typoRow.contains("not recorded"))
            #expect(!typoRow.contains("0.00 ms"))
            #expect(
                text.contains("is the budget&#39;s name spelt right?")
                    || text.contains("is the budget's name spelt right?"))
        }
    }

    @Test func sidesOfDifferentSizesAreCountedSeparately() throws {
        let base = try SampleReports.uninstrumented(SampleReports.around(400, 10), name: "base")
        let head = try SampleReports.uninstrumented(SampleReports.around(400, 20), name: "head")
        let report = SampleReports.comparison(base, head)
        for text in [
            MarkdownReport.render(.comparison(report)), ComparisonTerminalReport.render(report, color: false),
            HTMLReport.render(.comparison(report)),
        ] {
            #expect(text.contains("10 base and 20 head launches"))
            #expect(!text.contains("launches per side"))
        }
        let even = SampleReports.comparison(base, base)
        #expect(ComparisonTerminalReport.render(even, color: false).contains("10 launches per side"))
    }

    @Test func theMarkdownNamesAHookOnce() throws {
        let markdown = MarkdownReport.render(.measurement(try SampleReports.sample()))
        let line = try #require(
            markdown.split(separator: "\n").first { $0.contains("`hook-over-budget` **didFinishLaunching**") })
        // the name, then the recommendation's sentence
        #expect(line.components(separatedBy: "didFinishLaunching").count - 1 == 2)
        #expect(!line.contains("`didFinishLaunching`"))
    }
}
