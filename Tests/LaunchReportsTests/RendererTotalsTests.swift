import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// Issue 33, finding 5: `report --format chrome-trace` trapped (arithmetic
/// overflow) on blocked times summing past 2^64 in a stored or merged report,
/// and a 10 MB `name` took seconds to render. Every renderer now sums with
/// saturation and draws long strings capped.
@Suite("Renderer totals and caps")
struct RendererTotalsTests {
    /// The sample report with blocked times on its main thread that add up past 2^64.
    func overflowingReport() throws -> MeasurementReport {
        var report = try SampleReports.sample()
        var timeline = try #require(report.runs[0].timeline)
        #expect(timeline.mainThreadSpans.count >= 2)
        for index in timeline.mainThreadSpans.indices {
            timeline.mainThreadSpans[index].blockedNanoseconds = [.disk: UInt64.max / 2 + 1, .lock: .max]
        }
        report.runs[0].timeline = timeline
        return report
    }

    @Test(arguments: ReportFormat.allCases) func blockedTimesPast2To64RenderWithoutTrapping(_ format: ReportFormat)
        throws
    {
        let document = ReportDocument.measurement(try overflowingReport())
        let bytes = try format.render(document)
        #expect(!bytes.isEmpty)
    }

    @Test func theChromeTraceCounterSaturates() throws {
        let bytes = ChromeTraceReport.render(.measurement(try overflowingReport()))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect((json["traceEvents"] as? [Any])?.isEmpty == false)
    }

    @Test(arguments: ReportFormat.allCases) func aHugeNameIsCappedInEveryFormatButJSON(_ format: ReportFormat) throws {
        var report = try SampleReports.uninstrumented([10, 11])
        report.name = String(repeating: "n", count: 2_000_000)
        report.environment.machine = String(repeating: "m", count: 2_000_000)
        let text = String(decoding: try format.render(.measurement(report)), as: UTF8.self)
        if format == .json {
            #expect(text.contains(report.name))
        } else {
            #expect(!text.contains(String(repeating: "n", count: DisplayCap.limit + 1)))
            #expect(!text.contains(String(repeating: "m", count: DisplayCap.limit + 1)))
            #expect(text.utf8.count < 200_000, "\(format): \(text.utf8.count) bytes")
        }
    }

    @Test func aCappedStringKeepsWholeCharactersAndSaysItsLength() {
        #expect(DisplayCap.capped("short") == "short")
        let long = String(repeating: "é", count: 1_000)  // 2 bytes each
        let capped = DisplayCap.capped(long, limit: 11)
        #expect(capped == String(repeating: "é", count: 5) + "… (2000 bytes)")
    }
}
