import Foundation
import Testing
import _LaunchProfTestSupport

@testable import LaunchMeasure

/// Dropping the file cache for cold launches.
///
/// Dropping it for real, as root, makes every other test running on the machine
/// start cold, so it happens only when `LAUNCHPROF_TEST_DROP_CACHES=1` asks for
/// it; otherwise the same code runs through files that refuse the write.
@Suite("FileCache")
struct FileCacheTests {
    static let dropsForReal = ProcessInfo.processInfo.environment["LAUNCHPROF_TEST_DROP_CACHES"] == "1"
    let scratch = ScratchDirectory("filecache-tests")

    /// Asked for, it succeeds as root on a writable /proc/sys, or refuses with
    /// `coldModeNeedsRoot` naming the control file. Otherwise a sysctl file that
    /// refuses every writer, root included (mode 0444), gets the same refusal.
    @Test("dropAll succeeds or says cold mode needs root, naming the control file")
    func dropAll() {
        #expect(FileCache.controlPath == "/proc/sys/vm/drop_caches")
        let path = Self.dropsForReal ? FileCache.controlPath : "/proc/sys/kernel/osrelease"
        do {
            if Self.dropsForReal { try FileCache.dropAll() } else { try FileCache.drop(through: path) }
            #expect(Self.dropsForReal, "\(path) was written")
        } catch {
            guard case .coldModeNeedsRoot(let named, let code) = error else {
                Issue.record("unexpected error: \(error)")
                return
            }
            #expect(named == path)
            #expect(code != 0)
            #expect(error.description.contains(path))
        }
    }

    @Test("a control file that is missing or a folder is a failure to drop, not a want of root")
    func otherFailures() {
        for (path, expected) in [(scratch.file("missing"), ENOENT), (scratch.path, EISDIR)] {
            #expect(throws: LaunchError.cannotDropCaches(path: path, code: expected)) {
                try FileCache.drop(through: path)
            }
        }
    }
}
