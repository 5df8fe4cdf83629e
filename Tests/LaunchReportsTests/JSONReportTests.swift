import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing
import Testing
import _LaunchProfTestSupport

/// Reading and writing the JSON report: every kind says what it is, schema-1
/// reports still read, and a reader rejects what it cannot read with the file named.
@Suite("JSON report")
struct JSONReportTests {
    let scratch = ScratchDirectory("lp-json")

    @Test func aSchemaOneReportReadsIntoTypedValues() throws {
        let report = try JSONReport.read(from: FixtureFiles.path("measurement-v1-sample.json"))
        #expect(report.schemaVersion == 1)
        #expect(report.configuration.mode == .warm)
        #expect(report.configuration.ready == .firstFrame)
        #expect(report.configuration.budget.timeToFirstFrameMs == 5000)
        #expect(report.configuration.budget.hooksMs == [.willFinishLaunching: 50, .didFinishLaunching: 150])
        #expect(report.configuration.launchOptions == LaunchOptions(reason: .url, url: "app://x"))
        #expect(report.configuration.budgetSource.description.hasPrefix("the app's budget in code"))
        let timeline = try #require(report.runs.first?.timeline)
        #expect(timeline.milestones[.firstFrame] != nil)
        #expect(report.runs.first?.milliseconds(.didFinishLaunching) != nil)
        // Schema 1 recorded no outcome: it is computed from the runs, as it would have been.
        #expect(
            report.outcome
                == ReportOutcome.of(
                    profile: report.profile, runs: report.runs, ignoreFailures: false, stopReason: nil, stopSignal: nil)
        )
        #expect(report.outcome.status == .overBudget)
    }

    @Test func aSchemaOneReportWrittenAgainIsTheCurrentSchemaAndReadsBackTheSame() throws {
        for name in ["measurement-v1-sample.json", "measurement-v1-true.json"] {
            var report = try JSONReport.read(from: FixtureFiles.path(name))
            report.schemaVersion = MeasurementReport.currentSchemaVersion
            let path = scratch.file(name)
            try Data(JSONReport.render(.measurement(report))).write(to: URL(fileURLWithPath: path))
            let again = try JSONReport.read(from: path)
            let same = again == report  // (not inside #expect: it would print both whole reports)
            #expect(same, "\(name) changed when written again")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            #expect(object["kind"] as? String == "measurement")
            #expect(object["schemaVersion"] as? Int == MeasurementReport.currentSchemaVersion)
            #expect(object["outcome"] is [String: Any])
        }
    }

    /// A document, and words the error must contain.
    @Test(
        "what a reader cannot read is rejected with the file named",
        arguments: [
            (#"{"kind": "flamegraph", "schemaVersion": 1}"#, "a 'flamegraph' report"),
            (#"{"kind": "comparison", "schemaVersion": 9}"#, "schemaVersion 9 of a comparison report"),
            (#"{"kind": "measurement", "schemaVersion": 4}"#, "schemaVersion 4"),
            (#"{"schemaVersion": 2}"#, "no kind"),
            (#"{"kind": "measurement"}"#, "no schemaVersion"),
            (#"[1, 2]"#, "not a JSON object"),
            (#"{"kind":"measurement""#, "ends inside its JSON object"),
            (#"{"kind": "measurement", "schemaVersion": 3, "runs": [{"index": 1"#, "ends inside its JSON object"),
            (#"{"kind": "measurement", "schemaVersion": 3,, }"#, "not a JSON object"),
            (#"{"kind": "measurement", "schemaVersion": 2, "name": "x"}"#, "missing key"),
        ])
    func rejected(json: String, mention: String) throws {
        let path = scratch.file("bad.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ReportError.self) { try JSONReport.read(from: path) }
        #expect(error.description.hasPrefix(path + ": "), "\(error)")
        #expect(error.description.contains(mention), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test func aMissingFileIsNamed() throws {
        let error = try #require(throws: ReportError.self) { try JSONReport.read(from: scratch.file("absent.json")) }
        guard case .cannotRead(let path, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(path == scratch.file("absent.json"))
    }
}
