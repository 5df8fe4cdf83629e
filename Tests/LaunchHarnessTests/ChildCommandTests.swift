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
            // A number that names a live process that is not this one's child (a clone's flags,
            // 0x4111 = 16657, can be any process on a busy host): never named; the thread's child is.
            #expect(!Platform.isChildOfThisProcess(1))
            #expect(Platform.isChildOfThisProcess(Int64(child)))
            #expect(Platform.childCommand(pid: 1, thread: System.currentThreadID) == sleeping)
        }

        /// A process wait whose child cannot be named yet is looked at again by the same wait's
        /// next samples, but that costs one of the launch's resolutions, not one a sample: a
        /// long wait on a forked worker that never execs leaves the budget for the waits after it.
        @Test func lookingAgainAtAnUnnamedChildCostsOneResolution() throws {
            // Thread 0 has no children, and pid 1 is not this process's child: nothing is named.
            var resolver = WaitResolver(thread: 0)
            let wait = Platform.Observation(
                nanoseconds: 0, state: UInt8(ascii: "S"), syscall: 61, arguments: (1, 0, 0, 0))
            var named = 0
            for _ in 0..<(MainThreadSampler.maximumResolutions + 10)
            where resolver.describe(wait, kind: .process(waitid: false)).target != nil {
                named += 1
            }
            #expect(named == 0)
            var pipe: [Int32] = [0, 0]
            try #require(Glibc.pipe(&pipe) == 0)
            defer {
                close(pipe[0])
                close(pipe[1])
            }
            let read = Platform.Observation(
                nanoseconds: 1, state: UInt8(ascii: "S"), syscall: 0, arguments: (UInt64(pipe[0]), 0, 0, 0))
            #expect(
                !resolver.describe(read, kind: .descriptorIO).descriptors.isEmpty,
                "the waits after it are still resolved")
        }
    }
#endif
