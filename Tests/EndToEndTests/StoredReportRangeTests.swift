import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// Numbers out of range in a stored report — non-finite, a negative duration, a
/// duration or effect above one hour — are refused by `report`, `compare` and
/// `merge` once the report is decoded: exit 2, one line naming the file and the
/// field. (They were rendered: a report of a launch that took 1e308 ms.)
@Suite("stored reports: numbers out of range")
struct StoredReportRangeTests {
    let scratch = ScratchDirectory("lp-ranges")

    /// One step of a path into a JSON document.
    enum Step {
        case key(String)
        case index(Int)
    }

    /// `document` with the value at `path` replaced by `placeholder`.
    static func replacing(_ path: ArraySlice<Step>, in document: Any, with placeholder: String) -> Any {
        guard let step = path.first else { return placeholder }
        switch step {
        case .key(let key):
            var object = document as? [String: Any] ?? [:]
            object[key] = replacing(path.dropFirst(), in: object[key] as Any, with: placeholder)
            return object
        case .index(let index):
            var array = document as? [Any] ?? []
            if array.indices.contains(index) {
                array[index] = replacing(path.dropFirst(), in: array[index], with: placeholder)
            }
            return array
        }
    }

    /// A copy of the report at `source` whose value at `path` is the JSON text `value`, written to `name`.
    func edited(_ source: String, _ path: [Step], to value: String, as name: String) throws -> String {
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: source)))
        let placeholder = "@@edited@@"
        let edited = Self.replacing(path[...], in: document, with: placeholder)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: edited), as: UTF8.self)
        let found = text.contains("\"\(placeholder)\"")  // (not inside #expect: it would print the whole report)
        #expect(found, "\(path) is not in the report at \(source)")
        return try scratch.write(text.replacingOccurrences(of: "\"\(placeholder)\"", with: value), to: name)
    }

    /// A measurement of `runs` launches of /bin/true, stored as JSON; its path.
    func measured(_ name: String, runs: Int = 3) throws -> String {
        let output = scratch.url.appendingPathComponent(name)
        let result = try Executables.run(
            [
                "measure", "--runs", "\(runs)", "--warmup", "0", "--output", output.path, "--name", name, "--format",
                "json", "--", "/bin/true",
            ],
            in: scratch.url)
        try #require(result.status == 0, "\(result.stderr)")
        return output.appendingPathComponent("\(name).json").path
    }

    /// Exit 2 and one line on standard error naming `file` and `field`.
    func expectRefused(
        _ result: Executables.Result, _ file: String, _ field: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 2, "\(field): exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(result.stderr.contains(file), "\(result.stderr) names \(file)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.contains("'\(field)'"), "\(result.stderr) names '\(field)'", sourceLocation: sourceLocation)
    }

    /// Each edit of a measurement report: the path, the JSON text written there, and the field named.
    static let measurementEdits: [(path: [Step], value: String, field: String)] = [
        ([.key("runs"), .index(0), .key("timeToReadyMs")], "1e308", "runs[0].timeToReadyMs"),
        ([.key("runs"), .index(1), .key("timeToExitMs")], "-5", "runs[1].timeToExitMs"),
        ([.key("runs"), .index(0), .key("timeToExitMs")], #""inf""#, "runs[0].timeToExitMs"),
        ([.key("runs"), .index(2), .key("timeToReadyMs")], #""nan""#, "runs[2].timeToReadyMs"),
        ([.key("runs"), .index(0), .key("timeToReadyMs")], "3600001", "runs[0].timeToReadyMs"),
        (
            [.key("configuration"), .key("budget"), .key("timeToFirstFrameMs")], "1e19",
            "configuration.budget.timeToFirstFrameMs"
        ),
        ([.key("configuration"), .key("timeoutSeconds")], #""-inf""#, "configuration.timeoutSeconds"),
        (
            [.key("profile"), .key("phases"), .index(0), .key("summary"), .key("median")], "-1",
            "profile.phases[0].summary.median"
        ),
        (
            [.key("profile"), .key("phases"), .index(0), .key("summary"), .key("p95")], "1e300",
            "profile.phases[0].summary.p95"
        ),
    ]

    @Test func reportRefusesEachNumberOutOfRangeNamingFileAndField() throws {
        let source = try measured("source")
        for (number, edit) in Self.measurementEdits.enumerated() {
            let path = try edited(source, edit.path, to: edit.value, as: "edit-\(number).json")
            let result = try Executables.run(
                ["report", path, "--format", "terminal", "--output", "-"], in: scratch.url)
            expectRefused(result, path, edit.field)
        }
    }

    @Test func compareAndMergeRefuseAStoredReportOutOfRange() throws {
        // Two measurements: the same run on both sides (or twice in a merge) is refused before any range check.
        let source = try measured("source", runs: 5)
        let other = try measured("other", runs: 5)
        let huge = try edited(other, [.key("runs"), .index(0), .key("timeToReadyMs")], to: "1e308", as: "huge.json")
        let negative = try edited(
            other, [.key("runs"), .index(1), .key("timeToExitMs")], to: "-0.5", as: "negative.json")
        let output = scratch.url.appendingPathComponent("out")
        let compared = try Executables.run(
            ["compare", "--base-report", source, "--head-report", huge, "--output", output.path, "--name", "cmp"],
            in: scratch.url)
        expectRefused(compared, huge, "runs[0].timeToReadyMs")
        let merged = try Executables.run(
            ["merge", negative, source, "-o", scratch.file("fleet.json")], in: scratch.url)
        expectRefused(merged, negative, "runs[1].timeToExitMs")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("fleet.json")), "nothing is merged")
    }

    @Test func aComparisonReportOutOfRangeIsRefusedNamingTheField() throws {
        let base = try measured("base", runs: 5)
        let head = try measured("head", runs: 5)  // five a side: the metrics are compared
        let output = scratch.url.appendingPathComponent("cmp")
        let compared = try Executables.run(
            [
                "compare", "--base-report", base, "--head-report", head, "--output", output.path, "--name", "cmp",
                "--format", "json",
            ],
            in: scratch.url)
        try #require((0...3).contains(compared.status), "exit \(compared.status): \(compared.stderr)")
        let source = output.appendingPathComponent("cmp.comparison.json").path
        let edits: [(path: [Step], value: String, field: String)] = [
            ([.key("metrics"), .index(0), .key("shiftMs")], "1e308", "metrics[0].shiftMs"),
            ([.key("metrics"), .index(0), .key("baseMs"), .index(0)], "-2", "metrics[0].baseMs[0]"),
            ([.key("metrics"), .index(0), .key("intervalMs"), .index(1)], #""nan""#, "metrics[0].intervalMs[1]"),
            ([.key("metrics"), .index(0), .key("intervalMs"), .index(0)], "-1e308", "metrics[0].intervalMs[0]"),
            ([.key("settings"), .key("minimumEffectMs")], "1e300", "settings.minimumEffectMs"),
            ([.key("base"), .key("runs"), .index(0), .key("timeToReadyMs")], "1e308", "base.runs[0].timeToReadyMs"),
            ([.key("head"), .key("runs"), .index(2), .key("timeToExitMs")], "-1", "head.runs[2].timeToExitMs"),
        ]
        for (number, edit) in edits.enumerated() {
            let path = try edited(source, edit.path, to: edit.value, as: "edit-\(number).comparison.json")
            let result = try Executables.run(
                ["report", path, "--format", "markdown", "--output", "-"], in: scratch.url)
            expectRefused(result, path, edit.field)
        }
        // An unbounded interval (−∞…+∞) is what the gate writes where no data of that size can narrow it: it is read.
        let lower = try edited(
            source, [.key("metrics"), .index(0), .key("intervalMs"), .index(0)], to: #""-inf""#,
            as: "open-lower.comparison.json")
        let open = try edited(
            lower, [.key("metrics"), .index(0), .key("intervalMs"), .index(1)], to: #""inf""#,
            as: "open.comparison.json")
        let result = try Executables.run(["report", open, "--format", "markdown", "--output", "-"], in: scratch.url)
        #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
    }

    @Test func numbersAtTheLimitsAreRead() throws {
        let source = try measured("source")
        // One hour exactly, and 0: the ends of the range.
        let atLimit = try edited(
            source, [.key("runs"), .index(0), .key("timeToReadyMs")], to: "3600000", as: "limit.json")
        let zero = try edited(atLimit, [.key("runs"), .index(1), .key("timeToExitMs")], to: "0", as: "zero.json")
        let result = try Executables.run(["report", zero, "--format", "json", "--output", "-"], in: scratch.url)
        #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
        let report = try JSONReport.read(from: zero)
        #expect(report.runs[0].timeToReadyMs == 3_600_000)
        #expect(report.runs[1].timeToExitMs == 0)
    }
}
