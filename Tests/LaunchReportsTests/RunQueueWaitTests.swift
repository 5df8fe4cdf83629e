import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing
import Testing

/// Waiting for a CPU (run-queue wait) is not CPU work: every format that splits
/// a span's own time shows it as a part of its own, and marks attributed parts
/// as estimates.
@Suite("Run-queue wait in the reports")
struct RunQueueWaitTests {
    static let spanName = "DecodeCatalog"

    /// The sample report with `DecodeCatalog`'s own time, in every run,
    /// 240 ms: 41 ms on the CPU, 139 ms waiting for one, 60 ms blocked on `blocked`.
    static func report(blocked: [WaitKind: UInt64] = [.disk: 60_000_000], offCPUKnown: Bool = true) throws
        -> MeasurementReport
    {
        var report = try SampleReports.sample()
        for run in report.runs.indices {
            guard var timeline = report.runs[run].timeline else { continue }
            for index in timeline.mainThreadSpans.indices where timeline.mainThreadSpans[index].name == spanName {
                var span = timeline.mainThreadSpans[index]
                span.endNanoseconds = span.beginNanoseconds + 240_000_000
                span.selfNanoseconds = 240_000_000
                span.selfCPUNanoseconds = 41_000_000
                span.runQueueNanoseconds = 139_000_000
                span.offCPUNanoseconds = offCPUKnown ? 60_000_000 : nil
                span.blockedNanoseconds = blocked
                timeline.mainThreadSpans[index] = span
            }
            report.runs[run].timeline = timeline
        }
        return report
    }

    /// The columns of `name`'s first span in the page's timeline: CPU, run-queue wait, blocked kinds (nanoseconds).
    static func drawnSplit(_ page: String, name: String) throws -> (cpu: Int, queue: Int, blocked: [String: Int]) {
        let data = try HTMLReportTests.timelineData(page, side: "m")
        let names = try HTMLReportTests.drawnSpanNames(page, side: "m")
        let index = try #require(names.firstIndex(of: name))
        let blocked = try #require(data["bk"] as? [Int])
        let kinds = try #require(data["wk"] as? [String])
        var waits: [String: Int] = [:]
        for at in stride(from: 0, to: blocked.count, by: 3) where blocked[at] == index {
            waits[kinds[blocked[at + 1]]] = blocked[at + 2]
        }
        return (
            try #require(data["cp"] as? [Int])[index], try #require(data["q"] as? [Int])[index], waits
        )
    }

    @Test func theTimelineDrawsTheWaitForACPUAsAPartOfItsOwnAndSaysSo() throws {
        let page = HTMLReport.render(.measurement(try Self.report()))
        #expect(page.contains("<i class=\"sw k-queue\"></i>waiting for a CPU (run queue)"))
        #expect(page.contains(".k-queue { fill: var(--queue)"))
        let split = try Self.drawnSplit(page, name: Self.spanName)
        #expect(split.cpu == 41_000_000)
        #expect(split.queue == 139_000_000)
        #expect(split.blocked == ["disk": 60_000_000])
    }

    @Test func aSpanMostlyOnTheCPUIsDrawnSo() throws {
        var span = try #require(
            try Self.report().runs.first?.timeline?.mainThreadSpans.first { $0.name == Self.spanName })
        span.selfCPUNanoseconds = 200_000_000
        span.runQueueNanoseconds = 30_000_000
        span.blockedNanoseconds = [:]
        var report = try Self.report()
        report.runs[0].timeline?.mainThreadSpans = [span]
        report.runs[1].timeline?.mainThreadSpans = [span]
        let page = HTMLReport.render(.measurement(report))
        let split = try Self.drawnSplit(page, name: Self.spanName)
        #expect(split.cpu == 200_000_000)
        #expect(split.queue == 30_000_000)
        #expect(split.blocked.isEmpty)
    }

    @Test func markdownAndTerminalAllSplitAFindingsSpanWithTheRunQueueWait() throws {
        let report = try Self.report()
        let expected = "self 240 ms: CPU 41.0 ms, waiting for a CPU 139 ms, disk 60.0 ms"
        let markdown = MarkdownReport.render(.measurement(report))
        #expect(markdown.contains("<sub>median " + expected + "</sub>"))
        let all = TerminalReport.render(.measurement(report), options: RenderOptions(color: false, findingsLimit: .max))
        #expect(all.contains("median " + expected))
        let short = TerminalReport.render(.measurement(report), options: RenderOptions(color: false))
        #expect(!short.contains("waiting for a CPU 139 ms"))
    }

    @Test func theChromeTraceCarriesTheRunQueueWaitAndNeverMoreCPUThanSelfTime() throws {
        var report = try Self.report()
        // CPU read at a coarse granularity can exceed the self time it belongs to.
        for run in report.runs.indices {
            for index in report.runs[run].timeline?.mainThreadSpans.indices ?? 0..<0
            where report.runs[run].timeline!.mainThreadSpans[index].name == "BuildSearchIndex" {
                let own = report.runs[run].timeline!.mainThreadSpans[index].selfNanoseconds
                report.runs[run].timeline!.mainThreadSpans[index].selfCPUNanoseconds = own + own / 2 + 100_000
            }
        }
        let object = try JSONSerialization.jsonObject(with: Data(ChromeTraceReport.render(.measurement(report))))
        let events = try #require((object as? [String: Any])?["traceEvents"] as? [[String: Any]])
        let spans = events.filter { $0["ph"] as? String == "X" }
        var checked = 0
        for event in spans {
            let args = try #require(event["args"] as? [String: Any])
            if let cpu = args["selfCPUMs"] as? Double, let own = args["selfMs"] as? Double {
                #expect(cpu <= own, "\(event["name"] ?? "?"): selfCPUMs \(cpu) > selfMs \(own)")
                checked += 1
            }
            if event["name"] as? String == Self.spanName {
                #expect(args["runQueueMs"] as? Double == 139)
                #expect(args["blockedMsIsEstimate"] == nil)
            }
        }
        #expect(checked > 10)
    }

    @Test func blockedTimeSplitBetweenKindsOrTakenFromSamplesIsMarkedAnEstimate() throws {
        let split = try Self.report(blocked: [.disk: 40_000_000, .lock: 20_000_000])
        let markdown = MarkdownReport.render(.measurement(split))
        #expect(markdown.contains("disk ≈40.0 ms, lock ≈20.0 ms"))
        #expect(markdown.contains("≈ estimated: attributed from the sampler's samples, not read"))
        // The page's span data flags the blocked time as split by the samples (bit 8), which its details mark ≈.
        let page = HTMLReport.render(.measurement(try Self.report(offCPUKnown: false)))
        let data = try HTMLReportTests.timelineData(page, side: "m")
        let index = try #require(try HTMLReportTests.drawnSpanNames(page, side: "m").firstIndex(of: Self.spanName))
        let flags = try #require(data["fg"] as? [Int])
        let bits = stride(from: 0, to: flags.count, by: 2).first { flags[$0] == index }.map { flags[$0 + 1] }
        #expect(bits.map { $0 & 8 != 0 } == true)
        // One kind over a measured off-CPU time is read, not estimated.
        let read = MarkdownReport.render(.measurement(try Self.report()))
        #expect(read.contains("<sub>median self 240 ms: CPU 41.0 ms, waiting for a CPU 139 ms, disk 60.0 ms</sub>"))
        let chrome = String(decoding: ChromeTraceReport.render(.measurement(split)), as: UTF8.self)
        #expect(chrome.contains("\"blockedMsIsEstimate\":true"))
    }
}
