// Waiting out what a launch left running after it exited by itself: the rest of
// its process group and the descendants that carry its spawn stamp, found in /proc.

import LaunchAnalysis
import LaunchTracing
import _LaunchSystem

#if canImport(Glibc)
    import Glibc
#else
    #error("The launcher runs on Linux only; a port adds Platform/<OS>/ beside Platform/Linux/ (LaunchMeasure.docc/PortingTheLauncher.md)")
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

    /// A process found in /proc: its pid, parent, and whether it has exited unreaped.
    struct FoundProcess: Equatable {
        var pid: Int32
        var parent: Int32
        var isZombie: Bool
    }

    /// The processes in group `group`, and those whose environment holds `stampEntry`
    /// (descendants that left the group, or outlived it), from `/proc/*/stat` and `environ`.
    static func descendants(group: Int32, stampEntry: String) -> [FoundProcess] {
        let stamped = Set(processes(withEnvironmentEntry: stampEntry))
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        let me = getpid()
        var found: [FoundProcess] = []
        var buffer = [UInt8](repeating: 0, count: 1_024)
        while let item = readdir(directory) {
            guard let pid = Int32(text(item.pointee.d_name)), pid != me else { continue }
            let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            Glibc.close(fd)
            // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so read after the last ')'.
            guard count > 0, let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { continue }
            let fields = buffer[(close + 1)..<count].split(separator: UInt8(ascii: " "), maxSplits: 4)
            guard fields.count >= 3, let parent = Int32(String(decoding: fields[1], as: UTF8.self)),
                let processGroup = Int32(String(decoding: fields[2], as: UTF8.self))
            else { continue }
            guard processGroup == group || stamped.contains(pid) else { continue }
            found.append(FoundProcess(pid: pid, parent: parent, isZombie: fields[0].first == UInt8(ascii: "Z")))
        }
        return found
    }
}
