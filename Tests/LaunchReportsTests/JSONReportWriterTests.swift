import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing
import Testing
import _LaunchProfTestSupport
import _SyntheticReports

/// The JSON report writer against `JSONEncoder`, the writer it replaced: the
/// same keys and values, read back to the same report, the same text outside
/// the span records, and fast.
@Suite("JSON report writer")
struct JSONReportWriterTests {
    let scratch = ScratchDirectory("lp-json-writer")

    /// The report as `JSONEncoder` wrote it before: the reference.
    static func reference(_ document: ReportDocument) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var data: Data
        switch document {
        case .measurement(let report): data = try encoder.encode(report)
        case .comparison(let report): data = try encoder.encode(report)
        }
        data.append(0x0A)
        return Array(data)
    }

    /// Both parsed by `JSONSerialization` are equal, and the new output reads
    /// back (with the product reader) to a document equal to `document`.
    func expectSameAsReference(_ document: ReportDocument, _ label: String, readsBack: Bool = true) throws {
        let written = try JSONReport.render(document)
        let reference = try Self.reference(document)
        let parsed = try JSONSerialization.jsonObject(with: Data(written), options: [.fragmentsAllowed])
        let expected = try JSONSerialization.jsonObject(with: Data(reference), options: [.fragmentsAllowed])
        let same = Self.equal(parsed, expected)  // (not inside #expect: it would print both whole documents)
        #expect(same, "\(label): not the values JSONEncoder wrote")
        guard readsBack else { return }
        let path = scratch.file("\(label).json")
        try Data(written).write(to: URL(fileURLWithPath: path))
        let again = try Self.readUnchecked(path)
        // Written again, a report is in the current schema whatever it was read from.
        let equal = Self.current(again) == Self.current(document)
        #expect(equal, "\(label): changed when read back")
    }

    /// `document` as the version this launchprof writes.
    static func current(_ document: ReportDocument) -> ReportDocument {
        switch document {
        case .measurement(var report):
            report.schemaVersion = MeasurementReport.currentSchemaVersion
            return .measurement(report)
        case .comparison(var report):
            report.schemaVersion = ComparisonReport.currentSchemaVersion
            report.base.schemaVersion = MeasurementReport.currentSchemaVersion
            report.head.schemaVersion = MeasurementReport.currentSchemaVersion
            return .comparison(report)
        }
    }

    /// The document at `path` as the decoder reads it, before the range checks
    /// (which refuse the extreme values these tests read back).
    static func readUnchecked(_ path: String) throws -> ReportDocument {
        try JSONReport.decodeDocument(Data(contentsOf: URL(fileURLWithPath: path)), path: path)
    }

    /// The measurement at `path`, before the range checks.
    static func readMeasurementUnchecked(_ path: String) throws -> MeasurementReport {
        guard case .measurement(let report) = try readUnchecked(path) else {
            throw ReportError.malformed(path: path, problem: "not a measurement")
        }
        return report
    }

    /// Deep equality of parsed JSON that tells numbers from booleans and
    /// strings, and compares numbers as exact values.
    static func equal(_ left: Any, _ right: Any) -> Bool {
        switch (left, right) {
        case (let left as [String: Any], let right as [String: Any]):
            return left.count == right.count
                && left.allSatisfy { key, value in right[key].map { equal(value, $0) } ?? false }
        case (let left as [Any], let right as [Any]):
            return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        case (let left as String, let right as String):
            return left == right
        case (let left as NSNumber, let right as NSNumber):
            return left.isEqual(to: right)
                && (left.doubleValue == right.doubleValue || (left.doubleValue.isNaN && right.doubleValue.isNaN))
        case (is NSNull, is NSNull):
            return true
        default:
            return false
        }
    }

    /// Text that JSON has to escape, and text it must not.
    static let awkward = "q\"uote\\back/slash \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F} é 日本 🚀 \u{2028} e\u{301}"

    // MARK: Documents

    @Test func bothFixturesAreWrittenWithTheSameKeysAndValues() throws {
        for name in ["measurement-v1-sample.json", "measurement-v1-true.json"] {
            let report = try JSONReport.read(from: FixtureFiles.path(name))
            try expectSameAsReference(.measurement(report), name)
        }
    }

    @Test func theHeaderComesFirstAndTheRunsLast() throws {
        let text = String(decoding: try JSONReport.render(.measurement(try SampleReports.sample())), as: UTF8.self)
        let topKeys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map {
            $0.dropFirst(3).prefix { $0 != "\"" }
        }
        #expect(Array(topKeys.prefix(2)) == ["kind", "schemaVersion"])
        #expect(topKeys.last == "runs")
        for key in ["configuration", "outcome", "profile", "spanStrings"] {
            #expect(topKeys.firstIndex(of: Substring(key))! < topKeys.firstIndex(of: "runs")!, "\(key)")
        }
    }

    @Test func eachSpanTableColumnIsOneLineOfNumbers() throws {
        let report = try SampleReports.sample()
        let text = String(decoding: try JSONReport.render(.measurement(report)), as: UTF8.self)
        let spans = report.runs.compactMap(\.timeline).reduce(0) { $0 + $1.mainThreadSpans.count + $1.otherSpans.count }
        #expect(spans > 0)
        let beginLines = text.split(separator: "\n").filter { $0.contains("\"begin\" : [") }
        // One line per table (each run's main-thread and other spans), holding every span's begin.
        #expect(beginLines.count == 2 * report.runs.compactMap(\.timeline).count)
        let cells = beginLines.reduce(0) { count, line in
            let list = line.split(separator: "[", maxSplits: 1).last!.prefix { $0 != "]" }
            return count + (list.isEmpty ? 0 : list.split(separator: ",").count)
        }
        #expect(cells == spans)
        #expect(!text.contains("\"beginNanoseconds\""))
    }

    @Test func aSyntheticReportIsWrittenWithTheSameKeysAndValues() throws {
        try expectSameAsReference(.measurement(SyntheticReports.synthetic(runs: 3, spans: 40)), "synthetic")
    }

    @Test func aComparisonReportIsWrittenWithTheSameKeysAndValues() throws {
        let comparison = SampleReports.comparison(
            try SampleReports.uninstrumented(SampleReports.around(100)),
            try SampleReports.uninstrumented(SampleReports.around(130)))
        try expectSameAsReference(.comparison(comparison), "comparison")
        let instrumented = SampleReports.comparison(try SampleReports.sample(), try SampleReports.sample())
        try expectSameAsReference(.comparison(instrumented), "comparison-instrumented")
    }

    // MARK: Edge cases

    @Test func awkwardStringsAreEscapedAsJSONRequiresAndReadBack() throws {
        var report = try SampleReports.sample()
        report.name = Self.awkward
        report.environment.hostname = "/" + Self.awkward + "/"
        report.configuration.commandLine = ["", Self.awkward, "a/b"]
        report.runs[0].problem = Self.awkward
        report.runs[0].timeline?.mainThreadSpans[0].name = Self.awkward
        report.runs[0].timeline?.mainThreadSpans[0].file = "Sources/\"x\".swift"
        report.runs[0].timeline?.mainThreadSpans[1].blockedNanoseconds = [
            .unknown: 0, .disk: 5, .lock: 7, .other: 1, .network: 2, .sleep: 3,
        ]
        report.runs[0].timeline?.mainThreadSpans[1].majorFaults = 3
        report.runs[0].timeline?.mainThreadSpans[1].involuntaryContextSwitches = 4
        report.runs[0].timeline?.mainThreadSpans[1].voluntaryContextSwitches = 0
        report.runs[0].timeline?.mainThreadSpans[1].selfCPUNanoseconds = nil
        report.runs[0].timeline?.mainThreadSpans[1].isOpen = true
        report.runs[0].timeline?.mainThreadSpans[1].category = SpanCategory(rawValue: 200)
        report.runs[0].timeline?.mainThreadSpans[1].blockedNanoseconds[.process] = 9
        report.runs[0].timeline?.mainThreadSpans[1].runQueueNanoseconds = 11
        report.runs[0].timeline?.mainThreadSpans[1].offCPUNanoseconds = 0
        report.runs[0].timeline?.mainThreadSpans[1].waitSamples = [.ipc: 2, .event: 1, .disk: 4, .process: 3]
        report.runs[0].timeline?.mainThreadSpans[1].waitTargets = [
            WaitTarget(kind: .file, name: "/tmp/" + Self.awkward), WaitTarget(kind: .localSocket, name: "unnamed"),
        ]
        report.profile.findings[0].waitedOn = [WaitTarget(kind: .process, name: Self.awkward)]
        try expectSameAsReference(.measurement(report), "awkward")
        let text = String(decoding: try JSONReport.render(.measurement(report)), as: UTF8.self)
        #expect(text.contains(#""q\"uote\\back/slash \u0000\u0001\b\t\n\f\r\u001f"#))
        #expect(!text.contains(#"\/"#))
    }

    @Test func unusualNumbersReadBackExactly() throws {
        var report = try SampleReports.uninstrumented()
        let values: [Double] = [
            -0.0, .infinity, -.infinity, 1e300, 5e-324, .leastNormalMagnitude, .greatestFiniteMagnitude, 20, 1e16, 0.1,
            1 / 3,
            -1.5e-7, 123456789012345680000,
        ]
        report.runs = values.enumerated().map { offset, value in
            RunRecord(index: offset + 1, isWarmup: false, status: .ok, timeToReadyMs: value, timeToExitMs: -value)
        }
        try expectSameAsReference(.measurement(report), "numbers")
        let path = scratch.file("numbers-bits.json")
        try Data(JSONReport.render(.measurement(report))).write(to: URL(fileURLWithPath: path))
        let again = try Self.readMeasurementUnchecked(path)
        #expect(again.runs.map { $0.timeToReadyMs!.bitPattern } == values.map(\.bitPattern))
        let text = String(decoding: try JSONReport.render(.measurement(report)), as: UTF8.self)
        #expect(text.contains("\"timeToReadyMs\" : 20\n"))
        #expect(text.contains(#""timeToReadyMs" : "-inf""#))
    }

    @Test func notANumberIsWrittenAsTheStringNan() throws {
        var report = try SampleReports.uninstrumented()
        report.runs[0].timeToReadyMs = .nan
        try expectSameAsReference(.measurement(report), "nan", readsBack: false)
        let path = scratch.file("nan.json")
        try Data(JSONReport.render(.measurement(report))).write(to: URL(fileURLWithPath: path))
        var again = try Self.readMeasurementUnchecked(path)
        #expect(again.runs[0].timeToReadyMs?.isNaN == true)
        again.runs[0].timeToReadyMs = report.runs[0].timeToReadyMs
        report.runs[0].timeToReadyMs = nil
        again.runs[0].timeToReadyMs = nil
        again.schemaVersion = report.schemaVersion
        let same = again == report
        #expect(same)
    }

    @Test func emptyArraysAndObjectsAndAbsentKeys() throws {
        var report = try SampleReports.sample()
        report.runs[0].timeline?.mainThreadSpans = []
        report.runs[0].timeline?.otherSpans[...].indices.forEach {
            report.runs[0].timeline?.otherSpans[$0].blockedNanoseconds = [:]
        }
        report.runs[1].timeline?.milestones = [:]
        report.runs[1].timeline = nil
        report.runs[0].stdoutPath = nil
        report.configuration.commandLine = []
        try expectSameAsReference(.measurement(report), "empty")
        var none = try SampleReports.uninstrumented()
        none.runs = []
        try expectSameAsReference(.measurement(none), "no-runs")
        let text = String(decoding: try JSONReport.render(.measurement(none)), as: UTF8.self)
        #expect(text.contains("\"runs\" : [\n\n  ]"))
    }

    // MARK: Speed

    @Test func aHundredRunsOfAThousandSpansRenderInUnderHalfASecond() throws {
        #if DEBUG
            // Unoptimized code says nothing about the release build's speed.
        #else
            let document = ReportDocument.measurement(SyntheticReports.synthetic(runs: 100, spans: 1_000))
            _ = try JSONReport.render(document)  // warm up
            let clock = ContinuousClock()
            var bytes: [UInt8] = []
            let elapsed = try clock.measure { bytes = try JSONReport.render(document) }
            print("JSON report, 100 runs × 1,000 spans: \(elapsed), \(bytes.count) bytes")
            #expect(elapsed < .milliseconds(500), "took \(elapsed)")
        #endif
    }
}
