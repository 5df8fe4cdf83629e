import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// The range checks read what launchprof wrote, old or new: a version-1
/// comparison had no least effect or pass test per metric (NaN once decoded),
/// and a metric whose base median is not positive has an infinite least effect.
@Suite("Range checks of older comparisons")
struct OlderComparisonRangeTests {
    let scratch = ScratchDirectory("lp-older-comparison")

    /// `document` written as JSON, changed by `edit`, and read back through ``JSONReport`` (range checks included).
    func readBack(_ document: ReportDocument, named name: String, _ edit: (inout [String: Any]) -> Void) throws
        -> ReportDocument
    {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(document, options: RenderOptions())))
                as? [String: Any])
        edit(&object)
        let path = scratch.file(name)
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return try JSONReport.readDocument(from: path)
    }

    @Test func aVersionOneComparisonWithoutLeastEffectsOrPassTestsIsRead() throws {
        let document = RenderedGoldenTests.comparison()
        let read = try readBack(document, named: "v1.comparison.json") { object in
            object["schemaVersion"] = 1
            object["metrics"] = (object["metrics"] as? [[String: Any]] ?? []).map { metric in
                var metric = metric
                metric["minimumEffectPercent"] = nil
                metric["passPValue"] = nil
                return metric
            }
        }
        guard case .comparison(let report) = read else {
            Issue.record("not a comparison")
            return
        }
        #expect(!report.metrics.isEmpty)
        #expect(report.metrics.allSatisfy { $0.minimumEffectPercent.isNaN && $0.passPValue.isNaN })
    }

    @Test func anInfiniteLeastEffectIsReadAndANegativeOneRefused() throws {
        let document = RenderedGoldenTests.comparison()
        func withEffect(_ value: Any) -> (inout [String: Any]) -> Void {
            { object in
                var metrics = object["metrics"] as? [[String: Any]] ?? []
                metrics[0]["minimumEffectPercent"] = value
                object["metrics"] = metrics
            }
        }
        _ = try readBack(document, named: "infinite.comparison.json", withEffect("inf"))
        #expect(throws: ReportError.self) { try readBack(document, named: "negative.comparison.json", withEffect(-1)) }
    }
}
