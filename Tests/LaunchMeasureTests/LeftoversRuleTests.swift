import Foundation
import Testing
import _LaunchProfTestSupport

@testable import LaunchMeasure

/// What a launch left running is found by the one descendants rule on one reading
/// of /proc: the processes carrying its spawn stamp, the orphans it left, and what
/// descends from either by parentage.
@Suite("Leftovers: the descendants rule")
struct LeftoversRuleTests {
    typealias Found = Platform.FoundProcess

    @Test func stampedProcessesOrphansAndTheirDescendantsAreLeftoversAndNothingElse() {
        let table = [
            Found(pid: 100, parent: 1, group: 100, isZombie: false, stamped: true),
            // Left the group and cleared its environment; its parent, stamped, lives.
            Found(pid: 101, parent: 100, group: 101, isZombie: false),
            Found(pid: 102, parent: 101, group: 101, isZombie: false),
            Found(pid: 103, parent: 100, group: 100, isZombie: true),
            // An orphan adopted as subreaper, unstamped, and its child.
            Found(pid: 200, parent: 50, group: 200, isZombie: false),
            Found(pid: 201, parent: 200, group: 200, isZombie: false),
            // Another program and its child.
            Found(pid: 300, parent: 1, group: 300, isZombie: false),
            Found(pid: 301, parent: 300, group: 300, isZombie: false),
        ]
        #expect(Platform.leftovers(in: table, orphans: [200]) == [100, 101, 102, 200, 201])
        #expect(Platform.leftovers(in: table, orphans: []) == [100, 101, 102])
        // The group watcher's wait uses the same rule.
        #expect(Set(Platform.launchProcesses(from: [300], in: table).map(\.pid)) == [300, 301])
    }

    /// A stamped process's child that cleared its environment and left the group is
    /// ended in the same pass as its parent, so it is not orphaned to pid 1 first
    /// (where, with no subreaper, nothing would find it).
    @Test func aChildThatClearedItsEnvironmentIsEndedWithItsStampedParent() throws {
        let scratch = ScratchDirectory("lp-leftovers")
        let pidFile = URL(fileURLWithPath: scratch.file("child.pid"))
        let stamp = "LAUNCHPROF_TEST_STAMP=\(UUID().uuidString)"
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/bin/sh")
        parent.arguments = [
            "-c",
            "setsid env -i /bin/sh -c 'echo $$ > \(pidFile.path).tmp && mv \(pidFile.path).tmp \(pidFile.path) "
                + "&& exec sleep 300' & wait",
        ]
        let entry = stamp.split(separator: "=", maxSplits: 1)
        parent.environment = ["PATH": "/usr/bin:/bin", String(entry[0]): String(entry[1])]
        try parent.run()
        try #require(BuiltProducts.waitUntilExists(pidFile), "the child never wrote its pid")
        let child = try #require(
            Int32(ScratchDirectory.read(pidFile.path).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(child, SIGKILL) }
        #expect(Platform.endLeftovers(stampEntry: stamp, isSubreaper: false) == 2)
        #expect(Self.waitUntilEnded(child), "the unstamped child \(child) outlived its stamped parent")
    }

    /// True once `pid` is gone or a zombie, within 10 s.
    static func waitUntilEnded(_ pid: Int32) -> Bool {
        for _ in 0..<1_000 {
            guard kill(pid, 0) == 0,
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return true }
            if stat[close...].dropFirst(2).first == "Z" { return true }
            usleep(10_000)
        }
        return false
    }
}
