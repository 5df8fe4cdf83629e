import LaunchAnalysis
import LaunchReports
import Testing
import _SyntheticReports

/// What every format shows of machines: a pooled report's distribution per
/// machine, a comparison's machines with their own shifts and those left out.
@Suite("Reports across machines")
struct FleetReportTests {
    static func onMachine(_ machine: String, runs: Int = 6) -> MeasurementReport {
        var report = SyntheticReports.synthetic(runs: runs, spans: 4)
        report.environment.machine = machine
        return report
    }

    static func pooled(_ machines: [String]) throws -> MeasurementReport {
        try MeasurementReport(merging: machines.map { onMachine($0) }, name: "fleet", createdAt: "2026-11-23T00:00:00Z")
    }

    @Test func aPooledReportShowsItsDistributionMachineByMachine() throws {
        let document = ReportDocument.measurement(try Self.pooled(["runner-a", "runner-b"]))
        let terminal = TerminalReport.render(document, options: RenderOptions(color: false))
        #expect(terminal.contains("machines (timeToFirstFrame, 2)"), "\(terminal)")
        #expect(terminal.contains("  runner-a: 6 runs, median") && terminal.contains("  runner-b: 6 runs, median"))
        let markdown = MarkdownReport.render(document)
        #expect(markdown.contains("**Machines (timeToFirstFrame, 2)**") && markdown.contains("- runner-b: 6 runs"))
        let html = String(decoding: try ReportFormat.html.render(document, options: RenderOptions()), as: UTF8.self)
        #expect(html.contains("<text class=\"lane m0\"") && html.contains("<text class=\"lane m1\""))
        #expect(html.contains("class=\"pt m1"))
        #expect(html.contains("a row per machine (2)"))
        // One machine: no machine lines, one "runs" row.
        let single = ReportDocument.measurement(Self.onMachine("runner-a"))
        #expect(!TerminalReport.render(single, options: RenderOptions(color: false)).contains("machines ("))
        let singleHTML = String(decoding: try ReportFormat.html.render(single, options: RenderOptions()), as: UTF8.self)
        #expect(singleHTML.contains(">runs (6)") && !singleHTML.contains("lane m0"))
    }

    @Test func aComparisonAcrossMachinesShowsEachMachinesShiftAndThoseLeftOut() throws {
        let plan = ComparisonPlan(
            name: "fleet", source: .storedReports, settings: GateSettings(), stages: [12], stratifyByMachine: true)
        let report = ComparisonReport(
            plan: plan, base: try Self.pooled(["runner-a", "runner-b"]),
            head: try Self.pooled(["runner-a", "runner-b", "runner-c"]),
            stagesRun: 1, createdAt: "2026-11-23T00:00:00Z")
        let document = ReportDocument.comparison(report)
        let terminal = TerminalReport.render(document, options: RenderOptions(color: false))
        #expect(
            terminal.contains(
                "machines (timeToFirstFrame): compared within 2 machines, combined by van Elteren's test"),
            "\(terminal)")
        #expect(terminal.contains("  runner-a: 6 vs 6 launches"))
        #expect(terminal.contains("  runner-c: head only (6 launches), left out"))
        let markdown = MarkdownReport.render(document)
        #expect(
            markdown.contains("- runner-b: 6 vs 6 launches")
                && markdown.contains("- ⚠️ runner-c: head only (6 launches), left out"))
        let html = String(decoding: try ReportFormat.html.render(document, options: RenderOptions()), as: UTF8.self)
        #expect(html.contains("<section id=\"machines\">"))
        #expect(html.contains(">base · runner-a (6)") && html.contains(">head · runner-c (6)"))
        // The JSON holds the machines, and reads back the same.
        let json = String(decoding: try JSONReport.render(document), as: UTF8.self)
        #expect(json.contains("\"test\" : \"van-elteren\"") && json.contains("\"leftOut\""))
    }
}
