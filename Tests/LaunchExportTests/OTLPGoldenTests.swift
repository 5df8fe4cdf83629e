import Foundation
import LaunchAnalysis
import LaunchExport
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// The encoder against committed golden files.
///
/// How the goldens were checked: `python3 Tests/LaunchExportTests/Fixtures/check-otlp-json.py
/// Tests/LaunchExportTests/Fixtures/*.otlp.json`, with opentelemetry-proto 1.45.2 and
/// protobuf 7.36.2 from pip. The script turns each hex id into base64 (after checking it is
/// 32 or 16 lowercase hex digits), parses the document with `json_format.Parse` into
/// `opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest` (which rejects
/// any unknown field or wrong type), then checks every decoded trace id is 16 bytes and
/// span id 8, every parent is in its trace, and no span ends before it starts.
///
/// To write them again after a deliberate change: `LAUNCHPROF_UPDATE_GOLDENS=1 swift
/// test --filter OTLPGoldenTests`, run the script, and review the diff.
@Suite("OTLP golden files")
struct OTLPGoldenTests {
    static let cases: [(report: String, golden: String)] = [
        (FixtureFiles.path("measurement-v2-sample.json"), "measurement-v2-sample.otlp.json"),
        (FixtureFiles.reportsFixture("measurement-v1-sample.json"), "measurement-v1-sample.otlp.json"),
        (FixtureFiles.reportsFixture("measurement-v1-true.json"), "measurement-v1-true.otlp.json"),
    ]

    @Test(arguments: cases)
    func theEncoderWritesTheGolden(_ report: String, _ golden: String) throws {
        let measurement = try JSONReport.read(from: report)
        var identifiers = OTLPIdentifiers(source: SeededGenerator(seed: 15))
        let bytes = OTLPTraceRequest(report: measurement, identifiers: &identifiers).json()
        let path = FixtureFiles.path(golden)
        assertGolden(bytes, path: path)
    }

    @Test func theSameSeedGivesTheSameIdsAndAnotherSeedOthers() throws {
        let report = try JSONReport.read(from: FixtureFiles.path("measurement-v2-sample.json"))
        func export(_ seed: UInt64) -> OTLPTraceRequest {
            var identifiers = OTLPIdentifiers(source: SeededGenerator(seed: seed))
            return OTLPTraceRequest(report: report, identifiers: &identifiers)
        }
        #expect(export(7) == export(7))
        let ids7 = Set(export(7).spans.map(\.spanID))
        let ids8 = Set(export(8).spans.map(\.spanID))
        #expect(ids7.isDisjoint(with: ids8))
        var system = OTLPIdentifiers()
        let traces = Set((0..<1_000).map { _ in system.traceID() })
        #expect(traces.count == 1_000)
    }
}
