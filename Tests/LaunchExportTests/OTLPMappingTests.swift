import Foundation
import LaunchAnalysis
import LaunchExport
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// A report's launches as spans: one trace per launch, every span there,
/// nested as it ran, at its real time, with the documented attributes.
@Suite("OTLP mapping")
struct OTLPMappingTests {
    let report: MeasurementReport
    let export: DecodedExport

    init() throws {
        report = try JSONReport.read(from: FixtureFiles.path("measurement-v2-sample.json"))
        var identifiers = OTLPIdentifiers(source: SeededGenerator(seed: 3))
        export = try DecodedExport(Data(OTLPTraceRequest(report: report, identifiers: &identifiers).json()))
    }

    /// The exported trace of `run`: its root span carries the run's index and warm-up flag.
    func trace(of run: RunRecord) throws -> [DecodedExport.Span] {
        let root = try #require(
            export.spans.first {
                $0.parentSpanID == nil && $0.int("launchprof.run.index") == Int64(run.index)
                    && $0.bool("launchprof.run.warmup") == run.isWarmup
            })
        return export.traces[root.traceID] ?? []
    }

    @Test func everyRunIsATraceWithEverySpanAtItsRealTime() throws {
        #expect(export.traces.count == report.runs.count)
        for run in report.runs {
            let timeline = try #require(run.timeline)
            let anchor = try #require(run.wallClock)
            let spans = try trace(of: run)
            let root = spans[0]
            #expect(root.parentSpanID == nil && root.name == "launch")
            let spawn = try #require(timeline.milestones[.spawn])
            #expect(root.start == anchor.unixNanoseconds(atMonotonic: spawn))
            #expect(root.end - root.start == timeline.phases[.timeToFirstFrame])
            // Phases, then the app's spans in the report's order: the same names, the same offsets from the spawn.
            let phases = spans.filter { $0.string("launchprof.phase") != nil }
            #expect(
                phases.map(\.name) == [
                    "loader", "staticInit", "appInit", "willFinishLaunching", "didFinishLaunching", "initialFrame",
                ])
            #expect(phases.allSatisfy { $0.parentSpanID == root.spanID })
            let app = spans.filter { $0.attributes["code.file.path"] != nil }
            let records = timeline.mainThreadSpans + timeline.otherSpans
            #expect(spans.count == 1 + phases.count + records.count)
            #expect(app.map(\.name) == records.map(\.name))
            for (span, record) in zip(app, records) {
                #expect(span.start - root.start == record.beginNanoseconds - spawn, "\(record.name)")
                #expect(span.end - span.start == record.wallNanoseconds, "\(record.name)")
                #expect(
                    span.start >= root.start
                        && span.end <= root.start + (timeline.milestones.values.max()! - spawn) + record.wallNanoseconds
                )
            }
        }
    }

    @Test func spansAreNestedAsTheyRan() throws {
        for run in report.runs {
            let timeline = try #require(run.timeline)
            let spans = try trace(of: run)
            let byID = Dictionary(uniqueKeysWithValues: spans.map { ($0.spanID, $0) })
            let root = spans[0]
            let app = spans.filter { $0.attributes["code.file.path"] != nil }
            let records = timeline.mainThreadSpans + timeline.otherSpans
            var open: [UInt64: [String]] = [:]  // thread → span ids by depth
            for (span, record) in zip(app, records) {
                let parent = try #require(
                    span.parentSpanID.flatMap { byID[$0] }, "\(record.name) has no parent in its trace")
                let thread = try #require(record.threadID)
                var stack = Array((open[thread] ?? []).prefix(record.depth))
                if record.depth > 0 {
                    #expect(parent.spanID == stack.last, "\(record.name) at depth \(record.depth)")
                } else if timeline.mainThreadSpans.contains(record) {
                    // An outermost main-thread span sits in the phase it began in.
                    #expect(parent.string("launchprof.phase") != nil)
                    #expect(
                        parent.start <= span.start && span.start < parent.end, "\(record.name) under \(parent.name)")
                } else {
                    #expect(parent.spanID == root.spanID, "\(record.name) on another thread")
                }
                stack.append(span.spanID)
                open[thread] = stack
            }
        }
    }

    @Test func attributesAreTheDocumentedOnes() throws {
        #expect(export.resourceString("service.name") == report.name)
        #expect(export.resourceString("host.name") == report.environment.hostname)
        #expect(export.resourceString("host.arch") == "amd64")
        #expect(export.resourceString("os.type") == "linux")
        #expect(export.resourceString("host.cpu.model.name") == report.environment.cpuModel)
        #expect(
            export.resource["launchprof.host.cpu.count"]?["intValue"] as? String == String(report.environment.cpuCount))
        #expect(export.resourceString("launchprof.mode") == "warm")
        #expect(export.resourceString("launchprof.ready") == "first-frame")
        #expect(export.scope["name"] as? String == "launchprof")

        for run in report.runs {
            let timeline = try #require(run.timeline)
            let app = try trace(of: run).filter { $0.attributes["code.file.path"] != nil }
            for (span, record) in zip(app, timeline.mainThreadSpans + timeline.otherSpans) {
                let thread = try #require(timeline.threads.first { $0.id == record.threadID })
                #expect(span.int("thread.id") == Int64(thread.id))
                #expect(span.string("thread.name") == thread.name)
                #expect(span.string("code.file.path") == record.file)
                #expect(span.int("code.line.number") == Int64(record.line))
                #expect(span.string("launchprof.span.category") == record.category.description)
                #expect(span.int("launchprof.span.cpu_time_ns") == record.selfCPUNanoseconds.map { Int64($0) })
                let blocked = record.blockedNanoseconds.values.reduce(0, +)
                #expect(
                    span.int("launchprof.span.blocked_time_ns")
                        == (record.selfCPUNanoseconds == nil && blocked == 0 ? nil : Int64(blocked)))
            }
        }
    }

    @Test func findingsAreEventsOnTheSpansTheyAreAbout() throws {
        let events = export.spans.flatMap { span in span.events.map { (span: span, event: $0) } }
        for finding in report.profile.findings {
            let matching = events.filter { $0.event.name == finding.rule.id && $0.span.name == finding.span }
            #expect(!matching.isEmpty, "\(finding.rule.id) on \(finding.span)")
            for (span, event) in matching {
                #expect(event.time == span.start)
                #expect(
                    event.attributes["launchprof.finding.recommendation"]?["stringValue"] as? String
                        == finding.recommendation)
                if let file = finding.file { #expect(span.string("code.file.path") == file) }
            }
        }
    }

    @Test func aServiceNameReplacesTheReportName() throws {
        var identifiers = OTLPIdentifiers(source: SeededGenerator(seed: 1))
        let request = OTLPTraceRequest(report: report, serviceName: "reading-list-ios", identifiers: &identifiers)
        #expect(request.resourceAttributes.first == OTLPAttribute("service.name", .string("reading-list-ios")))
    }

    @Test func aReportWithoutAnchorsIsPlacedBeforeItWasWritten() throws {
        let created = try #require(ISO8601DateFormatter().date(from: "2026-11-22T22:41:18Z"))
        for name in ["measurement-v1-sample.json", "measurement-v1-true.json"] {
            var old = try JSONReport.read(from: FixtureFiles.reportsFixture(name))
            old.createdAt = "2026-11-22T22:41:18Z"
            var identifiers = OTLPIdentifiers(source: SeededGenerator(seed: 2))
            let decoded = try DecodedExport(Data(OTLPTraceRequest(report: old, identifiers: &identifiers).json()))
            let createdNanoseconds = UInt64(created.timeIntervalSince1970) * 1_000_000_000
            #expect(decoded.traces.count == old.runs.count, "\(name)")
            #expect(
                decoded.spans.allSatisfy {
                    $0.end <= createdNanoseconds && $0.start >= createdNanoseconds - 60_000_000_000
                }, "\(name)")
            // Launches do not overlap: each root ends before the next begins.
            let roots = decoded.spans.filter { $0.parentSpanID == nil }.sorted { $0.start < $1.start }
            #expect(zip(roots, roots.dropFirst()).allSatisfy { $0.end <= $1.start }, "\(name)")
        }
    }
}
