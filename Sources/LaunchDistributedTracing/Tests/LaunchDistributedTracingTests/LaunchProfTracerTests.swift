import InMemoryTracing
import LaunchDistributedTracing
import LaunchTracing
import Testing
import Tracing

/// The bridge records a `withSpan` span into LaunchTracing with its name, file and
/// line, alone and beside a tracer the server already has.
@Suite("LaunchProfTracer", .serialized)
struct LaunchProfTracerTests {
    /// The LaunchTracing spans recorded by `body`, by name: (file, line).
    func recorded(_ body: () -> Void) -> [String: (file: String, line: Int)] {
        LaunchTracer.isEnabled = true
        LaunchTracer.reset()
        body()
        let trace = LaunchTracer.snapshot()
        var spans: [String: (file: String, line: Int)] = [:]
        for thread in trace.threads {
            for event in thread.events where event.kind == .span {
                spans[trace.strings[Int(event.nameID)]] = (trace.strings[Int(event.fileID)], Int(event.line))
            }
        }
        return spans
    }

    @Test func aWithSpanSpanIsRecordedWithItsNameFileAndLine() {
        let tracer = LaunchProfTracer()
        var line = 0
        let spans = recorded {
            line = #line + 1
            tracer.withSpan("LoadConfig") { _ in _ = (0..<1_000).reduce(0, &+) }
        }
        let span = spans["LoadConfig"]
        #expect(span?.file == "LaunchDistributedTracingTests/LaunchProfTracerTests.swift")
        #expect(span?.line == line)
    }

    @Test func spansAreForwardedToTheServersOwnTracer() {
        let other = InMemoryTracer()
        let tracer = LaunchProfTracer(forwardingTo: other)
        let spans = recorded {
            tracer.withSpan("ConnectDatabase") { span in span.attributes["db.system"] = "postgresql" }
        }
        #expect(spans["ConnectDatabase"] != nil)
        let finished = other.finishedSpans
        #expect(finished.map(\.operationName) == ["ConnectDatabase"])
        #expect(finished.first?.attributes["db.system"]?.toSpanAttribute() == .string("postgresql"))
    }
}
