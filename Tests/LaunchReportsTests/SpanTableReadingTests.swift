import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

@testable import LaunchReports

/// Schema 3's span tables: the fast path (`SpanTableScanner`) against the
/// `Codable` conformance, both from ``SpanTable/columns``; older schemas read.
@Suite("Span tables")
struct SpanTableReadingTests {
    /// A span with every field away from its blank value, extremes included.
    static let everyField: SpanRecord = {
        var span = try! SampleReports.sample().runs[0].timeline!.mainThreadSpans[0]
        span.name = "Décode \"catalog\""
        span.category = SpanCategory(rawValue: 200)
        span.file = "App/Catalog.swift"
        span.line = -3
        (span.beginNanoseconds, span.endNanoseconds, span.depth) = (.max - 5, 7, 4)
        (span.isOpen, span.beforeFirstFrame, span.selfNanoseconds, span.selfCPUNanoseconds) = (true, true, .max, 11)
        (span.voluntaryContextSwitches, span.involuntaryContextSwitches, span.majorFaults) = (0, .max, 2)
        span.blockedNanoseconds = [.disk: 0, .lock: 9, .unknown: 1]
        (span.runQueueNanoseconds, span.offCPUNanoseconds) = (13, 17)
        span.waitSamples = [.disk: 3, .ipc: -1]
        span.waitTargets = [WaitTarget(kind: .file, name: "/tmp/a b"), WaitTarget(kind: .localSocket, name: "unnamed")]
        (span.threadID, span.usageIsEstimated) = (12345, false)
        return span
    }()

    /// A sample report whose first run holds `everyField`, spans out of begin order, and spans without accounting.
    static func report() throws -> MeasurementReport {
        var report = try SampleReports.sample()
        var spans = report.runs[0].timeline!.mainThreadSpans
        spans.insert(everyField, at: 1)
        var bare = spans[0]
        (bare.selfCPUNanoseconds, bare.waitSamples, bare.waitTargets, bare.usageIsEstimated, bare.threadID) = (
            nil, [:], [], true, nil
        )
        spans.append(bare)
        report.runs[0].timeline!.mainThreadSpans = spans
        report.runs[0].timeline!.otherSpans = [everyField]
        return report
    }

    @Test func theTestSpanSetsEveryField() {
        // A field added to SpanRecord must be set here, and so be checked by the round trips below.
        for child in Mirror(reflecting: Self.everyField).children {
            let value = child.value
            let blank: Bool
            // An optional is set when it holds a value, whatever the value (a 0 or a false is a value).
            if Mirror(reflecting: value).displayStyle == .optional {
                blank = Mirror(reflecting: value).children.isEmpty
            } else {
                switch value {
                case let text as String: blank = text.isEmpty
                case let number as Int: blank = number == 0
                case let number as UInt64: blank = number == 0
                case let flag as Bool: blank = !flag
                default: blank = "\(value)" == "[:]" || "\(value)" == "[]"
                }
            }
            #expect(!blank, "SpanTableReadingTests.everyField leaves \(child.label ?? "?") blank")
        }
    }

    @Test func theFastPathReadsWhatTheCodablePathReads() throws {
        let report = try Self.report()
        let bytes = Data(try JSONReport.render(.measurement(report)))
        let extracted = try #require(SpanTableScanner.extract(bytes), "the fast path took none of the tables")
        #expect(
            !String(decoding: extracted.remainder, as: UTF8.self).contains("\"begin\""),
            "a table was left to JSONDecoder")
        // The Codable path alone: JSONDecoder over the whole document.
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let slow = try decoder.decode(MeasurementReport.self, from: bytes)
        guard case .measurement(let fast) = try JSONReport.readDocument(bytes, path: "report.json") else {
            Issue.record("not a measurement")
            return
        }
        var expected = report
        expected.schemaVersion = MeasurementReport.currentSchemaVersion
        #expect(fast.runs[0].timeline?.mainThreadSpans[1] == Self.everyField)
        #expect(fast.runs[0].timeline?.otherSpans == [Self.everyField])
        let same = fast == slow && fast == expected
        #expect(same)
    }

    /// The fast path alone, with no fallback to JSONDecoder over the whole document:
    /// what `JSONReport` would quietly do if the tables were handed over out of order.
    @Test func theFastPathAloneDecodesAReportWithAndWithoutCountedRuns() throws {
        let report = try Self.report()
        let counted = MeasurementReport(
            name: report.name, createdAt: report.createdAt, environment: report.environment,
            configuration: report.configuration,
            runs: report.runs,
            countedRuns: report.runs.map { run in
                var run = run
                // not counted as a success: the profile keeps no instruction statistics to compare
                run.status = .failedExit
                return run
            })
        for document in [report, counted] {
            let bytes = Data(try JSONReport.render(.measurement(document)))
            let extracted = try #require(SpanTableScanner.extract(bytes), "the fast path took none of the tables")
            let decoded = try SpanTable.Parsed.$current.withValue(extracted.parsed) {
                try JSONDecoder().decode(MeasurementReport.self, from: extracted.remainder)
            }
            #expect(decoded.runs == document.runs)
            #expect(decoded.countedRuns == document.countedRuns)
        }
    }

    @Test func aTableWrittenOutsideAReportCarriesItsStrings() throws {
        let timeline = try #require(try Self.report().runs[0].timeline)
        let data = try JSONEncoder().encode(timeline)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"strings\""))
        #expect(try JSONDecoder().decode(LaunchTimeline.self, from: data) == timeline)
    }

    @Test func aTableThatDoesNotFitIsRefusedAsWithoutTheFastPath() throws {
        var report = try SampleReports.sample()
        report.runs = [report.runs[0]]
        let text = String(decoding: try JSONReport.render(.measurement(report)), as: UTF8.self)
        // One cell too few in the first table's begin column.
        let line = try #require(
            text.split(separator: "\n", omittingEmptySubsequences: false).first { $0.contains("\"begin\" : [") })
        let shorter = line.replacingOccurrences(of: #"\[-?[0-9]+,"#, with: "[", options: .regularExpression)
        let broken = Data(text.replacingOccurrences(of: line, with: shorter).utf8)
        let error = try #require(throws: ReportError.self) { try JSONReport.readDocument(broken, path: "broken.json") }
        #expect(error.description.hasPrefix("broken.json: malformed report: "), "\(error)")
        #expect(error.description.contains("column 'begin' has"), "\(error)")
        #expect(error.description.contains("mainThreadSpans"), "\(error)")
    }

    @Test func aSchemaTwoReportReadsAndIsWrittenAgainAsATableOfTheSameSpans() throws {
        let path = FixtureFiles.path("measurement-v2-sample.json")
        let old = try JSONReport.read(from: path)
        #expect(old.schemaVersion == 2)
        #expect(old.runs.contains { !($0.timeline?.mainThreadSpans.isEmpty ?? true) })
        let written = try JSONReport.render(.measurement(old))
        guard case .measurement(var again) = try JSONReport.readDocument(Data(written), path: "again.json") else {
            Issue.record("not a measurement")
            return
        }
        #expect(again.schemaVersion == MeasurementReport.currentSchemaVersion)
        again.schemaVersion = old.schemaVersion
        let same = again == old
        #expect(same)
        #expect(written.count < (try Data(contentsOf: URL(fileURLWithPath: path))).count)
    }
}

/// A report's strings are looked up by their representation first (the storage
/// every span read from one report shares), by their text otherwise: either
/// way a string has one index, the one its text was first given.
@Suite("Span strings")
struct SpanStringsTests {
    @Test func aStringHasOneIndexWhateverItsStorage() {
        let strings = SpanStrings()
        // Inline (short) and heap (long) strings, enough to grow the table of representations several times.
        let texts = (0..<3_000).map {
            $0 % 2 == 0 ? "s\($0)" : "a span name long enough to be stored on the heap #\($0)"
        }
        for (index, text) in texts.enumerated() { #expect(strings.index(of: text) == index) }
        for (index, text) in texts.enumerated().reversed() {
            // The same text in storage of its own: a representation never seen.
            let copy = String(decoding: Array(text.utf8), as: UTF8.self)
            #expect(strings.index(of: copy) == index && strings.index(of: text) == index)
        }
        #expect(strings.strings == texts)
        let read = SpanStrings(texts)  // strings read from a report: indexed when first asked
        #expect(read.index(of: String(decoding: Array(texts[2_999].utf8), as: UTF8.self)) == 2_999)
        #expect(read.index(of: "new") == 3_000 && read.strings.count == 3_001)
    }
}
