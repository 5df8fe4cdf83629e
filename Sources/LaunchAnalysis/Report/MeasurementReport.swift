import LaunchTracing

/// Everything one `launchprof measure` found, as written to the JSON report
/// (`kind` `measurement`, `schemaVersion` 3). Every other format is rendered
/// from this value, so a report can be regenerated from its JSON.
///
/// Version 3 stores each launch's spans as a ``SpanTable`` (columns of
/// numbers) whose strings are written once, in `spanStrings`, and writes the
/// header (`kind`, `schemaVersion`, names, `configuration`, `outcome`,
/// `profile`) before the runs; versions 1 and 2 (an object per span) still read.
public struct MeasurementReport: Sendable, Equatable {
    /// The `kind` of every measurement report.
    public static let kind = "measurement"
    /// The version of this schema written now. Readers take 1 through this one.
    public static let currentSchemaVersion = 3

    /// The schema version this report was read from (``currentSchemaVersion`` when made here).
    public var schemaVersion: Int
    /// The report's name (default: the executable's name).
    public var name: String
    /// The version of the `launchprof` that wrote it.
    public var toolVersion: String
    /// When it was written, ISO 8601 in UTC (`2026-11-22T22:41:18Z`).
    public var createdAt: String
    /// The machine the runs were made on.
    public var environment: MachineEnvironment
    /// How the measurement was asked for, with the ready condition and budget actually used.
    public var configuration: MeasureConfiguration
    /// Every run, warm-ups included, with its raw numbers.
    public var runs: [RunRecord]
    /// The statistics, findings and budget verdict of the counted, successful runs in ``runs``.
    public var profile: LaunchProfile
    /// How the measurement came out: the exit code and every renderer read this.
    public var outcome: ReportOutcome
    /// Why the measurement ended early ("stopped by SIGINT", "run 4 of 6 could not
    /// be started: …"), when it did.
    public var stopReason: String?
    /// Why the measurement ended early, as a value (``SessionStop``): nil for a stop
    /// signal (``stopSignal``), and in reports written before it was recorded.
    public var stop: SessionStop?
    /// The stop signal that ended the measurement early, if one did.
    public var stopSignal: Int32?
    /// Every machine a pooled report's runs were made on, in order of first
    /// appearance (`launchprof merge`); nil for a report of one measurement,
    /// whose runs were all made on ``environment``.
    public var machines: [MachineEnvironment]?
    /// The launches counted under valgrind (`--metric instructions`), apart from
    /// ``runs`` (their times are valgrind's); the profile's ``LaunchProfile/instructions``
    /// summarise them. Nil when none was counted, and in older reports.
    public var countedRuns: [RunRecord]?
    /// The session the runs were made in: an id made once per launchprof invocation
    /// (``SessionID``), shared by the two sides of an interleaved comparison. Nil in
    /// reports written before it was recorded and in pooled reports, whose runs each
    /// carry theirs (``RunRecord/session``). Launches of different sessions are never
    /// taken as one session, whatever their metadata (``SessionComparison``).
    public var session: String?
    /// The id of the write this report's files came from: 16 hexadecimal digits
    /// made each time launchprof writes a report set (``SessionID/make()``), put in
    /// every format of the set, so a Markdown, JUnit or HTML file beside a JSON
    /// report with another id is known to be stale. Nil in a report not written to
    /// files (standard output) and in reports written before it was recorded.
    public var reportID: String?

    /// True when the measurement stopped early (``stopReason`` is set).
    public var interrupted: Bool { stopReason != nil }

    /// Makes a report of `runs` with a resolved `configuration`, computing its
    /// ``profile`` against the configuration's budget and its ``outcome``.
    public init(
        name: String, toolVersion: String = LaunchProfVersion.string, createdAt: String,
        environment: MachineEnvironment, configuration: MeasureConfiguration, runs: [RunRecord],
        stopReason: String? = nil, stopSignal: Int32? = nil, countedRuns: [RunRecord]? = nil, stop: SessionStop? = nil
    ) {
        self.schemaVersion = Self.currentSchemaVersion
        self.name = name
        self.toolVersion = toolVersion
        self.createdAt = createdAt
        self.environment = environment
        self.configuration = configuration
        self.runs = runs
        self.profile = LaunchProfile(
            runs: runs, budget: configuration.budget, checkingBudget: !configuration.budgetSource.isNone)
        self.countedRuns = countedRuns
        if let countedRuns { profile.instructions = InstructionStatistics(countedRuns.successful) }
        self.stopReason = stop?.text ?? stopReason
        self.stop = stop
        self.stopSignal = stopSignal
        self.outcome = ReportOutcome.of(
            profile: profile, runs: runs, ignoreFailures: configuration.ignoreFailures,
            stopReason: self.stopReason, stopSignal: stopSignal, countedRuns: countedRuns)
    }

    /// Assembles the report of a measurement session: resolves the ready
    /// condition that applied and the budget (``BudgetResolution``), then
    /// computes the profile and the outcome.
    public init(plan: MeasurementPlan, collected: CollectedLaunches, budget: BudgetResolution) {
        let (resolved, provenance) = budget.resolve(appBudget: collected.appBudget)
        let configuration = MeasureConfiguration(
            commandLine: plan.commandLine, command: plan.command, runs: plan.runs, warmup: plan.warmup,
            mode: plan.mode, ready: ReadyDefault.reported(plan.ready, runs: collected.runs),
            readyIsDefault: plan.ready == nil, timeoutSeconds: plan.timeoutSeconds, budget: resolved,
            budgetSource: provenance, launchOptions: plan.launchOptions, ignoreFailures: plan.ignoreFailures)
        let stopReason =
            collected.stopReason
            ?? collected.stopSignal.map { signal in
                "stopped by " + (collected.stopSignalName.map { "SIG" + $0 } ?? "signal \(signal)")
            }
        var environment = collected.environment
        if let machine = MachineEnvironment.key(plan.machine) { environment.machine = machine }
        self.init(
            name: plan.name, createdAt: collected.finishedAt, environment: environment,
            configuration: configuration, runs: collected.runs, stopReason: stopReason,
            stopSignal: collected.stopSignal,
            countedRuns: collected.countedRuns.isEmpty ? nil : collected.countedRuns, stop: collected.stop)
        session = plan.session
    }

    /// The ready condition as reports show it: `port:8080`, `first-frame`, or
    /// for a default, what it came to (`exit`, `end of the hooks (background launch)`).
    public var readyLabel: String {
        let ready = configuration.ready
        guard configuration.readyIsDefault else { return ready.description + answeredOn }
        if runs.isEmpty { return "first-frame (exit if uninstrumented)" }
        if ready == .firstFrame, runs.contains(where: { $0.timeline?.isBackground == true }) {
            return "end of the hooks (background launch)"
        }
        return ready.description
    }

    /// ` (answered on ::1)` when a port condition was met: the loopback
    /// addresses that answered, in the order first seen; empty otherwise.
    private var answeredOn: String {
        var seen: [String] = []
        for address in runs.compactMap(\.readyAddress) where !seen.contains(address) { seen.append(address) }
        return seen.isEmpty ? "" : " (answered on " + seen.joined(separator: ", ") + ")"
    }
}

extension MeasurementReport: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, schemaVersion, name, toolVersion, createdAt, environment, configuration, runs, profile
        case outcome, interrupted, stopReason, stopSignal, machines, spanStrings, countedRuns
        case stop, session, reportID
    }

    /// Decodes a measurement report of schema 1, 2 or 3; a schema-1 report's
    /// outcome, which it did not record, is computed from its runs.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        name = try container.decode(String.self, forKey: .name)
        toolVersion = try container.decode(String.self, forKey: .toolVersion)
        createdAt = try container.decode(String.self, forKey: .createdAt)
        environment = try container.decode(MachineEnvironment.self, forKey: .environment)
        configuration = try container.decode(MeasureConfiguration.self, forKey: .configuration)
        let strings = try container.decodeIfPresent([String].self, forKey: .spanStrings).map(SpanStrings.init)
        // In the order they are written (counted runs, then runs): the fast reader hands the span tables over in that order.
        (countedRuns, runs) = try SpanStrings.$current.withValue(strings) {
            (
                try container.decodeIfPresent([RunRecord].self, forKey: .countedRuns),
                try container.decode([RunRecord].self, forKey: .runs)
            )
        }
        profile = try container.decode(LaunchProfile.self, forKey: .profile)
        stopReason = try container.decodeIfPresent(String.self, forKey: .stopReason)
        stop = try container.decodeIfPresent(SessionStop.self, forKey: .stop)
        stopSignal = try container.decodeIfPresent(Int32.self, forKey: .stopSignal)
        machines = try container.decodeIfPresent([MachineEnvironment].self, forKey: .machines)
        session = try container.decodeIfPresent(String.self, forKey: .session)
        reportID = try container.decodeIfPresent(String.self, forKey: .reportID)
        outcome =
            try container.decodeIfPresent(ReportOutcome.self, forKey: .outcome)
            ?? ReportOutcome.of(
                profile: profile, runs: runs, ignoreFailures: configuration.ignoreFailures,
                stopReason: stopReason, stopSignal: stopSignal)
    }

    /// Encodes the report: the header first (`kind`, `schemaVersion`, names,
    /// `configuration`, `outcome`, `profile`: what a reader of the header needs
    /// comes first for an encoder that keeps this order), the strings of its
    /// span tables, then the runs.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.kind, forKey: .kind)
        try container.encode(Self.currentSchemaVersion, forKey: .schemaVersion)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(reportID, forKey: .reportID)
        try container.encode(toolVersion, forKey: .toolVersion)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(interrupted, forKey: .interrupted)
        try container.encodeIfPresent(stopReason, forKey: .stopReason)
        try container.encodeIfPresent(stop, forKey: .stop)
        try container.encodeIfPresent(stopSignal, forKey: .stopSignal)
        try container.encode(environment, forKey: .environment)
        try container.encode(configuration, forKey: .configuration)
        try container.encodeIfPresent(machines, forKey: .machines)
        try container.encodeIfPresent(session, forKey: .session)
        try container.encode(profile, forKey: .profile)
        let strings = SpanStrings(collecting: runs + (countedRuns ?? []))
        try container.encode(strings.strings, forKey: .spanStrings)
        let collected = strings.strings.count
        try SpanStrings.$current.withValue(strings) {
            try container.encodeIfPresent(countedRuns, forKey: .countedRuns)
            try container.encode(runs, forKey: .runs)
        }
        guard strings.strings.count == collected else {
            throw EncodingError.invalidValue(
                strings.strings.last ?? "",
                .init(
                    codingPath: encoder.codingPath,
                    debugDescription: "a span's string was not collected before the runs were written"))
        }
    }
}

extension MeasurementReport {
    /// The span budgets (`spans` keys of the configuration's budget) that no
    /// successful counted run recorded: a misspelt name, most likely. Their checks
    /// measure nothing, and the profile warns about each.
    public var unrecordedBudgetSpans: Set<String> {
        let timelines = successfulRuns.compactMap(\.timeline)
        return Set(
            LaunchProfile.unrecordedBudgetNames(in: configuration.budget, timelines: timelines)
                .filter { $0.key == "spans" }.map(\.name))
    }
}
