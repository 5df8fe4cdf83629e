import LaunchAnalysis
import LaunchTracing

/// One drawn launch as the page's script reads it: every span of the run in
/// columnar arrays (one array per field, names and files through a string
/// table), so a launch of 100,000 spans costs a few megabytes of page, not one
/// element per span. The script draws from it on a `<canvas>`, merging spans
/// narrower than a pixel into one bar with a count, so a frame costs the same
/// whatever the launch holds; search reads every span, drawn or not.
///
/// `side` is the prefix of the findings' ids (`m`, `b`, `h`). Fields (arrays are indexed by span, in ``TimelineLayout/placed`` order):
/// - `b`: begin, nanoseconds after the previous span's begin (the first: after the origin); `d`: wall, nanoseconds.
/// - `t`: track (the lanes' rows, top to bottom); `nm`, `fl`, `cat`: string-table indexes of name, file, category; `ln`: line.
/// - `sf`: self time; `cp`: self CPU time (-1: not read); `q`: run-queue wait, nanoseconds.
/// - `bk`: blocked time, flat triples (span, index into `wk`, nanoseconds), largest first per span.
/// - `fg`: flat pairs (span, bits): 1 still open, 2 after the first frame, 4 CPU/run-queue estimated, 8 blocked split estimated.
/// - `cx`: flat pairs (span, string index): a counters line (context switches, page faults).
/// - `fx`: flat pairs (span, worst finding's severity: 1 info, 2 warning, 3 critical).
/// - `fid`, `fsp`, `ft`: each finding's id (`m0`), its spans, its text for the details panel.
/// - `gp`: the main thread's sampled gaps between spans (``SampledGap``): `[begin ms, end ms, [[kind, samples]…]]`,
///   kinds as the script's (0 running or runnable, 2 disk, 3 network, 4 lock, 5 sleep, 6 other);
///   `sm`: 1 when the sampler read the main thread in this launch at all.
struct TimelineData {
    /// The wait kinds, in the order `bk` refers to them.
    static let waitKinds = WaitKind.allCases.map(\.rawValue)

    /// The JSON text, safe inside a `<script type="application/json">` element.
    let json: String

    /// Builds the data of `layout` (of `timeline`), with `findings` on the main thread's spans and ids prefixed by `side`.
    init(
        _ layout: TimelineLayout, timeline: LaunchTimeline, findings: [Finding], side: String,
        axisEndMs: Double, judgedMs: Double?, budgetMs: Double?
    ) {
        var strings: [String] = []
        var stringIndex: [String: Int] = [:]
        func intern(_ text: String) -> Int {
            if let index = stringIndex[text] { return index }
            stringIndex[text] = strings.count
            strings.append(text)
            return strings.count - 1
        }
        var trackStart: [Int] = []
        var tracks = 0
        for lane in layout.lanes {
            trackStart.append(tracks)
            tracks += lane.rows
        }
        let waitIndex = Dictionary(uniqueKeysWithValues: WaitKind.allCases.enumerated().map { ($1, $0) })
        let matcher = FindingMatcher(findings)
        var begin = Columns()
        var wall = Columns()
        var track = Columns()
        var name = Columns()
        var file = Columns()
        var line = Columns()
        var category = Columns()
        var own = Columns()
        var cpu = Columns()
        var queue = Columns()
        var blocked = Columns()
        var flags = Columns()
        var counters = Columns()
        var worst = Columns()
        var spansOf: [[Int]] = Array(repeating: [], count: findings.count)
        var readings = Array(repeating: false, count: layout.lanes.count)
        var previous = layout.originNanoseconds
        for (index, placed) in layout.placed.enumerated() {
            let span = placed.span
            let start = max(span.beginNanoseconds, layout.originNanoseconds)
            begin.add(Int64(bitPattern: start &- previous))
            previous = start
            wall.add(span.endNanoseconds.subtractingClamped(start))
            track.add(trackStart[placed.lane] + placed.row)
            name.add(intern(span.name))
            file.add(intern(span.file))
            line.add(span.line)
            category.add(intern(span.category.description))
            own.add(span.selfNanoseconds)
            cpu.add(span.selfCPUNanoseconds.map { Int64(min($0, span.selfNanoseconds)) } ?? -1)
            queue.add(span.runQueueNanoseconds ?? 0)
            let waits = span.blockedNanoseconds.filter { $0.value > 0 }
                .sorted { ($0.value, $0.key.rawValue) > ($1.value, $1.key.rawValue) }
            for (kind, nanoseconds) in waits {
                blocked.add(index)
                blocked.add(waitIndex[kind] ?? 0)
                blocked.add(nanoseconds)
            }
            if span.selfCPUNanoseconds != nil || !waits.isEmpty { readings[placed.lane] = true }
            var bits = span.isOpen ? 1 : 0
            if !span.beforeFirstFrame { bits |= 2 }
            if span.usageIsEstimated == true { bits |= 4 }
            if span.offCPUNanoseconds == nil || waits.count > 1 { bits |= waits.isEmpty ? 0 : 8 }
            if bits != 0 {
                flags.add(index)
                flags.add(bits)
            }
            if let text = Self.countersLine(span) {
                counters.add(index)
                counters.add(intern(text))
            }
            if placed.lane == 0 {
                let matched = matcher.findings(for: span)
                for finding in matched { spansOf[finding].append(index) }
                if let severity = matched.map({ findings[$0].severity }).max() {
                    worst.add(index)
                    worst.add(severity == .critical ? 3 : severity == .warning ? 2 : 1)
                }
            }
        }

        var out = "{\"v\":1,\"side\":" + Self.quoted(side) + ",\"end\":" + HTMLReport.coordinate3(axisEndMs)
        out += ",\"view\":" + (judgedMs.map(HTMLReport.coordinate3) ?? "null")
        if let budgetMs {
            out +=
                ",\"budget\":" + HTMLReport.coordinate3(budgetMs) + ",\"budgetText\":"
                + Self.quoted("budget " + ms(budgetMs))
        }
        out += ",\"lanes\":["
        out += layout.lanes.enumerated().map { index, lane in
            "[" + Self.quoted(lane.label) + ",\(lane.rows),\(readings[index] ? 1 : 0)]"
        }.joined(separator: ",")
        out += "],\"phases\":["
        var phases: [String] = []
        for bound in Phase.consecutive {
            guard let from = timeline.milestones[bound.from], let to = timeline.milestones[bound.to], to >= from else {
                continue
            }
            let duration = timeline.milliseconds(bound.phase) ?? Double(to - from) / 1_000_000
            phases.append(
                "[" + Self.quoted(bound.phase.rawValue) + "," + HTMLReport.coordinate3(layout.milliseconds(from)) + ","
                    + HTMLReport.coordinate3(layout.milliseconds(to)) + "," + Self.quoted(ms(duration)) + "]")
        }
        out += phases.joined(separator: ",") + "],\"marks\":["
        let ordered = timeline.milestones.sorted { ($0.value, $0.key.rawValue) < ($1.value, $1.key.rawValue) }
        out += ordered.map { milestone, nanoseconds in
            let frame = milestone == .firstFrame || milestone == .fullyDrawn
            return "[" + Self.quoted(milestone.id) + "," + HTMLReport.coordinate3(layout.milliseconds(nanoseconds))
                + ",\(frame ? 1 : 0)]"
        }.joined(separator: ",")
        out += "],\"wk\":[" + Self.waitKinds.map(Self.quoted).joined(separator: ",") + "]"
        out += ",\"n\":\(layout.placed.count)"
        for (key, column) in [
            ("b", begin), ("d", wall), ("t", track), ("nm", name), ("fl", file), ("ln", line), ("cat", category),
            ("sf", own), ("cp", cpu), ("q", queue), ("bk", blocked), ("fg", flags), ("cx", counters), ("fx", worst),
        ] {
            out += ",\"\(key)\":[" + column.text + "]"
        }
        out += ",\"fid\":[" + findings.indices.map { Self.quoted("\(side)\($0)") }.joined(separator: ",") + "]"
        out +=
            ",\"fsp\":[" + spansOf.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }.joined(separator: ",")
        out += "],\"ft\":[" + findings.map { Self.quoted(Self.findingText($0)) }.joined(separator: ",") + "]"
        out += ",\"gp\":[" + (timeline.mainThreadGaps ?? []).map { Self.gap($0, layout) }.joined(separator: ",") + "]"
        out += ",\"sm\":\(timeline.sampleCount > 0 ? 1 : 0)"
        out += ",\"str\":[" + strings.map(Self.quoted).joined(separator: ",") + "]}"
        json = out
    }

    /// The script's kind index for a wait the sampler saw (as the span bars colour blocked time).
    static func laneKind(_ kind: WaitKind) -> Int {
        switch kind {
        case .disk: return 2
        case .network: return 3
        case .lock: return 4
        case .sleep: return 5
        case .process, .ipc, .event, .other, .unknown: return 6
        }
    }

    /// One sampled gap: `[begin ms, end ms, [[kind, samples]…]]`, running or runnable (kind 0) first.
    static func gap(_ gap: SampledGap, _ layout: TimelineLayout) -> String {
        var counts: [Int: Int] = [:]
        if gap.runningSamples > 0 { counts[0] = gap.runningSamples }
        for (kind, samples) in gap.waitSamples where samples > 0 { counts[laneKind(kind), default: 0] += samples }
        let begin = max(gap.beginNanoseconds, layout.originNanoseconds)
        let end = max(gap.endNanoseconds, begin)
        return "[" + HTMLReport.coordinate3(layout.milliseconds(begin)) + ","
            + HTMLReport.coordinate3(layout.milliseconds(end)) + ",["
            + counts.sorted { $0.key < $1.key }.map { "[\($0.key),\($0.value)]" }.joined(separator: ",") + "]]"
    }

    /// `2 voluntary and 5 involuntary context switches, 3 major page faults`, or nil when there is nothing to say.
    static func countersLine(_ span: SpanRecord) -> String? {
        var switches: [String] = []
        if let count = span.voluntaryContextSwitches, count > 0 { switches.append("\(count) voluntary") }
        if let count = span.involuntaryContextSwitches, count > 0 { switches.append("\(count) involuntary") }
        var counters = switches.isEmpty ? [] : [switches.joined(separator: " and ") + " context switches"]
        if let faults = span.majorFaults, faults > 0 { counters.append("\(faults) major page faults") }
        return counters.isEmpty ? nil : counters.joined(separator: ", ")
    }

    /// A finding as the details panel lists it under its span.
    static func findingText(_ finding: Finding) -> String {
        "\(finding.severity.rawValue): \(finding.rule.id), \(ms(finding.medianMs)) median in "
            + "\(finding.runsAppeared)/\(finding.runsTotal) runs\n" + finding.recommendation
    }

    /// `text` as a JSON string that cannot end its `<script>` element (`<`, `>`, `&` and the line separators escaped).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// One column of integers, written as they come.
    struct Columns {
        var text = ""
        var isEmpty = true
        mutating func add(_ value: Int) { append(String(value)) }
        mutating func add(_ value: Int64) { append(String(value)) }
        mutating func add(_ value: UInt64) { append(String(value)) }
        private mutating func append(_ value: String) {
            if !isEmpty { text += "," }
            text += value
            isEmpty = false
        }
    }
}
