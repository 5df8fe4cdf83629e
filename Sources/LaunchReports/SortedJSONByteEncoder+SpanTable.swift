import LaunchAnalysis
import LaunchTracing

extension SortedJSONByteEncoder {
    /// Writes `spans` one a line, as the generic path writes an array of
    /// `oneLineElements`: `{"beforeFirstFrame":true,"beginNanoseconds":…}`,
    /// keys sorted.
    ///
    /// Spans are nearly all of a report, and through `Encoder` each costs a
    /// container, fifteen calls through it and a sort; here it costs its
    /// bytes. The keys are `SpanRecord`'s synthesized ones in UTF-8 order,
    /// optional ones only when present, `category` as `SpanCategory.encode(to:)`
    /// writes it, `blockedNanoseconds` and `waitSamples` as `Dictionary` writes
    /// `WaitKind` keys, `waitTargets` as `WaitTarget`'s synthesized keys.
    /// `JSONReportWriterTests` checks the result against `JSONEncoder`'s.
    func spanRecords(_ spans: [SpanRecord]) throws {
        let parent = frames.count - 1
        let (index, serial) = try open(.array, in: parent, serial: frames[parent].serial, compactElements: true)
        for span in spans {
            try beginElement(of: index, serial: serial)
            json.raw(#"{"beforeFirstFrame":"#)
            span.beforeFirstFrame ? json.raw("true") : json.raw("false")
            json.raw(#","beginNanoseconds":"#)
            json.integer(span.beginNanoseconds)
            json.raw(#","blockedNanoseconds":{"#)
            if !span.blockedNanoseconds.isEmpty {
                var first = true
                for kind in Self.waitKindsByName {
                    guard let nanoseconds = span.blockedNanoseconds[kind] else { continue }
                    if !first { json.byte(UInt8(ascii: ",")) }
                    first = false
                    json.string(kind.rawValue)
                    json.byte(UInt8(ascii: ":"))
                    json.integer(nanoseconds)
                }
            }
            json.raw(#"},"category":"#)
            json.string(span.category.description)
            json.raw(#","depth":"#)
            json.integer(span.depth)
            json.raw(#","endNanoseconds":"#)
            json.integer(span.endNanoseconds)
            json.raw(#","file":"#)
            json.string(span.file)
            if let switches = span.involuntaryContextSwitches {
                json.raw(#","involuntaryContextSwitches":"#)
                json.integer(switches)
            }
            json.raw(#","isOpen":"#)
            span.isOpen ? json.raw("true") : json.raw("false")
            json.raw(#","line":"#)
            json.integer(span.line)
            if let faults = span.majorFaults {
                json.raw(#","majorFaults":"#)
                json.integer(faults)
            }
            json.raw(#","name":"#)
            json.string(span.name)
            if let off = span.offCPUNanoseconds {
                json.raw(#","offCPUNanoseconds":"#)
                json.integer(off)
            }
            if let queued = span.runQueueNanoseconds {
                json.raw(#","runQueueNanoseconds":"#)
                json.integer(queued)
            }
            if let cpu = span.selfCPUNanoseconds {
                json.raw(#","selfCPUNanoseconds":"#)
                json.integer(cpu)
            }
            json.raw(#","selfNanoseconds":"#)
            json.integer(span.selfNanoseconds)
            if let thread = span.threadID {
                json.raw(#","threadID":"#)
                json.integer(thread)
            }
            if let estimated = span.usageIsEstimated {
                json.raw(#","usageIsEstimated":"#)
                estimated ? json.raw("true") : json.raw("false")
            }
            if let switches = span.voluntaryContextSwitches {
                json.raw(#","voluntaryContextSwitches":"#)
                json.integer(switches)
            }
            if let samples = span.waitSamples {
                json.raw(#","waitSamples":{"#)
                var first = true
                for kind in Self.waitKindsByName {
                    guard let count = samples[kind] else { continue }
                    if !first { json.byte(UInt8(ascii: ",")) }
                    first = false
                    json.string(kind.rawValue)
                    json.byte(UInt8(ascii: ":"))
                    json.integer(count)
                }
                json.byte(UInt8(ascii: "}"))
            }
            if let targets = span.waitTargets {
                json.raw(#","waitTargets":["#)
                for (position, target) in targets.enumerated() {
                    if position > 0 { json.byte(UInt8(ascii: ",")) }
                    json.raw(#"{"kind":"#)
                    json.string(target.kind.rawValue)
                    json.raw(#","name":"#)
                    json.string(target.name)
                    json.byte(UInt8(ascii: "}"))
                }
                json.byte(UInt8(ascii: "]"))
            }
            json.byte(UInt8(ascii: "}"))
            valueWritten()
        }
        try close(downTo: parent)
    }

    /// Wait kinds in the order of their names' UTF-8 bytes: the JSON keys' order.
    private static let waitKindsByName = WaitKind.allCases.sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }
}
