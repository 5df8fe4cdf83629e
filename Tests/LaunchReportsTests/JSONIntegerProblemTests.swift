import Foundation
import LaunchReports
import Testing

/// A whole number a report field cannot hold is named, with what is wrong
/// with it, rather than called "not valid JSON".
@Suite("whole numbers out of range in reports")
struct JSONIntegerProblemTests {
    /// The sample report with the first `"key" : <number>` replaced by `"key" : value`.
    func sample(replacing key: String, with value: String) throws -> Data {
        let text = try String(contentsOfFile: FixtureFiles.path("measurement-v1-sample.json"), encoding: .utf8)
        let range = try #require(text.range(of: "\"\(key)\" : [0-9]+", options: .regularExpression))
        return Data(text.replacingCharacters(in: range, with: "\"\(key)\" : \(value)").utf8)
    }

    func problem(_ data: Data) -> String {
        do {
            _ = try JSONReport.readDocument(data, path: "r.json")
            return "decoded"
        } catch {
            return "\(error)"
        }
    }

    @Test func aNegativeNumberWhereAnUnsignedOneBelongsIsNamed() throws {
        let message = problem(try sample(replacing: "beginNanoseconds", with: "-5"))
        #expect(message == "r.json: malformed report: runs[0].timeline.mainThreadSpans[0].beginNanoseconds: -5 is negative")
    }

    @Test(arguments: ["18446744073709551616", "99999999999999999999999999"])
    func aNumberTooLargeIsNamed(_ value: String) throws {
        let message = problem(try sample(replacing: "index", with: value))
        #expect(message == "r.json: malformed report: runs[0].index: \(value) is too large")
    }

    @Test func jsonThatIsNotValidIsStillSaidToBe() throws {
        #expect(problem(Data(#"{"kind":"measurement","schemaVersion":2,"#.utf8)).contains("malformed report"))
    }
}
