// What a launch leaves behind: descendants that left the process group, found by
// their spawn stamp, orphans reaped as their subreaper, and what descends from
// either, by the one descendants rule on one reading of /proc (ProcessTable.swift).

import LaunchAnalysis
import LaunchTracing
import Synchronization
import _LaunchSystem

#if canImport(Glibc)
    import Glibc
#else
    // Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, PR_SET_PDEATHSIG.
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

extension Platform {
    /// Makes this process the reaper of its descendants' orphans
    /// (`PR_SET_CHILD_SUBREAPER`), so that what a launch leaves behind is ours to
    /// reap; false where the kernel refuses.
    @discardableResult
    static func becomeSubreaper() -> Bool {
        #if arch(x86_64)
            let prctlNumber = 157
        #elseif arch(arm64)
            let prctlNumber = 167
        #else
            return false
        #endif
        guard let syscall2 = SpawnExtras.syscall2 else { return false }
        return syscall2(prctlNumber, 36 /* PR_SET_CHILD_SUBREAPER */, 1) == 0
    }

    /// Reaps the children left in process group `group` (orphaned grandchildren of
    /// a launch, once this process is their subreaper), waiting up to
    /// `milliseconds` for ones still dying; never touches other children.
    /// Returns the CPU time the reaped ones (and what they reaped) used.
    @discardableResult
    static func reapGroup(_ group: Int32, milliseconds: Int) -> CPUTime {
        let deadline = MonotonicClock.nanoseconds + UInt64(milliseconds) * 1_000_000
        var total = CPUTime()
        while true {
            var status: Int32 = 0
            var usage = rusage()
            let reaped = wait4(-group, &status, WNOHANG, &usage)
            if reaped < 0 { if errno == EINTR { continue } else { return total } }  // ECHILD: none left in the group
            if reaped > 0 {
                total = total + cpuTime(usage)
                continue
            }
            guard MonotonicClock.nanoseconds < deadline else { return total }
            SystemCalls.sleep(nanoseconds: 1_000_000)
        }
    }

    /// The children this process started and has not reaped yet: launches under
    /// way (in this or another session of the process) and the commands
    /// `--prepare`, `--setup` and `--cleanup` run. The parentage scan leaves them alone.
    static let startedChildren = Mutex<Set<Int32>>([])

    /// Orphans adopted before a launch began (a server `--setup` or `--prepare`
    /// started): not that launch's leftovers, never ended.
    static let sparedOrphans = Mutex<Set<Int32>>([])

    /// Marks every orphan adopted so far as spared (just before a launch).
    static func spareAdoptedOrphans() {
        let orphans = adoptedOrphans()
        sparedOrphans.withLock { $0.formUnion(orphans) }
    }

    /// This process's children, running, that it did not start itself: as the
    /// subreaper, every orphan a launch left (a `setsid` daemon, a double fork,
    /// whatever its environment) is reparented to it. Exited ones found on the
    /// way are reaped, not returned. Reads `/proc/*/stat`.
    static func adoptedOrphans() -> [Int32] {
        adoptedOrphans(in: processTable())
    }

    /// ``adoptedOrphans()`` among the processes of `table`, read from /proc by the
    /// caller: exited ones are reaped, not returned.
    static func adoptedOrphans(in table: [FoundProcess]) -> [Int32] {
        let me = getpid()
        let started = startedChildren.withLock { $0 }.union(sparedOrphans.withLock { $0 })
        var found: [Int32] = []
        for process in table where process.parent == me && !started.contains(process.pid) {
            if process.isZombie {
                var status: Int32 = 0
                _ = waitpid(process.pid, &status, WNOHANG)
            } else {
                found.append(process.pid)
            }
        }
        return found
    }

    /// True when this process has a child, running or exited and not yet reaped
    /// (`waitid(P_ALL, WNOHANG | WNOWAIT)`); it reaps nothing. One system call.
    static var hasChildren: Bool {
        var info = siginfo_t()
        return waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0 || errno != ECHILD
    }

    /// What a launch left running among the processes of `table`, by the one
    /// descendants rule (``launchProcesses(from:in:)``): its roots the processes
    /// whose environment holds the launch's spawn stamp (``FoundProcess/stamped``)
    /// and `orphans` (adopted as subreaper); exited ones are left out.
    static func leftovers(in table: [FoundProcess], orphans: [Int32]) -> Set<Int32> {
        let roots = Set(table.filter(\.stamped).map(\.pid)).union(orphans)
        return Set(launchProcesses(from: roots, in: table).filter { !$0.isZombie }.map(\.pid))
    }

    /// Ends what a launch left running and returns how many processes that was, by
    /// ``leftovers(in:orphans:)`` on one reading of /proc a pass: the processes whose
    /// environment holds `stampEntry` (descendants that left the process group), the
    /// orphans reparented to this process (when it is their subreaper), and what
    /// descends from either (a descendant that also cleared its environment, while
    /// its parent lives). A process started while a pass ends the others is found
    /// by the next pass, so the scan repeats until none is left.
    /// (Orphans cannot be told apart by launch: in a process that runs several
    /// sessions at once, the first scan ends every session's orphans.)
    static func endLeftovers(stampEntry: String, isSubreaper: Bool) -> Int {
        var ended = Set<Int32>()
        // With no child at all, no orphan was reparented to us (as subreaper):
        // the scans are skipped (one system call instead).
        if isSubreaper, !hasChildren { return 0 }
        for _ in 0..<16 {
            let table = processTable(stampEntry: stampEntry)
            let orphans = isSubreaper ? adoptedOrphans(in: table) : []
            let found = leftovers(in: table, orphans: orphans).subtracting(ended)
            if found.isEmpty { break }
            for pid in found { end(pid) }
            ended.formUnion(found)
        }
        return ended.count
    }

    /// Ends `pid` (SIGKILL) and reaps it if it is this process's child.
    static func end(_ pid: Int32) {
        _ = kill(pid, SIGKILL)
        var status: Int32 = 0
        let deadline = MonotonicClock.nanoseconds + 100_000_000
        while waitpid(pid, &status, WNOHANG) == 0, MonotonicClock.nanoseconds < deadline {
            SystemCalls.sleep(nanoseconds: 1_000_000)
        }
    }
}
