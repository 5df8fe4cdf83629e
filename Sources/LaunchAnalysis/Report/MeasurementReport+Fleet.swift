// A measurement report as part of a fleet: the machine of each run, and reports
// from several machines pooled into one.

extension MeasurementReport {
    /// The machine key of the machine `run` was made on: its own in a pooled
    /// report, else the report's (``MachineEnvironment/machine``).
    ///
    /// ```swift
    /// let byMachine = Dictionary(grouping: report.runs, by: report.machine(of:))
    /// ```
    public func machine(of run: RunRecord) -> String {
        run.machine ?? environment.machine
    }

    /// The session `run` was made in: its own in a pooled report, else the
    /// report's (``session``); nil when neither recorded one.
    public func session(of run: RunRecord) -> String? {
        run.session ?? session
    }

    /// The machine keys of the runs, in order of first appearance (one for a report of one measurement).
    public var machineKeys: [String] {
        var seen: Set<String> = []
        var keys: [String] = []
        for run in runs where seen.insert(machine(of: run)).inserted { keys.append(machine(of: run)) }
        if keys.isEmpty { keys = [environment.machine] }
        return keys
    }

    /// The environment of the machine named `key`: from ``machines`` in a pooled
    /// report, else ``environment`` when it is that machine.
    public func environment(ofMachine key: String) -> MachineEnvironment? {
        machines?.first { $0.machine == key } ?? (environment.machine == key ? environment : nil)
    }

    /// Pools `reports` — from different machines, or more runs of one — into one
    /// report whose every run keeps the machine it was made on.
    ///
    /// The runs follow one another in the order given, counted runs numbered
    /// again from 1 (warm-ups stay 0); each run's ``RunRecord/machine`` is set.
    /// The configuration is the first report's, with ``MeasureConfiguration/runs``
    /// and ``MeasureConfiguration/warmup`` the totals; ``environment`` is the
    /// first report's and ``machines`` lists every machine's. The profile and the
    /// outcome are computed again over all the runs, against the first report's
    /// budget. A report that was itself pooled is taken apart into its machines.
    ///
    /// The launches counted under callgrind (``countedRuns``) are pooled too, each
    /// keeping its machine and session: the instruction counts of every input stay.
    ///
    /// - Throws: ``ComparisonError/cannotPool(_:)`` when there is no report, or
    ///   the reports were launched in different modes or measured to different
    ///   ready conditions, so that their times are not the same quantity; and,
    ///   unless `poolingDifferences` (`merge --pool`), when they measured different
    ///   programs, against different budgets (the first one's would judge them all),
    ///   or different metrics (instructions counted in some only).
    ///
    /// ```swift
    /// let fleet = try MeasurementReport(merging: [runnerA, runnerB], name: "fleet", createdAt: "2026-11-23T10:00:00Z")
    /// fleet.machineKeys  // ["runner-a", "runner-b"]
    /// ```
    public init(
        merging reports: [MeasurementReport], name: String, createdAt: String, poolingDifferences: Bool = false
    ) throws(ComparisonError) {
        guard let first = reports.first else { throw .cannotPool("no report given") }
        for report in reports.dropFirst() {
            if report.configuration.mode != first.configuration.mode {
                throw .cannotPool(
                    "'\(first.name)' was launched \(first.configuration.mode.rawValue) and '\(report.name)' "
                        + "\(report.configuration.mode.rawValue)")
            }
            if report.readyLabel != first.readyLabel {
                throw .cannotPool(
                    "'\(first.name)' was measured to \(first.readyLabel) and '\(report.name)' to \(report.readyLabel)")
            }
            // Times of one quantity, but of other programs, budgets or metrics: only when asked.
            if !poolingDifferences, let difference = Self.poolingDifference(first, report) {
                throw .cannotPool(difference + " (launchprof merge --pool pools them anyway)")
            }
        }
        var runs: [RunRecord] = []
        var countedRuns: [RunRecord] = []
        var machines: [MachineEnvironment] = []
        var counted = 0
        var warmups = 0
        for report in reports {
            // A report that recorded no session is a session of its own: a new id, never one inferred from its metadata.
            let ownSession = report.session ?? SessionID.make()
            for environment in report.machines ?? [report.environment]
            where !machines.contains(where: { $0.machine == environment.machine }) {
                machines.append(environment)
            }
            for var run in report.runs {
                run.machine = report.machine(of: run)
                run.session = run.session ?? ownSession
                if run.isWarmup {
                    warmups += 1
                } else {
                    counted += 1
                    run.index = counted
                }
                runs.append(run)
            }
            for var run in report.countedRuns ?? [] {
                run.machine = report.machine(of: run)
                run.session = run.session ?? ownSession
                run.index = countedRuns.count + 1
                countedRuns.append(run)
            }
        }
        var configuration = first.configuration
        configuration.runs = counted
        configuration.warmup = warmups
        self.init(
            name: name, createdAt: createdAt, environment: first.environment, configuration: configuration, runs: runs,
            countedRuns: countedRuns.isEmpty ? nil : countedRuns)
        self.machines = machines
        judgeRunOrderWithinMachines()
    }

    /// Why `other` cannot be pooled with `first` without `--pool`: another program
    /// (its command line), another budget, or other metrics; nil when they agree.
    static func poolingDifference(_ first: MeasurementReport, _ other: MeasurementReport) -> String? {
        let names = "'\(Self.shortened(first.name))' and '\(Self.shortened(other.name))'"
        if first.configuration.command != other.configuration.command {
            return "\(names) measured different programs ("
                + Self.shortened(CommandLineText.quoted(first.configuration.command)) + " and "
                + Self.shortened(CommandLineText.quoted(other.configuration.command)) + ")"
        }
        if first.configuration.budget != other.configuration.budget {
            return
                "\(names) were judged against different budgets: the pooled report would judge every run against the first's"
        }
        if (first.countedRuns == nil) != (other.countedRuns == nil) {
            return "\(names) measured different metrics (instructions were counted in one only)"
        }
        return nil
    }

    /// `text` cut to 60 characters, with control characters escaped, for a one-line message.
    static func shortened(_ text: String) -> String {
        let escaped = ControlCharacters.escaped(text)
        return escaped.count > 60 ? String(escaped.prefix(60)) + "…" : escaped
    }

    /// A pooled report's outliers and run-order warnings, judged within each
    /// machine: a slower machine's runs are not outliers of the pool, and one
    /// machine's runs following another's is no drift.
    private mutating func judgeRunOrderWithinMachines() {
        for index in profile.phases.indices {
            let phase = profile.phases[index].phase
            var outliers: [Int] = []
            var warnings: [RunWarning] = []
            for machine in machineBreakdown(phase) {
                outliers += machine.outlierRuns
                warnings += RunWarnings.detect(machine.points.map(\.ms)).filter { !warnings.contains($0) }
            }
            profile.phases[index].outlierRuns = outliers.sorted()
            profile.phases[index].warnings = warnings
        }
    }
}

/// One machine's share of a pooled report for one metric: its successful counted
/// runs' values, their summary and outliers (judged among that machine's runs only).
///
/// ```swift
/// for machine in report.machineBreakdown(.timeToFirstFrame) {
///     print(machine.machine, machine.summary.median, machine.points.count)
/// }
/// ```
public struct MachineBreakdown: Sendable, Equatable {
    /// The machine key.
    public var machine: String
    /// Each successful counted run's value, milliseconds, by run index, in run order.
    public var points: [RunValue]
    /// The values' summary.
    public var summary: Summary
    /// The runs (``RunRecord/index``) whose value is an outlier among this machine's runs.
    public var outlierRuns: [Int]

    /// One run's value.
    public struct RunValue: Sendable, Equatable {
        /// The run's ``RunRecord/index``.
        public var run: Int
        /// Its value, milliseconds.
        public var ms: Double
    }
}

extension MeasurementReport {
    /// `metric` machine by machine, in order of first appearance; machines with no
    /// successful value are left out. One element for a report of one machine.
    public func machineBreakdown(_ metric: Phase) -> [MachineBreakdown] {
        var order: [String] = []
        var points: [String: [MachineBreakdown.RunValue]] = [:]
        for run in successfulRuns {
            guard let value = run.milliseconds(metric), value.isFinite else { continue }
            let key = machine(of: run)
            if points[key] == nil { order.append(key) }
            points[key, default: []].append(MachineBreakdown.RunValue(run: run.index, ms: value))
        }
        return order.compactMap { key in
            let values = points[key]!.map(\.ms)
            guard let summary = Summary.of(values) else { return nil }
            let outliers = Outliers.detect(
                values, minimumDeviation: LaunchProfile.minimumOutlierDeviationMs(summary.median))
            return MachineBreakdown(
                machine: key, points: points[key]!, summary: summary,
                outlierRuns: outliers.indices.map { points[key]![$0].run })
        }
    }
}
