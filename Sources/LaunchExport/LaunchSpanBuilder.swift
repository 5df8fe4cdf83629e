import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing

/// Turns one run of a report into its spans (see
/// ``OTLPTraceRequest/init(report:serviceName:identifiers:)``).
struct LaunchSpanBuilder {
    /// `launchprof.span.blocked.<kind>_ns`, made once per kind.
    static let blockedKeys: [WaitKind: String] = Dictionary(
        uniqueKeysWithValues: WaitKind.allCases.map { ($0, "launchprof.span.blocked.\($0.rawValue)_ns") })

    let findings: [Finding]
    let matcher: FindingMatcher
    /// The names findings are about: only spans of these names are looked up.
    let findingSpans: Set<String>
    /// For runs without an anchor (reports written before runs had one): the
    /// report's `createdAt` taken as the latest monotonic time it holds.
    let fallbackAnchor: WallClockAnchor
    /// Where the next run without any monotonic time is placed, counting back from `createdAt`.
    var fallbackCursor: UInt64

    init(report: MeasurementReport) {
        findings = report.profile.findings
        matcher = FindingMatcher(report.profile.findings)
        findingSpans = Set(report.profile.findings.map(\.span))
        let createdAt = Self.unixNanoseconds(iso8601: report.createdAt) ?? 0
        let latest =
            report.runs.compactMap { run in
                run.timeline.map { timeline in
                    max(
                        timeline.milestones.values.max() ?? 0,
                        timeline.mainThreadSpans.map(\.endNanoseconds).max() ?? 0,
                        timeline.otherSpans.map(\.endNanoseconds).max() ?? 0)
                }
            }.max() ?? 0
        fallbackAnchor = WallClockAnchor(monotonicNanoseconds: latest, unixNanoseconds: createdAt)
        fallbackCursor = createdAt
    }

    /// Appends the spans of `run`: its root, its phases, the app's spans.
    mutating func append(_ run: RunRecord, to spans: inout [OTLPSpan], identifiers: inout OTLPIdentifiers) {
        let timeline = run.timeline
        let traceID = identifiers.traceID()
        let rootID = identifiers.spanID()
        // The launch's start and length on its own clock.
        let start =
            timeline.flatMap { $0.hotLaunchBeginNanoseconds ?? $0.milestones[.spawn] ?? $0.milestones.values.min() }
            ?? run.wallClock?.monotonicNanoseconds
        let length =
            timeline?.phases[.timeToFirstFrame] ?? timeline?.phases[.timeToBackgroundReady]
            ?? (run.timeToReadyMs ?? run.timeToExitMs).map { UInt64(saturating: ($0 * 1e6).rounded()) } ?? 0
        let unix: (UInt64) -> UInt64
        if let anchor = run.wallClock {
            unix = { anchor.unixNanoseconds(atMonotonic: $0) }
        } else if start != nil {
            let anchor = fallbackAnchor
            unix = { anchor.unixNanoseconds(atMonotonic: $0) }
        } else {
            // Nothing on the monotonic clock: placed back to back before `createdAt`.
            let begin = fallbackCursor.subtractingClamped(length)
            fallbackCursor = begin
            unix = { _ in begin }
        }
        let rootStart = start ?? 0

        var rootAttributes: [OTLPAttribute] = [
            OTLPAttribute("launchprof.run.index", .int(Int64(run.index))),
            OTLPAttribute("launchprof.run.warmup", .bool(run.isWarmup)),
            OTLPAttribute("launchprof.run.status", .string(run.status.rawValue)),
        ]
        if let ms = run.timeToReadyMs {
            rootAttributes.append(OTLPAttribute("launchprof.time_to_ready_ms", .double(ms)))
        }
        if let ms = run.timeToExitMs { rootAttributes.append(OTLPAttribute("launchprof.time_to_exit_ms", .double(ms))) }
        if let code = run.exitCode { rootAttributes.append(OTLPAttribute("process.exit.code", .int(Int64(code)))) }
        if let signal = run.signal { rootAttributes.append(OTLPAttribute("launchprof.signal", .int(Int64(signal)))) }
        if let timeline {
            rootAttributes.append(OTLPAttribute("launchprof.launch.index", .int(Int64(timeline.launchIndex))))
            rootAttributes.append(OTLPAttribute("launchprof.launch.background", .bool(timeline.isBackground)))
            if timeline.launchIndex == 0 {
                rootAttributes.append(OTLPAttribute("launchprof.spawn.approximate", .bool(timeline.spawnIsApproximate)))
            }
        }
        let rootIndex = spans.count
        spans.append(
            OTLPSpan(
                traceID: traceID, spanID: rootID, parentSpanID: nil, name: "launch",
                startUnixNanoseconds: unix(rootStart), endUnixNanoseconds: unix(rootStart &+ length),
                attributes: rootAttributes,
                status: run.status == .ok ? nil : OTLPStatus(code: .error, message: run.problemText)))
        guard let timeline else { return }

        // Phases: the launch hooks are two of them.
        var phaseSpans: [(from: UInt64, to: UInt64, index: Int)] = []
        for (phase, from, to) in Phase.consecutive {
            guard let begin = timeline.milestones[from], let end = timeline.milestones[to], end >= begin,
                begin >= rootStart
            else { continue }
            var attributes = [OTLPAttribute("launchprof.phase", .string(phase.rawValue))]
            if phase == .willFinishLaunching || phase == .didFinishLaunching {
                attributes.append(OTLPAttribute("launchprof.hook", .string(phase.rawValue)))
            }
            phaseSpans.append((begin, end, spans.count))
            spans.append(
                OTLPSpan(
                    traceID: traceID, spanID: identifiers.spanID(), parentSpanID: rootID, name: phase.rawValue,
                    startUnixNanoseconds: unix(begin), endUnixNanoseconds: unix(end), attributes: attributes))
        }

        // The app's spans, nested per thread by their depth.
        let threads = Dictionary(timeline.threads.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var attached = Set<Int>()
        for (records, onMain) in [(timeline.mainThreadSpans, true), (timeline.otherSpans, false)] {
            var stacks: [UInt64?: [OTLPSpanID]] = [:]
            for record in records {
                var stack = stacks[record.threadID] ?? []
                if stack.count > record.depth { stack.removeLast(stack.count - record.depth) }
                let parent: OTLPSpanID
                if let enclosing = stack.last, record.depth > 0 {
                    parent = enclosing
                } else if onMain,
                    let phase = phaseSpans.last(where: {
                        $0.from <= record.beginNanoseconds && record.beginNanoseconds < $0.to
                    })
                {
                    parent = spans[phase.index].spanID
                } else {
                    parent = rootID
                }
                let id = identifiers.spanID()
                stack.append(id)
                stacks[record.threadID] = stack
                var span = OTLPSpan(
                    traceID: traceID, spanID: id, parentSpanID: parent, name: record.name,
                    startUnixNanoseconds: unix(record.beginNanoseconds),
                    endUnixNanoseconds: unix(record.endNanoseconds),
                    attributes: Self.attributes(of: record, thread: record.threadID.flatMap { threads[$0] }))
                for finding in findingSpans.contains(record.name) ? matcher.findings(for: record) : []
                where attached.insert(finding).inserted {
                    span.events.append(Self.event(findings[finding], at: span.startUnixNanoseconds))
                }
                spans.append(span)
            }
        }
        // Findings about a phase or hook go on its span; those about the launch on the root.
        for (index, finding) in findings.enumerated() where !attached.contains(index) && finding.file == nil {
            let target = phaseSpans.first { spans[$0.index].name == finding.span }?.index ?? rootIndex
            spans[target].events.append(Self.event(finding, at: spans[target].startUnixNanoseconds))
        }
    }

    /// A span's thread, source location, category, CPU and blocked time.
    static func attributes(of record: SpanRecord, thread: TimelineThread?) -> [OTLPAttribute] {
        var attributes: [OTLPAttribute] = []
        attributes.reserveCapacity(14)
        if let thread {
            attributes.append(OTLPAttribute("thread.id", .int(Int64(bitPattern: thread.id))))
            if let name = thread.name ?? (thread.isMain ? "main" : nil) {
                attributes.append(OTLPAttribute("thread.name", .string(name)))
            }
        }
        attributes.append(OTLPAttribute("code.file.path", .string(record.file)))
        attributes.append(OTLPAttribute("code.line.number", .int(Int64(record.line))))
        attributes.append(OTLPAttribute("launchprof.span.category", .string(record.category.description)))
        attributes.append(OTLPAttribute("launchprof.span.self_time_ns", .int(Int64(clamping: record.selfNanoseconds))))
        if let cpu = record.selfCPUNanoseconds {
            attributes.append(OTLPAttribute("launchprof.span.cpu_time_ns", .int(Int64(clamping: cpu))))
        }
        let blocked = record.blockedNanoseconds.values.reduce(0, +)
        if blocked > 0 || record.selfCPUNanoseconds != nil {
            attributes.append(OTLPAttribute("launchprof.span.blocked_time_ns", .int(Int64(clamping: blocked))))
        }
        for kind in WaitKind.allCases {
            if let nanoseconds = record.blockedNanoseconds[kind] {
                attributes.append(OTLPAttribute(blockedKeys[kind]!, .int(Int64(clamping: nanoseconds))))
            }
        }
        if let switches = record.voluntaryContextSwitches {
            attributes.append(
                OTLPAttribute("launchprof.span.context_switches.voluntary", .int(Int64(clamping: switches))))
        }
        if let switches = record.involuntaryContextSwitches {
            attributes.append(
                OTLPAttribute("launchprof.span.context_switches.involuntary", .int(Int64(clamping: switches))))
        }
        if let faults = record.majorFaults {
            attributes.append(OTLPAttribute("launchprof.span.major_faults", .int(Int64(clamping: faults))))
        }
        attributes.append(OTLPAttribute("launchprof.span.before_first_frame", .bool(record.beforeFirstFrame)))
        if record.isOpen { attributes.append(OTLPAttribute("launchprof.span.open", .bool(true))) }
        return attributes
    }

    /// A finding as a span event named by its rule.
    static func event(_ finding: Finding, at time: UInt64) -> OTLPEvent {
        var attributes = [
            OTLPAttribute("launchprof.finding.rule", .string(finding.rule.id)),
            OTLPAttribute("launchprof.finding.severity", .string(finding.severity.rawValue)),
            OTLPAttribute("launchprof.finding.span", .string(finding.span)),
            OTLPAttribute("launchprof.finding.median_ms", .double(finding.medianMs)),
            OTLPAttribute("launchprof.finding.span_median_ms", .double(finding.spanMedianMs)),
            OTLPAttribute("launchprof.finding.runs_appeared", .int(Int64(finding.runsAppeared))),
            OTLPAttribute("launchprof.finding.runs_total", .int(Int64(finding.runsTotal))),
            OTLPAttribute("launchprof.finding.budget_share", .double(finding.budgetShare)),
            OTLPAttribute("launchprof.finding.recommendation", .string(finding.recommendation)),
        ]
        if let file = finding.file, let line = finding.line {
            attributes.append(OTLPAttribute("code.file.path", .string(file)))
            attributes.append(OTLPAttribute("code.line.number", .int(Int64(line))))
        }
        return OTLPEvent(name: finding.rule.id, unixNanoseconds: time, attributes: attributes)
    }

    /// `2026-11-22T22:41:18Z` as Unix nanoseconds.
    static func unixNanoseconds(iso8601 text: String) -> UInt64? {
        let formatter = ISO8601DateFormatter()
        guard let date = formatter.date(from: text), date.timeIntervalSince1970 >= 0 else { return nil }
        return UInt64(saturating: (date.timeIntervalSince1970 * 1e9).rounded(.down))
    }
}
