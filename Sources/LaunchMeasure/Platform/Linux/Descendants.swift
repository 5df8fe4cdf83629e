// Waiting out what a launch left running after it exited by itself: the rest of
// its process group and the descendants that carry its spawn stamp, found in /proc.

import LaunchAnalysis
import LaunchTracing
import _LaunchSystem

#if canImport(Glibc)
    import Glibc
#else
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

extension Platform {
    /// What waiting out a launch's descendants found: the CPU time of those reaped
    /// here (as their subreaper), and whether some were still running at the limit.
    struct DescendantWait: Equatable {
        var cpuTime = CPUTime()
        var cutOff = false
    }

    /// Waits until nothing of process group `group` but its leader (exited, not yet
    /// reaped) and no process whose environment holds `stampEntry` is running, or
    /// until `deadline` (CLOCK_MONOTONIC ns) or `stop()` says to give up. Exited
    /// ones that are this process's children (orphans it adopted as subreaper) are
    /// reaped on the way and their CPU time added. Ends nothing: the caller does.
    static func awaitDescendants(group: Int32, stampEntry: String, deadline: UInt64, stop: () -> Bool) -> DescendantWait
    {
        var wait = DescendantWait()
        let me = getpid()
        while true {
            var running = false
            for member in descendants(group: group, stampEntry: stampEntry) where member.pid != group {
                if member.isZombie {
                    guard member.parent == me else { continue }  // its own parent, a descendant, reaps it
                    var status: Int32 = 0
                    var usage = rusage()
                    if wait4(member.pid, &status, WNOHANG, &usage) > 0 { wait.cpuTime = wait.cpuTime + cpuTime(usage) }
                } else {
                    running = true
                }
            }
            if !running { return wait }
            if MonotonicClock.nanoseconds >= deadline || stop() {
                wait.cutOff = true
                return wait
            }
            SystemCalls.sleep(nanoseconds: 10_000_000)
        }
    }

    /// The launch's processes, by the one descendants rule (``launchProcesses(from:in:)``)
    /// with its roots those in group `group` and those whose environment holds
    /// `stampEntry` (descendants that left the group, or outlived it). Read by
    /// ``processTable(stampEntry:)``.
    static func descendants(group: Int32, stampEntry: String) -> [FoundProcess] {
        let table = processTable(stampEntry: stampEntry)
        let roots = Set(table.filter { $0.group == group || $0.stamped }.map(\.pid)).union([group])
        return launchProcesses(from: roots, in: table)
    }
}
