import LaunchAnalysis
import LaunchTracing

/// One trace file as text or JSON (`launchprof trace`): the process, its
/// milestones, and each thread's spans and instants, as offsets in
/// milliseconds from the trace's origin (see ``LaunchAnalysis/TraceOutline``).
///
/// ```swift
/// let trace = try Trace.read(from: "launch.lptrace")
/// print(TraceListing.text(trace, outline: TraceOutline(trace)))
/// ```
public enum TraceListing {
    /// The listing a person reads: spans indented two spaces per level of nesting
    /// (to ``maximumIndentDepth`` levels; deeper ones are marked `[+N]`).
    ///
    /// ```text
    /// thread 0 main (tid 4242, named MyApp): 3 spans, 1 instant
    ///     start   duration  span
    ///    12.041   31.20 ms  LoadResources  io  MyApp/main.swift:6
    ///    43.300    8.12 ms    DecodeIndex  compute  MyApp/main.swift:9
    /// ```
    public static func text(_ trace: Trace, outline: TraceOutline) -> String {
        var lines: [String] = []
        let executable = trace.executablePath.isEmpty ? "" : " " + trace.executablePath
        lines.append(
            "trace of pid \(trace.processID)\(executable): format \(trace.formatVersion), \(trace.eventCount) events"
                + (trace.droppedCount > 0 ? " (\(trace.droppedCount) dropped: a buffer was full)" : "")
                + (trace.samples.isEmpty ? "" : ", \(trace.samples.count) main-thread samples"))
        let exact = trace.spawn.map { $0.isApproximate ? " (approximate: the OS's record, to 10 ms)" : "" } ?? ""
        lines.append(
            "times are ms after \(outline.origin == .spawn ? "the spawn" + exact : "the runtime started (no spawn time in the trace)")"
        )
        for key in trace.metadata.keys.sorted() { lines.append("  \(key) = \(trace.metadata[key]!)") }

        lines.append("")
        lines.append("milestones")
        for (milestone, nanoseconds) in outline.milestones {
            lines.append(pad(start(outline.offset(nanoseconds)), 10) + "  " + milestone.id)
        }
        for thread in outline.threads {
            lines.append("")
            let name = thread.name.map { ", named \($0)" } ?? ""
            lines.append(
                "thread \(thread.index)\(thread.isMain ? " main" : "") (tid \(thread.osThreadID)\(name)): \(count(thread.spans.count, "span")), "
                    + count(thread.instants.count, "instant")
                    + (thread.dropped > 0 ? ", \(thread.dropped) events dropped" : ""))
            if !thread.spans.isEmpty {
                lines.append(pad("start", 10) + pad("duration", 11) + "  span")
                for span in thread.spans {
                    let duration =
                        Milliseconds.text(Double(span.wallNanoseconds) / 1e6) + (span.isOpen ? " (open)" : "")
                    lines.append(
                        pad(start(outline.offset(span.beginNanoseconds)), 10) + pad(duration, 11) + "  "
                            + indentation(span.depth) + span.name + "  " + span.category.description
                            + "  " + site(span.file, span.line))
                }
            }
            for instant in thread.instants {
                lines.append(
                    pad(start(outline.offset(instant.nanoseconds)), 10) + pad("instant", 11) + "  " + instant.name
                        + "  " + instant.category.description + "  " + site(instant.file, instant.line))
            }
        }
        // Names, paths and metadata came from the traced program: no control character reaches the terminal.
        return lines.map(ControlCharacters.escaped).joined(separator: "\n") + "\n"
    }

    /// The deepest nesting the listing indents: deeper spans are drawn at this
    /// depth behind a `[+N]` marker saying how many levels are not shown, so
    /// deeply nested spans cost a bounded width each, not their depth.
    public static let maximumIndentDepth = 64

    /// Two spaces per level of nesting, up to ``maximumIndentDepth``, then `[+N] `.
    static func indentation(_ depth: Int) -> String {
        let shown = min(max(0, depth), maximumIndentDepth)
        let indent = String(repeating: "  ", count: shown)
        return depth > maximumIndentDepth ? indent + "[+\(depth - maximumIndentDepth)] " : indent
    }

    /// The same as one JSON object: `origin` (`spawn` or `runtimeInit`),
    /// `process`, `metadata` (the launch options and the app's budget as
    /// objects, every other value a string), `milestones` (`name`, `ms`) and `threads`, each with
    /// `spans` (`name`, `category`, `file`, `line`, `depth`, `startMs`,
    /// `durationMs`, `open`) and `instants` (`name`, `category`, `file`, `line`,
    /// `ms`). Times are milliseconds after the origin, to the nanosecond.
    public static func json(_ trace: Trace, outline: TraceOutline) -> [UInt8] {
        let spanCount = outline.threads.reduce(0) { $0 + $1.spans.count + $1.instants.count }
        return JSONBytes.bytes(
            capacity: 4096 + 256 * spanCount
                + trace.metadata.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count * 6 }
        ) { json in
            json.raw("{\n\"formatVersion\":")
            json.integer(Int(trace.formatVersion))
            json.raw(",\n\"origin\":")
            json.string(outline.origin.id)
            json.raw(",\n\"process\":{\"pid\":")
            json.integer(Int(trace.processID))
            json.raw(",\"executable\":")
            json.string(trace.executablePath)
            json.raw(",\"events\":")
            json.integer(trace.eventCount)
            json.raw(",\"dropped\":")
            json.integer(trace.droppedCount)
            json.raw(",\"samples\":")
            json.integer(trace.samples.count)
            json.raw("},\n\"metadata\":{")
            for (index, key) in trace.metadata.keys.sorted().enumerated() {
                if index > 0 { json.byte(UInt8(ascii: ",")) }
                json.string(key)
                json.byte(UInt8(ascii: ":"))
                // The launch options and the budget are objects, as in a report: never JSON text in a string.
                if let object = metadataObject(key, trace.metadata[key]!) {
                    json.rawJSON(object)
                } else {
                    json.string(trace.metadata[key]!)
                }
            }
            json.raw("},\n\"milestones\":[")
            for (index, (milestone, nanoseconds)) in outline.milestones.enumerated() {
                json.raw(index > 0 ? ",\n{\"name\":" : "\n{\"name\":")
                json.string(milestone.id)
                json.raw(",\"ms\":")
                offset(&json, nanoseconds, outline)
                json.byte(UInt8(ascii: "}"))
            }
            json.raw("],\n\"threads\":[")
            for (index, thread) in outline.threads.enumerated() {
                json.raw(index > 0 ? ",\n{\"index\":" : "\n{\"index\":")
                json.integer(thread.index)
                json.raw(",\"tid\":")
                json.integer(thread.osThreadID)
                if let name = thread.name {
                    json.raw(",\"name\":")
                    json.string(name)
                }
                json.raw(thread.isMain ? ",\"main\":true,\"dropped\":" : ",\"main\":false,\"dropped\":")
                json.integer(thread.dropped)
                json.raw(",\"spans\":[")
                for (position, span) in thread.spans.enumerated() {
                    event(&json, first: position == 0, span.name, span.category, span.file, span.line)
                    json.raw(",\"depth\":")
                    json.integer(span.depth)
                    json.raw(",\"startMs\":")
                    offset(&json, span.beginNanoseconds, outline)
                    json.raw(",\"durationMs\":")
                    json.milliseconds(span.wallNanoseconds)
                    json.raw(span.isOpen ? ",\"open\":true}" : ",\"open\":false}")
                }
                json.raw("],\"instants\":[")
                for (position, instant) in thread.instants.enumerated() {
                    event(&json, first: position == 0, instant.name, instant.category, instant.file, instant.line)
                    json.raw(",\"ms\":")
                    offset(&json, instant.nanoseconds, outline)
                    json.byte(UInt8(ascii: "}"))
                }
                json.raw("]}")
            }
            json.raw("\n]}\n")
        }
    }

    /// The JSON object a metadata value holds, re-encoded by its own type, when
    /// the key is one of the harness's JSON values and the value decodes.
    private static func metadataObject(_ key: String, _ value: String) -> String? {
        switch key {
        case LaunchContract.MetadataKey.launchOptions: return (try? LaunchOptions(json: value))?.json
        case LaunchContract.MetadataKey.budget: return (try? LaunchBudget(json: value))?.json
        default: return nil
        }
    }

    private static func offset(_ json: inout JSONBytes, _ nanoseconds: UInt64, _ outline: TraceOutline) {
        if nanoseconds >= outline.originNanoseconds {
            json.milliseconds(nanoseconds - outline.originNanoseconds)
        } else {
            json.byte(UInt8(ascii: "-"))
            json.milliseconds(outline.originNanoseconds - nanoseconds)
        }
    }

    /// Opens a span's or an instant's object: its name, category and call site.
    private static func event(
        _ json: inout JSONBytes, first: Bool, _ name: String, _ category: SpanCategory, _ file: String, _ line: Int
    ) {
        json.raw(first ? "\n{\"name\":" : ",\n{\"name\":")
        json.string(name)
        json.raw(",\"category\":")
        json.string(category.description)
        json.raw(",\"file\":")
        json.string(file)
        json.raw(",\"line\":")
        json.integer(line)
    }

    private static func start(_ milliseconds: Double) -> String { Milliseconds.fixed(milliseconds, decimals: 3) }

    private static func site(_ file: String, _ line: Int) -> String { file.isEmpty ? "" : "\(file):\(line)" }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
