import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

@testable import LaunchReports

/// The Chrome trace, parsed back with `JSONSerialization` and checked against
/// the report it was rendered from.
@Suite("Chrome trace")
struct ChromeTraceTests {
    typealias Event = [String: Any]

    static func parse(_ bytes: [UInt8]) throws -> (root: [String: Any], events: [Event]) {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [Event])
        return (root, events)
    }

    static func events(_ events: [Event], phase: String, pid: Int, tid: Int? = nil) -> [Event] {
        events.filter {
            $0["ph"] as? String == phase && $0["pid"] as? Int == pid && (tid == nil || $0["tid"] as? Int == tid)
        }
    }

    static func processNames(_ events: [Event]) -> [Int: String] {
        var names: [Int: String] = [:]
        for event in events where event["ph"] as? String == "M" && event["name"] as? String == "process_name" {
            names[event["pid"] as! Int] = (event["args"] as? [String: Any])?["name"] as? String
        }
        return names
    }

    static func microseconds(_ nanoseconds: UInt64, from origin: UInt64) -> Double {
        (Double(nanoseconds) - Double(origin)) / 1000
    }

    @Test func eachSpanIsACompleteEventAtItsTimeFromSpawnInItsRunsProcess() throws {
        let report = try SampleReports.sample()
        let (root, events) = try Self.parse(ChromeTraceReport.render(.measurement(report)))
        #expect(root["displayTimeUnit"] as? String == "ms")
        let runs = report.runs.filter { !$0.isWarmup && $0.status == .ok && $0.timeline != nil }
        #expect(runs.count == 2)
        #expect(
            Self.processNames(events) == [
                1: "run 1 (\(Milliseconds.text(runs[0].timeToReadyMs!)))",
                2: "run 2 (\(Milliseconds.text(runs[1].timeToReadyMs!)))",
            ])
        #expect(Self.processNames(events)[1] == "run 1 (1125 ms)")

        for (offset, run) in runs.enumerated() {
            let pid = offset + 1
            let timeline = try #require(run.timeline)
            let spawn = try #require(timeline.milestones[.spawn])
            let main = Self.events(events, phase: "X", pid: pid, tid: 1)
            let others = Self.events(events, phase: "X", pid: pid).filter { ($0["tid"] as! Int) >= 2 }
            #expect(main.count == timeline.mainThreadSpans.count)
            #expect(others.count == timeline.otherSpans.count)
            #expect(
                Self.events(events, phase: "X", pid: pid).count == timeline.mainThreadSpans.count
                    + timeline.otherSpans.count)

            for (event, span) in Array(zip(main, timeline.mainThreadSpans)) + Array(zip(others, timeline.otherSpans)) {
                #expect(event["name"] as? String == span.name)
                #expect(event["cat"] as? String == span.category.description)
                let ts = try #require(event["ts"] as? Double)
                let dur = try #require(event["dur"] as? Double)
                #expect(abs(ts - Self.microseconds(span.beginNanoseconds, from: spawn)) < 1e-6)
                #expect(abs(dur - Double(span.endNanoseconds - span.beginNanoseconds) / 1000) < 1e-6)
                let args = try #require(event["args"] as? [String: Any])
                #expect(args["location"] as? String == "\(span.file):\(span.line)")
                // CPU time never exceeds the self time it is part of (read at the thread clock's granularity).
                #expect(
                    args["selfCPUMs"] as? Double
                        == span.selfCPUNanoseconds.map { Double(min($0, span.selfNanoseconds)) / 1e6 })
                let blocked = args["blockedMs"] as? [String: Double] ?? [:]
                let expected: [String: Double] = Dictionary(
                    uniqueKeysWithValues: span.blockedNanoseconds.map { ($0.key.rawValue, Double($0.value) / 1e6) })
                #expect(blocked == expected)
            }

            // Every milestone is an instant on the main thread.
            let instants = Self.events(events, phase: "i", pid: pid, tid: 1)
            #expect(instants.count == timeline.milestones.count)
            for instant in instants {
                #expect(instant["s"] as? String == "t")
                let milestone = try #require(Milestone(id: instant["name"] as? String ?? ""))
                let at = try #require(timeline.milestones[milestone])
                #expect(abs((instant["ts"] as? Double ?? .nan) - Self.microseconds(at, from: spawn)) < 1e-6)
            }
            #expect(instants.first?["name"] as? String == "spawn")
            #expect(instants.first?["ts"] as? Double == 0)
        }
    }

    @Test func threadsAreNamedAndTheBlockedCounterSumsTheMainThreadsWaits() throws {
        let report = try SampleReports.sample()
        let (_, events) = try Self.parse(ChromeTraceReport.render(.measurement(report)))
        let threadNames = events.filter {
            $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" && $0["pid"] as? Int == 1
        }
        .map { (($0["tid"] as! Int), ($0["args"] as! [String: Any])["name"] as! String) }
        #expect(threadNames.first { $0.0 == 1 }?.1 == "main")
        #expect(threadNames.first { $0.0 == 2 }?.1 == "other threads")
        #expect(
            events.contains {
                $0["ph"] as? String == "M" && $0["name"] as? String == "process_sort_index" && $0["pid"] as? Int == 2
            })

        let timeline = try #require(report.runs[1].timeline)
        let counters = Self.events(events, phase: "C", pid: 2).filter {
            $0["name"] as? String == ChromeTraceReport.blockedCounterName
        }
        #expect(
            Self.events(events, phase: "C", pid: 2).allSatisfy {
                [ChromeTraceReport.blockedCounterName, ChromeTraceReport.stateCounterName].contains(
                    $0["name"] as? String)
            })
        let last = try #require(counters.last?["args"] as? [String: Double])
        let waited = Set(timeline.mainThreadSpans.flatMap(\.blockedNanoseconds.keys))
        #expect(Set(last.keys) == Set(waited.map(\.rawValue)))
        #expect(counters.first?["ts"] as? Double == 0)
        for kind in waited {
            let total = timeline.mainThreadSpans.reduce(UInt64(0)) { $0 + ($1.blockedNanoseconds[kind] ?? 0) }
            #expect(abs((last[kind.rawValue] ?? .nan) - Double(total) / 1e6) < 1e-9, "\(kind)")
        }
    }

    /// The main thread's state, as Perfetto draws a thread-state lane: at each span's begin its own
    /// time's split in percent, back to its parent's at its end, and `no readings` between top-level spans.
    @Test func theStateCounterFollowsTheInnermostSpansSplit() throws {
        let report = try SampleReports.sample()
        let (_, events) = try Self.parse(ChromeTraceReport.render(.measurement(report)))
        let timeline = try #require(report.runs[1].timeline)
        let origin = Double(ChromeTraceReport.origin(of: timeline))
        let states = Self.events(events, phase: "C", pid: 2).filter {
            $0["name"] as? String == ChromeTraceReport.stateCounterName
        }
        try #require(!states.isEmpty)
        for span in timeline.mainThreadSpans where span.depth == 0 && span.selfNanoseconds > 0 {
            let at = (Double(span.beginNanoseconds) - origin) / 1000
            let sample = try #require(
                states.last { abs(($0["ts"] as? Double ?? .nan) - at) < 0.002 }, "no sample at \(span.name)'s begin")
            let args = try #require(sample["args"] as? [String: Double])
            let shares = ChromeTraceReport.stateShares(span)
            #expect(args["CPU"] == shares.cpu && args["waiting for a CPU"] == shares.queue, "\(span.name)")
            #expect(args["blocked"] == shares.blocked && args["no readings"] == 0, "\(span.name)")
        }
        let last = try #require(states.last?["args"] as? [String: Double])
        #expect(last["no readings"] == 100)
    }

    @Test func anUninstrumentedRunIsOneEventFromSpawnToReady() throws {
        let report = try SampleReports.uninstrumented()
        let (root, events) = try Self.parse(ChromeTraceReport.render(.measurement(report)))
        let complete = events.filter { $0["ph"] as? String == "X" }
        #expect(complete.count == 3)
        for (event, run) in zip(complete, report.runs) {
            #expect(event["pid"] as? Int == run.index)
            #expect(event["ts"] as? Double == 0)
            #expect(abs((event["dur"] as? Double ?? .nan) - run.timeToReadyMs! * 1000) < 1e-6)
        }
        #expect(Self.processNames(events) == [1: "run 1 (1.44 ms)", 2: "run 2 (0.98 ms)", 3: "run 3 (0.92 ms)"])
        let other = try #require(root["otherData"] as? [String: String])
        #expect(other["command"] == "/bin/true")
        #expect(other["outcome"] == "pass")
    }

    @Test func failedRunsAndWarmUpsAreLeftOut() throws {
        var report = try SampleReports.uninstrumented([1.5, nil, 2.5])
        report.runs.insert(RunRecord(index: 0, isWarmup: true, status: .ok, timeToReadyMs: 9), at: 0)
        let (_, events) = try Self.parse(ChromeTraceReport.render(.measurement(report)))
        #expect(Self.processNames(events) == [1: "run 1 (1.50 ms)", 2: "run 3 (2.50 ms)"])
    }

    @Test func aComparisonDrawsTheBaseRunsThenTheHeadRuns() throws {
        let comparison = SampleReports.comparison(
            try SampleReports.uninstrumented([1, 2]), try SampleReports.uninstrumented([3, 4, 5]))
        let (root, events) = try Self.parse(ChromeTraceReport.render(.comparison(comparison)))
        #expect(
            Self.processNames(events) == [
                1: "base run 1 (1.00 ms)", 2: "base run 2 (2.00 ms)",
                3: "head run 1 (3.00 ms)", 4: "head run 2 (4.00 ms)", 5: "head run 3 (5.00 ms)",
            ])
        #expect((root["otherData"] as? [String: String])?["kind"] == "comparison")
    }

    @Test func spanNamesWithQuotesBackslashesAndControlsRoundTrip() throws {
        var report = try SampleReports.sample()
        let name = "say \"hi\" \\ back\nslash\t\u{01}\u{1F} é 🚀"
        report.runs[0].timeline!.mainThreadSpans[0].name = name
        report.runs[0].timeline!.mainThreadSpans[0].file = "Weird \"Dir\"/File\\.swift"
        let bytes = ChromeTraceReport.render(.measurement(report))
        #expect(!bytes.contains(0x01) && !bytes.contains(0x1F))
        let (_, events) = try Self.parse(bytes)
        let first = try #require(Self.events(events, phase: "X", pid: 1, tid: 1).first)
        #expect(first["name"] as? String == name)
        #expect((first["args"] as? [String: Any])?["location"] as? String == "Weird \"Dir\"/File\\.swift:18")
    }

    @Test func namesLongerThanTheBufferFirstGuessedAreWrittenWhole() throws {
        var report = try SampleReports.sample()
        let name = String(repeating: "LongSpanName\"", count: 40_000)
        report.runs[0].timeline!.mainThreadSpans[0].name = name
        let (_, events) = try Self.parse(ChromeTraceReport.render(.measurement(report)))
        #expect(Self.events(events, phase: "X", pid: 1, tid: 1).first?["name"] as? String == name)
    }

    @Test func otherThreadsOverlappingWithoutNestingGetLanesOfTheirOwn() throws {
        var report = try SampleReports.sample()
        let template = report.runs[0].timeline!.otherSpans[0]
        func span(_ begin: UInt64, _ end: UInt64) -> SpanRecord {
            var span = template
            span.beginNanoseconds = template.beginNanoseconds + begin
            span.endNanoseconds = template.beginNanoseconds + end
            return span
        }
        // [0, 10] holds [2, 5]; [4, 12] overlaps both; [10, 20] follows [0, 10].
        report.runs[0].timeline!.otherSpans = [
            span(0, 10_000), span(2_000, 5_000), span(4_000, 12_000), span(10_000, 20_000),
        ]
        let (_, events) = try Self.parse(ChromeTraceReport.render(.measurement(report)))
        let tids = Self.events(events, phase: "X", pid: 1).filter { ($0["tid"] as! Int) >= 2 }.map { $0["tid"] as! Int }
        #expect(tids == [2, 2, 3, 2])
    }

    /// 100 runs of 10,000 spans (a third of them blocked) in under a second,
    /// about 0.5 s on a 2-core VM; only meaningful (and only run) in an
    /// optimized build: `swift test -c release --filter ChromeTrace`.
    @Test(.enabled(if: !isDebugBuild)) func aLargeReportRendersFast() throws {
        var report = try SampleReports.sample()
        var timeline = report.runs[0].timeline!
        let template = timeline.mainThreadSpans[0]
        timeline.mainThreadSpans = (0..<10_000).map { index in
            var span = template
            span.name = "Span \(index % 97)"
            span.beginNanoseconds = timeline.milestones[.spawn]! + UInt64(index) * 1_000
            span.endNanoseconds = span.beginNanoseconds + 900
            span.selfCPUNanoseconds = 700
            span.blockedNanoseconds = index % 3 == 0 ? [.disk: 150, .lock: 50] : [:]
            return span
        }
        report.runs = (1...100).map { index in
            var run = report.runs[0]
            run.index = index
            run.timeline = timeline
            return run
        }
        let clock = ContinuousClock()
        var bytes: [UInt8] = []
        let elapsed = clock.measure { bytes = ChromeTraceReport.render(.measurement(report)) }
        #expect(elapsed < .milliseconds(1000), "\(elapsed) for \(bytes.count) bytes")
        // Counted, not parsed: JSONSerialization takes most of a minute over this much.
        let marker = Array(#"{"ph":"X""#.utf8)
        var complete = 0
        for index in 0..<(bytes.count - marker.count)
        where bytes[index] == marker[0] && Array(bytes[index..<index + marker.count]) == marker {
            complete += 1
        }
        #expect(complete == 100 * (10_000 + timeline.otherSpans.count))
    }
}

#if DEBUG
    let isDebugBuild = true
#else
    let isDebugBuild = false
#endif
