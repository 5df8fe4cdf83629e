import LaunchAnalysis
import LaunchTracing

/// The check that a counted launch ran the program that was timed: its count is
/// refused (exit 2) when it behaved otherwise.
///
/// A counted launch must end as the timed launches did: with an exit status one
/// of them had, and, when every timed launch printed the same bytes on stdout,
/// with those bytes. A program that finds something else beside itself (another
/// interpreter's configuration, a missing resource) usually says so in one of them.
/// Output is compared only between launches that exited by themselves: one launchprof
/// ended at ready (a server) printed what it had by then, which depends on timing.
///
/// ```swift
/// if let reason = CountedLaunchCheck.difference(counted: record, timed: timedRecords, in: request.runs) {
///     // refuse: "counted-001 is not the program that was timed: \(reason)"
/// }
/// ```
package enum CountedLaunchCheck {
    /// The most of a stdout file compared (larger ones are compared on their first bytes).
    static let stdoutLimit = 16 << 20

    /// Why `counted` is not the program the `timed` records ran (the timed launches,
    /// warm-ups included, whose exit status is known), or nil when it behaved as they did.
    /// Their stdout files are read where they are now in `runs` (records name them final).
    package static func difference(counted: RunRecord, timed: [RunRecord], in runs: OwnedDirectory) -> String? {
        func bytes(_ recorded: String) -> [UInt8]? { Self.bytes(runs.currentPath(ofRecorded: recorded)) }
        let exited = timed.filter { exitStatus($0) != nil }
        guard !exited.isEmpty, let code = exitStatus(counted) else { return nil }
        let codes = Set(exited.compactMap(exitStatus))
        if !codes.contains(code) {
            return
                "it exited with status \(code), the timed launches with \(codes.sorted().map(String.init).joined(separator: " or "))"
        }
        let ended = exited.filter { $0.timeToExitMs != nil }
        guard ended.count == exited.count, counted.timeToExitMs != nil else { return nil }
        let outputs = ended.map { $0.stdoutPath.flatMap(bytes) }
        guard let first = outputs.first, let expected = first, outputs.allSatisfy({ $0 == expected }),
            let printed = counted.stdoutPath.flatMap(bytes), printed != expected
        else { return nil }
        return "its stdout (\(printed.count) bytes) differs from the \(expected.count) bytes every timed launch printed"
    }

    /// The status `record`'s program exited with: its failed exit's, 0 for a launch
    /// that succeeded, nil for one that crashed, timed out or was stopped.
    static func exitStatus(_ record: RunRecord) -> Int32? {
        record.exitCode ?? (record.status == .ok ? 0 : nil)
    }

    /// The first ``stdoutLimit`` bytes of the file at `path`, or nil when it cannot be read.
    static func bytes(_ path: String) -> [UInt8]? {
        try? BoundedFile.read(path, limit: stdoutLimit, followLinks: false, prefix: true)
    }
}
