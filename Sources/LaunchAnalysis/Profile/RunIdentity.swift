/// What makes one run that run and no other, so that a report given twice (to
/// `merge`, or to both sides of `compare`) is not counted twice.
///
/// A run is identified by the moment it was spawned — read on the wall clock and
/// on the monotonic clock together (``RunRecord/wallClock``) — with the index of
/// its launch inside the process (hot launches share one process and so one
/// spawn) and whether it was a warm-up. No two launches are spawned at the same
/// nanosecond on both clocks.
///
/// A run is also identified by its samples: the run's times to ready and to exit
/// and its milestones, to the bit, with its status. Two different launches do not
/// agree on all of those to the nanosecond. Runs are the same when either identity
/// matches: a copy of a report with its stamps stripped (or a report written
/// before runs carried them) is still found; a run that recorded neither (a launch
/// that failed before it could be timed) is never taken for another.
///
/// ```swift
/// if let (first, second) = RunIdentity.firstRepeated(in: [("a.json", a), ("b.json", b)]) {
///     print("the same run is in \(first) and \(second)")
/// }
/// ```
public struct RunIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The spawn on the wall clock, nanoseconds since 1970 (nil for a run identified by its samples).
    public var spawnUnixNanoseconds: UInt64?
    /// The spawn on the monotonic clock, nanoseconds (nil for a run identified by its samples).
    public var spawnMonotonicNanoseconds: UInt64?
    /// The launch inside the process: 0 for its own, 1… for hot launches.
    public var launchIndex: Int
    /// True for a warm-up run.
    public var isWarmup: Bool
    /// For a run without a spawn stamp: its samples, as the bits of its numbers.
    public var samples: [UInt64]

    /// One line naming the run, for an error message.
    public var description: String {
        let launch = launchIndex > 0 ? ", hot launch \(launchIndex)" : ""
        let kind = isWarmup ? "warm-up run" : "run"
        if let spawnUnixNanoseconds {
            return "\(kind) spawned at \(WallClockAnchor.utcText(unixNanoseconds: spawnUnixNanoseconds))\(launch)"
        }
        return "\(kind) with identical samples\(launch)"
    }

    /// The first run found in two of `reports` (a report counted twice, whole or
    /// inside a pooled one), as the names of the two reports holding it: nil when
    /// every run is in one report only. Runs within one report are not compared
    /// with one another.
    public static func firstRepeated(
        in reports: [(name: String, report: MeasurementReport)]
    ) -> (first: String, second: String, run: RunIdentity)? {
        var seen: [RunIdentity: Int] = [:]
        for (position, entry) in reports.enumerated() {
            var own: Set<RunIdentity> = []
            for run in entry.report.runs {
                for identity in run.identities where own.insert(identity).inserted {
                    if let earlier = seen[identity] { return (reports[earlier].name, entry.name, identity) }
                }
            }
            for identity in own { seen[identity] = position }
        }
        return nil
    }

    /// Throws when one run is in two of `reports` (``firstRepeated(in:)``).
    ///
    /// - Throws: ``ComparisonError/repeatedRun(first:second:run:)`` naming both reports.
    public static func refuseRepeats(in reports: [(name: String, report: MeasurementReport)]) throws(ComparisonError) {
        if let repeated = firstRepeated(in: reports) {
            throw .repeatedRun(first: repeated.first, second: repeated.second, run: repeated.run.description)
        }
    }
}

extension RunRecord {
    /// What identifies this run among all runs (see ``RunIdentity``): its spawn
    /// stamp when it has one, and its samples when it has any; empty for a run
    /// that recorded no number to tell it by.
    public var identities: [RunIdentity] {
        var identities: [RunIdentity] = []
        if let wallClock {
            identities.append(
                RunIdentity(
                    spawnUnixNanoseconds: wallClock.unixNanoseconds,
                    spawnMonotonicNanoseconds: wallClock.monotonicNanoseconds,
                    launchIndex: timeline?.launchIndex ?? 0, isWarmup: isWarmup, samples: []))
        }
        if let bySamples = sampleIdentity { identities.append(bySamples) }
        return identities
    }

    /// The identity of this run by its samples (``RunIdentity``); nil when it has none.
    var sampleIdentity: RunIdentity? {
        let launchIndex = timeline?.launchIndex ?? 0
        var samples: [UInt64] = []
        if let timeToReadyMs { samples.append(timeToReadyMs.bitPattern) }
        if let timeToExitMs { samples.append(timeToExitMs.bitPattern) }
        for (milestone, nanoseconds) in (timeline?.milestones ?? [:]).sorted(by: { $0.key.id < $1.key.id }) {
            samples += [UInt64(milestone.rawValue), nanoseconds]
        }
        guard !samples.isEmpty else { return nil }
        samples.append(UInt64(Self.statusCode(status)))
        return RunIdentity(
            spawnUnixNanoseconds: nil, spawnMonotonicNanoseconds: nil, launchIndex: launchIndex, isWarmup: isWarmup,
            samples: samples)
    }

    private static func statusCode(_ status: Status) -> Int {
        switch status {
        case .ok: 0
        case .failedExit: 1
        case .crashed: 2
        case .timedOut: 3
        case .invalidTrace: 4
        case .neverReady: 5
        case .interrupted: 6
        }
    }
}
