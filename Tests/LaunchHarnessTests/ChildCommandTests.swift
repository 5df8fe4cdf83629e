#if os(Linux)
import Glibc
@testable import LaunchHarness
import LaunchTracing
import Testing

/// The sampler names the child a blocked process call waits for.
@Suite("Sampler: the child a process wait is on")
struct ChildCommandTests {
    /// `clone` and `clone3` are classified as process waits, but their first argument
    /// is flags or the address of their arguments: read as a pid it names no process
    /// (pids stop at 2^22), and the child is found as the thread's, not named "process N".
    @Test func aPidThatNamesNoProcessFallsBackToTheThreadsChild() throws {
        let child = try #require(System.spawn("/bin/sleep", ["30"]))
        defer {
            kill(child, SIGKILL)
            System.waitForChild(child)
        }
        // Until it has exec'd it is a copy of this process (named after the spawning thread).
        let sleeping = WaitTarget(kind: .process, name: "/bin/sleep 30")
        while Platform.childCommand(pid: Int64(child), thread: 0) != sleeping {
            try #require(kill(child, 0) == 0, "the child died before it ran /bin/sleep")
            sched_yield()
        }
        #expect(Platform.childCommand(pid: Int64(child), thread: 0) == sleeping)
        #expect(Platform.childCommand(pid: 1_182_775_408, thread: System.currentThreadID) == sleeping)
    }
}
#endif
