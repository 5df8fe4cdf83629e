// The one reader of /proc the leftover rules share: every process's parent,
// group and state from /proc/*/stat, and whether its environment holds a launch's
// spawn stamp from /proc/*/environ.

import _LaunchSystem

#if canImport(Glibc)
    import Glibc
#else
    #error("Unsupported Platform")
#endif

extension Platform {
    /// A process found in /proc: its pid, parent, process group, whether it has
    /// exited unreaped, and whether its environment holds the stamp asked about.
    struct FoundProcess: Equatable {
        var pid: Int32
        var parent: Int32
        var group: Int32
        var isZombie: Bool
        var stamped = false
    }

    /// Every process in /proc but this one; with `stampEntry` (`NAME=value`), each
    /// marked ``FoundProcess/stamped`` when its environment holds that entry.
    static func processTable(stampEntry: String? = nil) -> [FoundProcess] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        let me = getpid()
        let needle = stampEntry.map { Array($0.utf8) + [0] }
        var found: [FoundProcess] = []
        var buffer = [UInt8](repeating: 0, count: 1_024)
        var environment = [UInt8](repeating: 0, count: needle == nil ? 0 : 65_536)
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
                let group = Int32(String(decoding: fields[2], as: UTF8.self))
            else { continue }
            var process = FoundProcess(
                pid: pid, parent: parent, group: group, isZombie: fields[0].first == UInt8(ascii: "Z"))
            if let needle { process.stamped = environmentHolds(pid, needle, buffer: &environment) }
            found.append(process)
        }
        return found
    }

    /// The one descendants rule: the processes of `table` that are a launch's, given
    /// `roots`, the ones known to be (its process group, those carrying its spawn
    /// stamp, the orphans it left): the roots found in `table` and every process that
    /// descends from one of them by parentage (a descendant that left the group and
    /// cleared its environment, while its parent lives).
    static func launchProcesses(from roots: Set<Int32>, in table: [FoundProcess]) -> [FoundProcess] {
        let launch = roots.union(descending(from: roots, in: table))
        return table.filter { launch.contains($0.pid) }
    }

    /// The processes of `table` that descend from `roots` by parentage (the roots not included).
    static func descending(from roots: Set<Int32>, in table: [FoundProcess]) -> Set<Int32> {
        var reached = roots
        var grew = true
        while grew {
            grew = false
            for process in table where !reached.contains(process.pid) && reached.contains(process.parent) {
                reached.insert(process.pid)
                grew = true
            }
        }
        return reached.subtracting(roots)
    }

    /// True when `/proc/<pid>/environ` holds `needle` (`NAME=value` and a NUL) as one entry.
    private static func environmentHolds(_ pid: Int32, _ needle: [UInt8], buffer: inout [UInt8]) -> Bool {
        let fd = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        Glibc.close(fd)
        guard count > 0 else { return false }
        var start = 0
        while start < count {
            var end = start
            while end < count, buffer[end] != 0 { end += 1 }
            if end - start + 1 == needle.count, buffer[start...end].elementsEqual(needle[...]) { return true }
            start = end + 1
        }
        return false
    }
}
