import LaunchTracing

/// Reports without the measured program's paths (`--redact-paths`): every path
/// the sampler read from the program — the file behind a descriptor, a local
/// socket's or named pipe's path, a child's command — is cut to its last
/// component, in the wait targets of spans and findings and in the
/// recommendations that name them — and every `#filePath` of a call site
/// (where the app's sources were when it was built), cut to the file's name.
///
/// ```swift
/// let shared = report.redactingPaths()   // "read of /home/ana/app/catalog.json" → "catalog.json"
/// ```
public enum PathRedaction {
    /// `text` with each path-bearing target's name replaced by its redacted form
    /// (longest names first, so one path inside another is not cut twice).
    public static func redact(_ text: String, naming targets: some Sequence<WaitTarget>) -> String {
        var result = text
        let names = Set(targets.filter(\.kind.namesPaths).map(\.name)).sorted { $0.count > $1.count }
        for name in names where name.contains("/") {
            result = result.replacingAll(name, with: WaitTarget.redactingPaths(in: name))
        }
        return result
    }

    /// The last component of `path` (`/home/ana/app/Sources/App/Boot.swift` → `Boot.swift`).
    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

extension MeasurementReport {
    /// Every wait target the report names, in its findings and its runs' spans.
    public var waitTargets: Set<WaitTarget> {
        var targets = Set(profile.findings.flatMap { $0.waitedOn ?? [] })
        for run in runs {
            for span in (run.timeline?.mainThreadSpans ?? []) + (run.timeline?.otherSpans ?? []) {
                targets.formUnion(span.waitTargets ?? [])
            }
        }
        return targets
    }

    /// The report with every path of the measured program cut to its last
    /// component (see ``PathRedaction``), and no trace of `names` — by default
    /// this process's home and working directories and user name, and the host
    /// names of this machine and of the report's (see ``PrivateNames``): not in
    /// the command lines, the runs' files and problems (a failed run's stderr),
    /// the budget file's path, nor the machine's description.
    public func redactingPaths(privateNames names: PrivateNames = .ofThisProcess) -> MeasurementReport {
        redactingPaths(naming: waitTargets, privateNames: names)
    }

    func redactingPaths(naming targets: Set<WaitTarget>, privateNames: PrivateNames) -> MeasurementReport {
        var names = privateNames
        names.hostNames =
            PrivateNames(hostNames: names.hostNames + [environment.hostname] + (machines ?? []).map(\.hostname))
            .hostNames
        var report = self
        report.profile.findings = profile.findings.map { $0.redactingPaths(naming: targets) }
        func redacted(_ run: RunRecord) -> RunRecord {
            var run = run
            run.problem = run.problem.map(names.scrub)
            run.diagnosis = run.diagnosis?.mappingText(names.scrub)
            run.stdoutPath = run.stdoutPath.map(names.scrubRunPath)
            run.stderrPath = run.stderrPath.map(names.scrubRunPath)
            run.tracePath = run.tracePath.map(names.scrubRunPath)
            guard var timeline = run.timeline else { return run }
            timeline.mainThreadSpans = timeline.mainThreadSpans.map { $0.redactingPaths() }
            timeline.otherSpans = timeline.otherSpans.map { $0.redactingPaths() }
            timeline.filePaths = timeline.filePaths.mapValues(PathRedaction.lastComponent)
            run.timeline = timeline
            return run
        }
        report.runs = runs.map(redacted)
        report.countedRuns = countedRuns?.map(redacted)
        report.configuration.ready = configuration.ready.mappingText(names.scrub)
        report.configuration.commandLine = configuration.commandLine.map(names.scrub)
        report.configuration.command = configuration.command.map(names.scrub)
        if case .file(let path) = configuration.budgetSource.origin {
            report.configuration.budgetSource.origin = .file(path: names.scrub(path))
        }
        report.environment = environment.redacted(names)
        report.machines = machines?.map { $0.redacted(names) }
        report.stopReason = stopReason.map(names.scrub)
        report.stop = stop?.mappingText(names.scrub)
        report.outcome.reason = names.scrub(outcome.reason)
        return report
    }
}

extension MachineEnvironment {
    /// The environment with its host name replaced, and the names scrubbed from the rest.
    func redacted(_ names: PrivateNames) -> MachineEnvironment {
        var environment = self
        environment.hostname = PrivateNames.hostPlaceholder
        environment.operatingSystem = names.scrub(operatingSystem)
        environment.machine = names.scrub(machine)
        return environment
    }
}

extension ComparisonReport {
    /// The comparison with every path of the measured programs cut to its last component (see ``PathRedaction``).
    public func redactingPaths(privateNames names: PrivateNames = .ofThisProcess) -> ComparisonReport {
        let targets = base.waitTargets.union(head.waitTargets)
        var report = self
        report.base = base.redactingPaths(naming: targets, privateNames: names)
        report.head = head.redactingPaths(naming: targets, privateNames: names)
        func redact(_ changes: [FindingsDiff.FindingChange]) -> [FindingsDiff.FindingChange] {
            changes.map { change in
                var change = change
                change.recommendation = PathRedaction.redact(change.recommendation, naming: targets)
                change.filePath = change.filePath.map(PathRedaction.lastComponent)
                return change
            }
        }
        report.changes.new = redact(changes.new)
        report.changes.gone = redact(changes.gone)
        report.changes.moved = redact(changes.moved)
        report.changes.spans = changes.spans.map { span in
            var span = span
            span.filePath = span.filePath.map(PathRedaction.lastComponent)
            return span
        }
        return report
    }
}

extension Finding {
    func redactingPaths(naming targets: Set<WaitTarget>) -> Finding {
        var finding = self
        finding.recommendation = PathRedaction.redact(recommendation, naming: targets)
        finding.waitedOn = waitedOn?.map(\.redacted)
        finding.filePath = filePath.map(PathRedaction.lastComponent)
        return finding
    }
}

extension SpanRecord {
    func redactingPaths() -> SpanRecord {
        var span = self
        span.waitTargets = waitTargets?.map(\.redacted)
        return span
    }
}

extension String {
    /// Every occurrence of `target` replaced by `replacement` (no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
