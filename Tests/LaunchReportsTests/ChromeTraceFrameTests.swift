import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// A report's Chrome trace and a trace file's (`launchprof trace`) are one
/// writer: the same launch is the same events, but for its process's name.
@Suite("Chrome trace: one writer for reports and trace files")
struct ChromeTraceFrameTests {
    /// The events of `bytes` as JSON texts, with the process's name left out.
    func events(_ bytes: [UInt8]) throws -> (events: [String], otherData: [String: String]) {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        let texts = try events.filter { $0["name"] as? String != "process_name" }.map { event in
            String(decoding: try JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]), as: UTF8.self)
        }
        return (texts, try #require(root["otherData"] as? [String: String]))
    }

    @Test func aRunOfAReportAndTheSameLaunchOfATraceFileAreTheSameEvents() throws {
        let report = try SampleReports.sample()
        var first = report
        first.runs = [try #require(report.successfulRuns.first { $0.timeline != nil })]
        let timeline = try #require(first.runs[0].timeline)
        let fromReport = try events(ChromeTraceReport.render(.measurement(first)))
        let fromTrace = try events(ChromeTraceReport.render(launches: [timeline], name: "run-1/trace.lptrace"))
        #expect(fromReport.events.count > 10)
        #expect(fromReport.events == fromTrace.events)
        #expect(fromTrace.otherData["kind"] == "trace" && fromTrace.otherData["name"] == "run-1/trace.lptrace")
        #expect(fromReport.otherData["kind"] == "measurement" && fromReport.otherData["name"] == report.name)
        #expect(fromReport.otherData["timeOrigin"]?.contains("its run's spawn") == true)
        #expect(fromTrace.otherData["timeOrigin"]?.contains("its launch's spawn") == true)
    }
}
