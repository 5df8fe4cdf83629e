import LaunchAnalysis
import LaunchTracing

/// Everything a session of launches asks of the operating system, in one seam:
/// starting a launch and watching it to its end, the `--setup`/`--prepare`/`--cleanup`
/// commands, the file cache, the stop signals, what launches leave running, the
/// machine and the clocks. ``MeasureSession`` and ``CompareSession`` reach the
/// system only through it, so tests replace it with a platform that "launches" by
/// returning scripted results, and run whole sessions without starting a process.
///
/// The system's platform is ``SystemLaunchPlatform``: each requirement is one of
/// the wrappers in `Platform/` (or ``Launcher``, which is built on them). Files
/// (the runs folder, a launch's trace) are not behind the seam: a test gives the
/// session a scratch folder, and a fake launch writes into it what a program would.
///
/// ```swift
/// let collected = try MeasureSession.run(request, progress: nil, platform: ScriptedPlatform(results))
/// ```
package protocol LaunchPlatform: AnyObject {
    /// Launches `request` and returns when the program has ended (``Launcher/launch(_:)``).
    func launch(_ request: LaunchRequest) throws(LaunchError) -> LaunchResult
    /// Runs a session command in the role `role` to its end (`/bin/sh -c command`).
    func runCommand(_ command: String, role: SessionCommands.Role) throws(SessionCommands.Failure)
    /// Drops the file cache before a cold launch (``FileCache/dropAll()``).
    func dropFileCaches() throws(LaunchError)

    /// Installs the stop handlers for a session (and, with `announcingStop`, the
    /// line a first Ctrl-C prints); returns true when launchprof became the
    /// subreaper of what launches leave behind.
    func beginSession(announcingStop: Bool) -> Bool
    /// Puts the handlers ``beginSession(announcingStop:)`` replaced back.
    func endSession()
    /// True once a stop signal came (Ctrl-C, SIGTERM, SIGHUP).
    var stopRequested: Bool { get }
    /// The last stop signal that came (meaningful once ``stopRequested``).
    var lastStopSignal: Int32 { get }

    /// Before a launch: marks orphans already adopted (a server `--setup` started)
    /// as not that launch's leftovers.
    func spareAdoptedOrphans(isSubreaper: Bool)
    /// After a launch: ends what it left running outside its process group (its
    /// descendants carry `LAUNCHPROF_SPAWN_NS=<spawn>`) and returns how many processes that was.
    func endLeftovers(spawnNanoseconds: UInt64, isSubreaper: Bool) -> Int

    /// The machine: host name, operating system, CPU model and count (`clockSource` is left empty).
    func machine() -> MachineEnvironment
    /// The current UTC time as ISO 8601 (`2026-11-22T22:41:18Z`).
    func utcTimestamp() -> String
    /// The monotonic time `monotonic` on the wall clock.
    func wallClockAnchor(at monotonic: UInt64) -> WallClockAnchor
}

/// The platform sessions use unless a test gives another: the real system.
package final class SystemLaunchPlatform: LaunchPlatform {
    private var savedHandlers: Platform.SavedHandlers?

    package init() {}

    package func launch(_ request: LaunchRequest) throws(LaunchError) -> LaunchResult { try Launcher.launch(request) }

    package func runCommand(_ command: String, role: SessionCommands.Role) throws(SessionCommands.Failure) {
        try SessionCommands.run(command, role: role)
    }

    package func dropFileCaches() throws(LaunchError) { try FileCache.dropAll() }

    package func beginSession(announcingStop: Bool) -> Bool {
        savedHandlers = Platform.installStopHandlers()
        if announcingStop {
            Platform.setFirstInterruptMessage("\nlaunchprof: stopping after this launch (Ctrl-C again to end it now)\n")
        }
        _ = Platform.groupWatcher  // before becoming a subreaper: the watcher must not be adopted
        return Platform.becomeSubreaper()
    }

    package func endSession() {
        if let savedHandlers { Platform.restoreStopHandlers(savedHandlers) }
        savedHandlers = nil
        Platform.setFirstInterruptMessage(nil)
    }

    package var stopRequested: Bool { Platform.stopRequests > 0 }
    package var lastStopSignal: Int32 { Platform.lastStopSignal }

    package func spareAdoptedOrphans(isSubreaper: Bool) {
        if isSubreaper, Platform.hasChildren { Platform.spareAdoptedOrphans() }
    }

    package func endLeftovers(spawnNanoseconds: UInt64, isSubreaper: Bool) -> Int {
        Platform.endLeftovers(
            stampEntry: "\(LaunchContract.Variable.spawnNanoseconds)=\(LaunchResult.spawnStamp(spawnNanoseconds))",
            isSubreaper: isSubreaper)
    }

    package func machine() -> MachineEnvironment {
        MachineEnvironment(
            hostname: Platform.hostname, operatingSystem: Platform.operatingSystem, cpuModel: Platform.cpuModel,
            cpuCount: Platform.cpuCount, clockSource: "")
    }

    package func utcTimestamp() -> String { Platform.utcTimestamp }

    package func wallClockAnchor(at monotonic: UInt64) -> WallClockAnchor { Platform.wallClockAnchor(at: monotonic) }
}
