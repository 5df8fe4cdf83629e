import Foundation
import LaunchReports
import Testing

/// A stored report is read strictly: a number its field cannot hold is named
/// with the field and the range it takes, rather than called "not valid JSON";
/// a key an object holds twice is refused with its path (the decoder would
/// keep the first, Python and jq the last); `DecodingError`'s text never shows.
@Suite("JSONReport: strict reading")
struct JSONReportStrictReadingTests {
    /// The sample report with the first `"key" : <number>` replaced by `"key" : value`.
    func sample(replacing key: String, with value: String) throws -> Data {
        let text = try String(contentsOfFile: FixtureFiles.path("measurement-v1-sample.json"), encoding: .utf8)
        let range = try #require(text.range(of: "\"\(key)\" : [0-9.]+", options: .regularExpression))
        return Data(text.replacingCharacters(in: range, with: "\"\(key)\" : \(value)").utf8)
    }

    /// The sample report with `"key" : value` put in front of the first `"key"` as well.
    func sample(doubling key: String, with value: String) throws -> Data {
        let text = try String(contentsOfFile: FixtureFiles.path("measurement-v1-sample.json"), encoding: .utf8)
        let range = try #require(text.range(of: "\"\(key)\" :"))
        return Data(text.replacingCharacters(in: range, with: "\"\(key)\" : \(value), \"\(key)\" :").utf8)
    }

    func problem(_ data: Data) -> String {
        do {
            _ = try JSONReport.readDocument(data, path: "r.json")
            return "decoded"
        } catch {
            return "\(error)"
        }
    }

    @Test func aNegativeNumberWhereAnUnsignedOneBelongsIsNamedWithItsRange() throws {
        let message = problem(try sample(replacing: "beginNanoseconds", with: "-5"))
        #expect(
            message
                == "r.json: malformed report: runs[0].timeline.mainThreadSpans[0].beginNanoseconds: -5 is not a whole number "
                + "from 0 to 18446744073709551615")
    }

    @Test(arguments: ["18446744073709551616", "99999999999999999999999999", "1.5", "1e400"])
    func aWholeNumberFieldOutOfRangeIsNamedWithItsRange(_ value: String) throws {
        let message = problem(try sample(replacing: "index", with: value))
        #expect(
            message == "r.json: malformed report: runs[0].index: \(value) is not a whole number "
                + "from -9223372036854775808 to 9223372036854775807")
    }

    @Test func aNumberNoDoubleHoldsIsNamed() throws {
        let message = problem(try sample(replacing: "timeToReadyMs", with: "1e400"))
        #expect(
            message.hasPrefix("r.json: malformed report: runs[0].timeToReadyMs: 1e400 is not a finite number"),
            "\(message)")
    }

    @Test(arguments: [("index", "7"), ("schemaVersion", "1"), ("timeToReadyMs", "1")])
    func aKeyTwiceInOneObjectIsRefusedWithItsPath(_ key: String, _ value: String) throws {
        let message = problem(try sample(doubling: key, with: value))
        #expect(message.contains("malformed report: '") && message.contains("\(key)' appears twice"), "\(message)")
        #expect(!message.contains("\n"))
    }

    /// The header reader (names, the report a new one replaces) refuses a key twice as the full reader does.
    @Test func theHeaderReaderRefusesAKeyTwiceToo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lp-strict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("plain.json")
        let doubled = directory.appendingPathComponent("doubled.json")
        try Data(contentsOf: URL(fileURLWithPath: FixtureFiles.path("measurement-v1-sample.json"))).write(to: plain)
        try sample(doubling: "schemaVersion", with: "1").write(to: doubled)
        #expect(ReportSummary.read(from: plain.path) != nil)
        #expect(ReportSummary.read(from: doubled.path) == nil)
    }

    @Test func anEscapedKeyIsTheSameKey() throws {
        let message = problem(
            try sample(doubling: "index", with: "7").replacingFirst("\"index\" : 7", with: "\"ind\\u0065x\" : 7"))
        #expect(message.contains("index' appears twice"), "\(message)")
    }

    @Test func jsonThatIsNotValidIsStillSaidToBeWithoutDecodingErrorsText() throws {
        let message = problem(Data(#"{"kind":"measurement","schemaVersion":2,"#.utf8))
        #expect(message.contains("malformed report"))
        #expect(!message.contains("DecodingError") && !message.contains("Debug description"), "\(message)")
        let wrongType = problem(try sample(replacing: "index", with: "\"one\""))
        #expect(wrongType == "r.json: malformed report: 'runs[0].index' is not a whole number", "\(wrongType)")
    }
}

extension Data {
    /// This data as UTF-8 text with the first `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> Data {
        let text = String(decoding: self, as: UTF8.self)
        guard let range = text.range(of: target) else { return self }
        return Data(text.replacingCharacters(in: range, with: replacement).utf8)
    }
}
