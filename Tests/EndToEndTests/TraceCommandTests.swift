import Foundation
import LaunchTracing
import Testing
import _LaunchProfTestSupport

/// `launchprof trace FILE.lptrace` on a trace the README's harness example wrote
/// when run by hand.
@Suite("trace: a trace file's threads, milestones and spans", .serialized)
struct TraceCommandTests {
    /// A trace of the harness example, run as a person runs it with LAUNCHPROF_TRACE.
    static let tracePath: String = {
        let directory = ScratchDirectory.makeDirectory("lp-trace-command")
        let path = directory.appendingPathComponent("launch.lptrace").path
        _ = try? Executables.run(
            [], executable: Executables.directory.appendingPathComponent("ExampleHarnessApp").path,
            environment: ["LAUNCHPROF_TRACE": path, "LAUNCHPROF_EXIT_AFTER_LAUNCH": "1"], timeoutSeconds: 60)
        return path
    }()

    @Test func theTextListsMilestonesAndNestedSpansWithTheirSites() throws {
        let result = try Executables.run(["trace", Self.tracePath])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("times are ms after the spawn") })
        for milestone in ["spawn", "main", "firstFrame", "fullyDrawn"] {
            #expect(lines.contains { $0.hasSuffix("  " + milestone) }, "milestone \(milestone)")
        }
        let line = try #require(
            BuiltProducts.line(of: #"LaunchTracer.measure("LoadResources""#, in: "Sources/ExampleHarnessApp/main.swift")
        )
        let hook = try #require(lines.first { $0.contains("  didFinishLaunching  harness") })
        let load = try #require(lines.first { $0.contains("LoadResources  io  ExampleHarnessApp/main.swift:\(line)") })
        // One level deeper than the hook it ran in: two more spaces before its name.
        func indent(_ text: String, _ name: String) -> Int {
            text.distance(from: text.startIndex, to: text.range(of: "  " + name)!.lowerBound)
        }
        #expect(indent(load, "LoadResources") == indent(hook, "didFinishLaunching") + 2)
        #expect(lines.contains { $0.contains("LoadHistory  background") })
        #expect(lines.contains { $0.hasPrefix("thread 0 main (tid ") })
    }

    @Test func jsonHoldsEveryThreadsSpansWithStartAndDuration() throws {
        let result = try Executables.run(["trace", Self.tracePath, "--format", "json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["origin"] as? String == "spawn")
        let threads = try #require(object["threads"] as? [[String: Any]])
        let spans = threads.flatMap { ($0["spans"] as? [[String: Any]]) ?? [] }
        let trace = try Trace.read(from: Self.tracePath)
        #expect(spans.count == trace.threads.flatMap(\.events).filter { $0.kind == .span }.count)
        let load = try #require(spans.first { $0["name"] as? String == "LoadResources" })
        #expect(load["depth"] as? Int == 1)
        let event = try #require(trace.threads.flatMap(\.events).first { trace.name(of: $0) == "LoadResources" })
        let duration = try #require(load["durationMs"] as? Double)
        #expect(abs(duration - Double(event.durationNanoseconds) / 1e6) < 1e-6)
        let start = try #require(load["startMs"] as? Double)
        #expect(abs(start - Double(event.beginNanoseconds - trace.spawn!.nanoseconds) / 1e6) < 1e-6)
        let metadata = try #require(object["metadata"] as? [String: Any])
        let budget = try #require(metadata["launch.budget"] as? [String: Any], "the app's budget, as an object")
        #expect(budget["timeToFirstFrameMs"] as? Double == 400)
        let milestones = try #require(object["milestones"] as? [[String: Any]])
        #expect(milestones.contains { $0["name"] as? String == "fullyDrawn" })
    }

    @Test func chromeTraceGoesToTheOutputFile() throws {
        let output = ScratchDirectory.makeDirectory("lp-trace-out").appendingPathComponent("launch.trace.json")
        let result = try Executables.run(["trace", Self.tracePath, "--format", "chrome-trace", "--output", output.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        #expect(events.contains { $0["ph"] as? String == "X" && $0["name"] as? String == "LoadResources" })
        #expect(events.contains { $0["ph"] as? String == "i" && $0["name"] as? String == "firstFrame" })
    }

    /// A file that exists and is not a trace.
    static let notATrace: String = {
        let path = ScratchDirectory.makeDirectory("lp-not-a-trace").appendingPathComponent("notes.lptrace").path
        FileManager.default.createFile(atPath: path, contents: Data("not a trace\n".utf8))
        return path
    }()

    @Test(arguments: [
        (["trace", "/nonexistent/launch.lptrace"], "/nonexistent/launch.lptrace"),
        (["trace", notATrace], "invalid trace"),
        (["trace"], "trace needs a trace file"),
        (["trace", "x.lptrace", "--format", "html"], "unknown trace format 'html'"),
    ])
    func badInputIsOneLineAndExitTwo(arguments: [String], message: String) throws {
        let result = try Executables.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }
}
