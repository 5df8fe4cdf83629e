import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// Issue 33, finding 1: `report x.json --format json` rewriting a report in place
/// dropped the fields this version does not know (written by a later launchprof).
@Suite("Unknown fields kept")
struct UnknownFieldsTests {
    @Test func fieldsTheNewBytesLackAreAddedWhereTheyWere() throws {
        let original = Array(#"{"a":1,"future":{"x":[1,2]},"runs":[{"i":1,"later":"yes"},{"i":2}],"t":[1,2,3]}"#.utf8)
        let fresh = Array(#"{"a":1,"runs":[{"i":1},{"i":2}],"t":[1,2,3]}"#.utf8)
        let carried = JSONUnknownFields.carried(from: original, into: fresh)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(carried)) as? [String: Any])
        #expect((object["future"] as? [String: Any])?["x"] as? [Int] == [1, 2])
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs[0]["later"] as? String == "yes" && runs[1]["later"] == nil)
        // Nothing to carry: the same bytes.
        #expect(JSONUnknownFields.carried(from: fresh, into: fresh) == fresh)
        // Not JSON: the new bytes.
        #expect(JSONUnknownFields.carried(from: Array("{".utf8), into: fresh) == fresh)
        // Into an empty object: no leading comma.
        let intoEmpty = JSONUnknownFields.carried(
            from: Array(#"{"k":{"z":true}}"#.utf8), into: Array(#"{"k":{}}"#.utf8))
        #expect(String(decoding: intoEmpty, as: UTF8.self) == #"{"k":{"z":true}}"#)
    }

    @Test func aRewrittenReportKeepsAndReadsBackWithItsUnknownFields() throws {
        let report = try SampleReports.uninstrumented([10, 11, 12])
        var fresh = RenderedReport(.measurement(report))
        let bytes = try fresh.bytes(of: .json)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        json["futureTopLevel"] = ["kept": true]
        var runs = try #require(json["runs"] as? [[String: Any]])
        runs[0]["futureRunField"] = 42
        json["runs"] = runs
        let original = Array(try JSONSerialization.data(withJSONObject: json))
        let decoded = try JSONReport.readDocument(Data(original), path: "x.json")
        var rewritten = RenderedReport(decoded)
        let carried = JSONUnknownFields.carried(from: original, into: try rewritten.bytes(of: .json))
        let back = try #require(try JSONSerialization.jsonObject(with: Data(carried)) as? [String: Any])
        #expect((back["futureTopLevel"] as? [String: Any])?["kept"] as? Bool == true)
        #expect((back["runs"] as? [[String: Any]])?.first?["futureRunField"] as? Int == 42)
        _ = try JSONReport.readDocument(Data(carried), path: "y.json")  // still a report this version reads
    }
}
