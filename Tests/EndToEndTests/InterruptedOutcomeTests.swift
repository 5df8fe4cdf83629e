import Foundation
import Testing
import _LaunchProfTestSupport

/// Issue 31, item 6, run as a user would: `compare` stopped by Ctrl-C before its
/// first look and `measure` stopped by SIGTERM write no pass anywhere: the JSON
/// verdict is `interrupted`, the JUnit file has an `<error>` case and no green one.
@Suite("Interrupted outcome: stopped commands write no pass")
struct InterruptedOutcomeTests {
    /// A script that counts its launches in `counter` and creates `marker` from launch `after` on; each launch takes 50 ms.
    static func countingScript(in folder: URL, counter: URL, marker: URL, after: Int) throws -> String {
        let script = folder.appendingPathComponent("launch.sh")
        let text =
            "#!/bin/sh\nn=$(cat \(counter.path) 2>/dev/null || echo 0); n=$((n+1)); echo $n > \(counter.path)\n"
            + "[ $n -ge \(after) ] && touch \(marker.path)\nsleep 0.05\n"
        try Data(text.utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return script.path
    }

    /// The JSON object in `url`.
    static func object(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// The `<testcase>` elements of a JUnit file, each as its text, and the `<testsuites>` line.
    static func junit(_ url: URL) throws -> (suites: String, cases: [String]) {
        let xml = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        let suites = xml.split(separator: "\n").first { $0.hasPrefix("<testsuites ") }.map(String.init) ?? ""
        let cases = xml.components(separatedBy: "<testcase ").dropFirst().map {
            $0.components(separatedBy: "</testcase>")[0]
        }
        return (suites, cases)
    }

    @Test func compareStoppedByCtrlCBeforeItsFirstLookIsInterruptedInJSONAndAnErrorInJUnit() throws {
        let output = Executables.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let counter = output.appendingPathComponent("count")
        let marker = output.appendingPathComponent("sixth")
        let script = try Self.countingScript(in: output, counter: counter, marker: marker, after: 6)
        let process = try Executables.start(
            [
                "compare", "--base", script, "--head", script, "--stages", "20,40", "--warmup", "0", "--output",
                output.path,
                "--name", "stopped", "--format", "json,junit", "--quiet",
            ])
        try #require(Executables.waitUntilExists(marker, seconds: 60), "the sixth launch never began")
        process.interrupt()  // Ctrl-C: stop after the launch under way, long before the first look at 20 a side
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)

        let json = try Self.object(output.appendingPathComponent("stopped.comparison.json"))
        let outcome = try #require(json["outcome"] as? [String: Any])
        #expect(outcome["status"] as? String == "interrupted" && outcome["exitCode"] as? Int == 130)
        #expect(json["verdict"] as? String == "interrupted", "verdict \(json["verdict"] ?? "none")")

        let (suites, cases) = try Self.junit(output.appendingPathComponent("stopped.comparison.junit.xml"))
        #expect(suites.contains(#"errors="1""#), "\(suites)")
        #expect(!cases.isEmpty)
        for test in cases {
            #expect(
                test.contains("<error ") || test.contains("<skipped ") || test.contains("<failure "),
                "a green case: \(test)")
        }
        #expect(
            cases.contains {
                $0.hasPrefix(#"classname="launchprof.runs""#) && $0.contains(#"<error message="#)
                    && $0.contains(#"type="interrupted""#)
            })
    }

    @Test func measureStoppedBySigtermIsAnErrorInJUnit() throws {
        let output = Executables.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let counter = output.appendingPathComponent("count")
        let marker = output.appendingPathComponent("third")
        let script = try Self.countingScript(in: output, counter: counter, marker: marker, after: 3)
        let process = try Executables.start(
            [
                "measure", "--runs", "50", "--warmup", "0", "--budget-ms", "60000", "--output", output.path, "--name",
                "term",
                "--format", "json,junit", "--quiet", "--", script,
            ])
        try #require(Executables.waitUntilExists(marker, seconds: 60), "the third launch never began")
        process.terminate()  // SIGTERM, a CI cancelling its job
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)

        let json = try Self.object(output.appendingPathComponent("term.json"))
        #expect((json["outcome"] as? [String: Any])?["status"] as? String == "interrupted")

        let (suites, cases) = try Self.junit(output.appendingPathComponent("term.junit.xml"))
        #expect(suites.contains(#"errors="1""#), "\(suites)")
        for test in cases {
            #expect(
                test.contains("<error ") || test.contains("<skipped ") || test.contains("<failure "),
                "a green case: \(test)")
        }
    }
}
