/// Why a comparison came out as it did: the advisor's findings and the
/// main-thread spans that are new in the head, gone from it, or moved most.
public struct FindingsDiff: Sendable, Equatable, Codable {
    /// One finding on either side, with its cost on each (nil where it is absent).
    public struct FindingChange: Sendable, Equatable, Codable {
        public var rule: AdvisorRule
        public var span: String
        public var file: String?
        public var line: Int?
        /// The finding's median cost in the base, milliseconds; nil when new.
        public var baseMs: Double?
        /// The finding's median cost in the head, milliseconds; nil when gone.
        public var headMs: Double?
        /// The head's finding's recommendation (the base's when gone).
        public var recommendation: String
        /// The `#filePath` of the call site, when the trace recorded it.
        public var filePath: String? = nil
        /// The base's line, when the call site moved to ``line`` (the code above it changed).
        public var baseLine: Int? = nil

        /// True when its cost moved enough to explain anything (see ``FindingsDiff/moved(from:to:)``);
        /// a new or gone finding always has.
        public var hasMoved: Bool { FindingsDiff.moved(from: baseMs, to: headMs) }

        /// `Fetch (App.swift:42)`, or the span name alone when the site is unknown.
        public var place: String { file == nil ? span : "\(span) (\(location))" }

        /// `App.swift:42`, or the span name when the site is unknown.
        public var location: String {
            guard let file, let line else { return span }
            return SourceSite.text(file: file, line: line)
        }
    }

    /// One main-thread span before the first frame, by call site, with its median wall time on each side.
    public struct SpanChange: Sendable, Equatable, Codable {
        public var name: String
        public var file: String
        public var line: Int
        public var baseMs: Double?
        public var headMs: Double?
        /// The `#filePath` of the call site, when either side's traces recorded it
        /// (the head's first): CI annotations find the file in the checkout from it.
        public var filePath: String? = nil
        /// The base's line, when the call site moved to ``line`` (the code above it changed).
        public var baseLine: Int? = nil

        /// The interval of the head − base shift of the span's wall time per launch (the
        /// Moses interval around the Hodges–Lehmann shift, a launch where the span did not
        /// run counting 0), milliseconds, at the level ``FindingsDiff/spanInterval`` states;
        /// infinite bounds when the launches are too few for the level. Nil in reports written before.
        public var lowerMs: Double? = nil
        /// The interval's upper bound (see ``lowerMs``).
        public var upperMs: Double? = nil
        /// True when the launches are too few for any interval at the level (nothing is excluded:
        /// ``lowerMs`` and ``upperMs`` are then nil, and the change is within the noise).
        public var isUnbounded: Bool? = nil

        /// Head minus base, milliseconds (a missing side counts as 0).
        public var deltaMs: Double { (headMs ?? 0) - (baseMs ?? 0) }

        /// True when the interval holds 0: the span's change is within the launches' noise.
        /// (An interval that excludes 0 says the span's time changed, not that its code did:
        /// a span that waits on a contended CPU or lock slows with no change of its own.)
        public var isWithinNoise: Bool {
            if isUnbounded == true { return true }
            guard let lowerMs, let upperMs else { return false }
            return !(lowerMs > 0 || upperMs < 0)
        }

        /// The smallest change the interval admits, milliseconds (0 when it holds 0): how
        /// strong the evidence is, what the spans are ordered by.
        public var evidenceMs: Double {
            guard let lowerMs, let upperMs else { return 0 }
            return lowerMs > 0 ? lowerMs : upperMs < 0 ? -upperMs : 0
        }

        /// True when it moved enough to explain anything (see ``FindingsDiff/moved(from:to:)``).
        public var hasMoved: Bool { FindingsDiff.moved(from: baseMs, to: headMs) }
    }

    /// How the spans' intervals were taken: their level, over how many spans, adjusted how.
    public struct SpanIntervalMethod: Sendable, Equatable, Codable {
        /// The simultaneous confidence level, 0.95.
        public var confidence: Double
        /// How many call sites were compared (the family the level holds over).
        public var spansCompared: Int
        /// `bonferroni`: each interval at 1 − (1 − confidence) / spansCompared, so all hold together.
        public var adjustment: String
        /// Launches of the base and of the head the per-launch values come from.
        public var baseLaunches: Int
        public var headLaunches: Int

        /// `95 % intervals, simultaneous over the 412 spans compared (Bonferroni), from 10 and 10 launches`.
        public var text: String {
            "\(Int((confidence * 100).rounded())) % intervals of each span's shift, simultaneous over the "
                + "\(spansCompared) span(s) compared (Bonferroni), from \(baseLaunches) base and \(headLaunches) head launches"
        }
    }

    /// Whether a cost moved from `base` to `head` (milliseconds, nil where absent):
    /// a side absent is a move; otherwise the change must reach 1 % of the base
    /// and 0.05 ms, so a finding at `40.0 → 40.0 ms` is not listed as moved.
    public static func moved(from base: Double?, to head: Double?) -> Bool {
        guard let base, let head else { return base != nil || head != nil }
        let change = abs(head - base)
        return change >= 0.05 && change >= 0.01 * abs(base)
    }

    /// Findings of the head that the base did not have.
    public var new: [FindingChange]
    /// Findings of the base that the head no longer has.
    public var gone: [FindingChange]
    /// Findings on both sides whose cost changed most (by at least 1 % and
    /// 0.05 ms: ``moved(from:to:)``), largest change first. Renderers show
    /// only those that ``FindingChange/hasMoved`` (a report written before the
    /// rule may hold others).
    public var moved: [FindingChange]
    /// The spans whose median wall time changed most (new and gone ones
    /// included), each with its interval, ordered by the evidence: the surest
    /// changes first, those within the noise last.
    public var spans: [SpanChange]

    /// How the spans' intervals were taken; nil in reports written before spans had them.
    public var spanInterval: SpanIntervalMethod? = nil

    /// How many moved findings and spans are kept.
    public static let limit = 5

    /// The simultaneous level of the spans' intervals.
    public static let spanConfidence = 0.95

    /// The differences between the base's and the head's findings and spans
    /// (every main-thread span before the first frame of their successful runs).
    public init(base baseReport: MeasurementReport, head headReport: MeasurementReport) {
        let base = baseReport.profile
        let head = headReport.profile
        func key(_ finding: Finding) -> String {
            "\(finding.rule.id)|\(finding.span)|\(finding.file ?? ""):\(finding.line ?? 0)"
        }
        let baseByKey = Dictionary(base.findings.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
        let headByKey = Dictionary(head.findings.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
        func change(_ finding: Finding, base: Finding?, head: Finding?) -> FindingChange {
            FindingChange(
                rule: finding.rule, span: finding.span, file: finding.file, line: finding.line, baseMs: base?.medianMs,
                headMs: head?.medianMs, recommendation: finding.recommendation, filePath: finding.filePath)
        }
        // A finding whose call site only moved (same rule, span and file) is the same finding.
        func site(_ finding: Finding) -> Site {
            Site(name: "\(finding.rule.id)|\(finding.span)", file: finding.file ?? "", line: finding.line ?? 0)
        }
        let baseBySite = Dictionary(base.findings.map { (site($0), $0) }, uniquingKeysWith: { a, _ in a })
        let movedFindings = Self.movedLines(
            base: Set(base.findings.filter { $0.file != nil }.map(site)),
            head: Set(head.findings.filter { $0.file != nil }.map(site)))
        func before(_ finding: Finding) -> Finding? {
            baseByKey[key(finding)] ?? movedFindings[site(finding)].flatMap { baseBySite[$0] }
        }
        let continued = Set(movedFindings.values)
        new = head.findings.filter { before($0) == nil }.map { change($0, base: nil, head: $0) }
        gone = base.findings.filter { headByKey[key($0)] == nil && !continued.contains(site($0)) }
            .map { change($0, base: $0, head: nil) }
        var both: [FindingChange] = []
        for finding in head.findings {
            guard let before = before(finding), Self.moved(from: before.medianMs, to: finding.medianMs) else {
                continue
            }
            var moved = change(finding, base: before, head: finding)
            if before.line != finding.line { moved.baseLine = before.line }
            both.append(moved)
        }
        func size(_ change: FindingChange) -> Double { abs((change.headMs ?? 0) - (change.baseMs ?? 0)) }
        moved = Array(both.sorted { size($0) > size($1) }.prefix(Self.limit))

        func perLaunch(_ report: MeasurementReport) -> [String: (
            name: String, file: String, line: Int, values: [Double]
        )] {
            let timelines = report.successfulRuns.compactMap(\.timeline)
            let runs = timelines.count
            var result: [String: (String, String, Int, [Double])] = [:]
            for site in SpanSite.collect(timelines) {
                let values = site.wall + Array(repeating: 0, count: max(0, runs - site.wall.count))
                result[SpanRecord.key(name: site.name, file: site.file, line: site.line)] = (
                    site.name, site.file, site.line, values
                )
            }
            return result
        }
        let baseSites = perLaunch(baseReport)
        let headSites = perLaunch(headReport)
        let baseRuns = baseReport.successfulRuns.filter { $0.timeline != nil }.count
        let headRuns = headReport.successfulRuns.filter { $0.timeline != nil }.count
        var spans: [String: SpanChange] = [:]
        for (key, site) in baseSites {
            spans[key] = SpanChange(
                name: site.name, file: site.file, line: site.line, baseMs: Summary.median(site.values), headMs: nil)
        }
        // A span whose line only moved (unique in its file, else the nearest) continues the base's.
        let movedSpans = Self.movedLines(
            base: Set(baseSites.values.map { Site(name: $0.name, file: $0.file, line: $0.line) }),
            head: Set(headSites.values.map { Site(name: $0.name, file: $0.file, line: $0.line) }))
        var baseKeys: [String: String] = [:]  // a moved span's key → the base's
        for (key, site) in headSites {
            var change =
                spans[key] ?? SpanChange(name: site.name, file: site.file, line: site.line, baseMs: nil, headMs: nil)
            if let from = movedSpans[Site(name: site.name, file: site.file, line: site.line)] {
                let baseKey = SpanRecord.key(name: from.name, file: from.file, line: from.line)
                change.baseMs = spans.removeValue(forKey: baseKey)?.baseMs
                change.baseLine = from.line
                baseKeys[key] = baseKey
            }
            change.headMs = Summary.median(site.values)
            spans[key] = change
        }
        let filePaths = (headReport.successfulRuns + baseReport.successfulRuns).compactMap(\.timeline)
            .reduce(into: [String: String]()) { $0.merge($1.filePaths) { first, _ in first } }
        for (key, span) in spans { spans[key]?.filePath = filePaths[span.file] }
        // Intervals for the spans that moved most (at most a few hundred: the rest could not come first),
        // each at the Bonferroni level over every span compared, so the listed ones hold together.
        let compared = spans.count
        let alpha = (1 - Self.spanConfidence) / 2 / Double(max(1, compared))
        var candidates = spans.filter(\.value.hasMoved).map(\.key)
            .sorted { (abs(spans[$0]!.deltaMs), $1) > (abs(spans[$1]!.deltaMs), $0) }
        candidates = Array(candidates.prefix(400))
        if baseRuns > 0, headRuns > 0 {
            for key in candidates {
                let base = baseSites[baseKeys[key] ?? key]?.values ?? Array(repeating: 0, count: baseRuns)
                let head = headSites[key]?.values ?? Array(repeating: 0, count: headRuns)
                let interval = RankStatistics.mosesInterval(head: head, base: base, alpha: alpha)
                if interval.lower.isFinite, interval.upper.isFinite {
                    spans[key]?.lowerMs = interval.lower
                    spans[key]?.upperMs = interval.upper
                } else {
                    spans[key]?.isUnbounded = true
                }
            }
            spanInterval = SpanIntervalMethod(
                confidence: Self.spanConfidence, spansCompared: compared, adjustment: "bonferroni",
                baseLaunches: baseRuns, headLaunches: headRuns)
        }
        self.spans = candidates.compactMap { spans[$0] }
            // By the evidence: changes the interval is sure of first, the surest first; those within
            // the noise last, by size. Ties in a fixed order (name, file, line).
            .sorted { Self.ranksBefore($0, $1) }
            .prefix(Self.limit).map { $0 }
    }

    /// The order of ``spans``: outside the noise before within it, then the larger
    /// ``SpanChange/evidenceMs``, then the larger change, then name, file and line.
    static func ranksBefore(_ a: SpanChange, _ b: SpanChange) -> Bool {
        let left: (Int, Double, Double) = (a.isWithinNoise ? 1 : 0, -a.evidenceMs, -abs(a.deltaMs))
        let right: (Int, Double, Double) = (b.isWithinNoise ? 1 : 0, -b.evidenceMs, -abs(b.deltaMs))
        if left != right { return left < right }
        return (a.name, a.file, a.line) < (b.name, b.file, b.line)
    }
}
