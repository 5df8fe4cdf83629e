import LaunchAnalysis
import LaunchReports
import Testing

/// Instruction counts as every format writes them.
@Suite("Instruction text")
struct InstructionTextTests {
    @Test func countsAndPercentagesAreWrittenAtTheirScale() {
        #expect(InstructionText.count(9_999) == "9999")
        #expect(InstructionText.count(57_236_290) == "57.24 M")
        #expect(InstructionText.count(1_158_500_000) == "1.16 G")
        #expect(InstructionText.count(.nan) == "—")
        #expect(InstructionText.count(1e300).hasSuffix("e+291 G"))  // never trapped on: giga in exponent form
        #expect(InstructionText.count(.infinity) == "—")
        #expect(InstructionText.percent(0) == "0 %")
        #expect(InstructionText.percent(0.0000258) == "< 0.01 %")
        #expect(InstructionText.percent(0.0195) == "1.95 %")
    }

    @Test func theTerminalAndMarkdownShowWhatWasCountedAndByWhichValgrind() throws {
        let text = """
            thread: 1
            desc: Trigger: Program termination
            events: Ir
            fn=(1) $s3app4mainyyF
            1 57236290
            totals: 57236290
            """
        var runs: [RunRecord] = []
        for index in 1...3 {
            var run = RunRecord(index: index, isWarmup: false, status: .ok, timeToReadyMs: 20, timeToExitMs: 20)
            run.instructions = InstructionCounts(
                files: [try CallgrindFile(parsing: text)], valgrindVersion: "valgrind-3.19.0")
            runs.append(run)
        }
        let template = try SampleReports.uninstrumented()
        let report = MeasurementReport(
            name: "counted", createdAt: template.createdAt, environment: template.environment,
            configuration: template.configuration, runs: runs)
        let terminal = TerminalReport.render(report, color: false)
        #expect(
            terminal.contains(
                "instructions to exit, every thread: 57.24 M (median of 3 counted launches, valgrind-3.19.0)"))
        #expect(terminal.contains("identical launches differed by 0 %"))
        let markdown = String(decoding: try ReportFormat.markdown.render(.measurement(report)), as: UTF8.self)
        #expect(markdown.contains("**Instructions**"))
    }
}
