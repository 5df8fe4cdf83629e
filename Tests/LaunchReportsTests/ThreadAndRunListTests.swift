import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing
import Testing
import _SyntheticReports

/// Threads named by the kernel's truncated names are told apart by their ids,
/// and a list of runs stays short however many runs there are.
@Suite("Threads and run lists")
struct ThreadAndRunListTests {
    /// The sample with the median run's other spans on three threads the kernel
    /// named alike (`oot.utility-qos`), ids 41, 42 and 43.
    static func threaded() throws -> MeasurementReport {
        var report = try SampleReports.sample()
        for index in report.runs.indices {
            guard var timeline = report.runs[index].timeline, !timeline.otherSpans.isEmpty else { continue }
            timeline.threads =
                [TimelineThread(id: 7, name: "main", isMain: true)]
                + (41...43).map { TimelineThread(id: UInt64($0), name: "oot.utility-qos", isMain: false) }
            // The same work on each of the three threads.
            let spans = timeline.otherSpans
            timeline.otherSpans = (41...43).flatMap { id in
                spans.map { span in
                    var span = span
                    span.threadID = UInt64(id)
                    return span
                }
            }
            report.runs[index].timeline = timeline
        }
        return report
    }

    @Test func eachLaneShowsItsThreadsIdBesideItsName() throws {
        let page = HTMLReport.render(.measurement(try Self.threaded()))
        let lanes = try #require(try HTMLReportTests.timelineData(page, side: "m")["lanes"] as? [[Any]])
            .compactMap { $0.first as? String }
        for id in 41...43 { #expect(lanes.contains("oot.utility-qos · \(id)")) }
        #expect(lanes.first == "main thread · 7")
    }

    @Test func theChromeTraceWritesRealThreadIds() throws {
        let report = try Self.threaded()
        let object = try JSONSerialization.jsonObject(with: Data(ChromeTraceReport.render(.measurement(report))))
        let events = try #require((object as? [String: Any])?["traceEvents"] as? [[String: Any]])
        let names = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
            .map { ($0["tid"] as? Int ?? -1, ($0["args"] as? [String: Any])?["name"] as? String ?? "") }
        for id in 41...43 { #expect(names.contains { $0.0 == id && $0.1 == "oot.utility-qos (\(id))" }) }
        #expect(names.contains { $0.0 == 7 && $0.1 == "main (7)" })
        let spans = events.filter { $0["ph"] as? String == "X" }
        let tids = Set(spans.compactMap { $0["tid"] as? Int })
        #expect(tids == [7, 41, 42, 43])
        let milestones = events.filter { $0["ph"] as? String == "i" }
        #expect(!milestones.isEmpty && milestones.allSatisfy { $0["tid"] as? Int == 7 })
    }

    @Test func theOutlierRunsCellNamesThreeRunsAndCountsTheRest() throws {
        // 100 runs, every fifth one far slower than the rest: 20 outliers.
        let values: [Double?] = (1...100).map { $0 % 5 == 0 ? 900 : 100 + Double($0 % 7) }
        let report = try SampleReports.uninstrumented(values)
        let outliers = try #require(report.profile.statistics(.timeToReady)?.outlierRuns)
        #expect(outliers.count == 20)
        let page = HTMLReport.render(.measurement(report))
        #expect(
            page.contains(
                "<td data-label=\"outlier runs\">runs \(outliers[0]), \(outliers[1]), \(outliers[2]) and 17 more</td>"))
        #expect(
            !page.contains(
                "<td data-label=\"outlier runs\">runs \(outliers[0]), \(outliers[1]), \(outliers[2]), \(outliers[3])"))
        let terminal = TerminalReport.render(.measurement(report), options: RenderOptions())
        #expect(terminal.contains("runs \(outliers[0]), \(outliers[1]), \(outliers[2]) and 17 more"))
    }
}

/// The page says which run it draws and why, so an even number of runs, whose
/// median no run has, does not seem to contradict the verdict.
@Suite("The run drawn")
struct DrawnRunTests {
    @Test func anEvenCountSaysTheLowerMiddleRunIsDrawnAndTheMedianIsTheirMean() throws {
        // 10 runs of a plain program: the middle two 393 and 421 ms, median 407 ms.
        let values: [Double?] = [380, 385, 388, 390, 393, 421, 425, 430, 432, 440]
        let report = try SampleReports.uninstrumented(values)
        let page = HTMLReport.render(.measurement(report))
        #expect(
            page.contains(
                "the point outlined in bold is run 5, drawn: the lower of the two middle runs of 10 (393 ms and 421 ms); "
                    + "the median, 407 ms, is their mean"))
        let odd = HTMLReport.render(.measurement(try SampleReports.uninstrumented(Array(values.prefix(9)))))
        #expect(odd.contains("run 5, drawn: the median of the 9 successful run(s)"))
    }
}

/// At scale the timeline carries every span, and a finding's span however short.
@Suite("Spans with a finding are drawn")
struct FindingSpansDrawnTests {
    @Test func aShortSpanWithAFindingIsCarriedAmongThousands() throws {
        var report = SyntheticReports.synthetic(runs: 1, spans: 3_000)
        let spans = try #require(report.runs[0].timeline?.mainThreadSpans)
        let index = try #require(spans.indices.min { spans[$0].wallNanoseconds < spans[$1].wallNanoseconds })
        report.runs[0].timeline!.mainThreadSpans[index].name = "Tiny"
        report.runs[0].timeline!.mainThreadSpans[index].endNanoseconds = spans[index].beginNanoseconds + 1_000
        let short = report.runs[0].timeline!.mainThreadSpans[index]
        var finding = try #require(try SampleReports.sample().profile.findings.first { $0.file != nil })
        finding.span = short.name
        finding.file = short.file
        finding.line = short.line
        report.profile.findings = [finding]
        let page = HTMLReport.render(.measurement(report))
        let data = try HTMLReportTests.timelineData(page, side: "m")
        let names = try HTMLReportTests.drawnSpanNames(page, side: "m")
        let spansOf = try #require(data["fsp"] as? [[Int]])
        #expect(spansOf.count == 1 && spansOf[0].count == 1)
        #expect(spansOf.first?.first.map { names[$0] } == "Tiny")
        #expect(page.contains("all 3000 spans are in the page"))
    }
}

/// A command is shown as a shell would take it, its words quoted where needed.
@Suite("Commands quoted")
struct CommandQuotingTests {
    @Test func aCommandWithSpacesIsQuotedInEveryFormatThatShowsIt() throws {
        var report = try SampleReports.uninstrumented(SampleReports.around(400, 6))
        report.configuration.command = ["python3", "-c", "import json"]
        let quoted = "python3 -c 'import json'"
        #expect(HTMLReport.render(.measurement(report)).contains("<code>python3 -c &#39;import json&#39;</code>"))
        #expect(JUnitReport.render(.measurement(report)).contains("value=\"python3 -c &apos;import json&apos;\""))
        #expect(
            String(decoding: ChromeTraceReport.render(.measurement(report)), as: UTF8.self).contains(
                "\"command\":\"\(quoted)\""))
        let comparison = SampleReports.comparison(report, report)
        #expect(ComparisonTerminalReport.render(comparison, color: false).contains("base: " + quoted))
    }
}
