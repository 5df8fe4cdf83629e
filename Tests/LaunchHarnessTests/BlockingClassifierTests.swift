import Foundation
import LaunchHarness
import LaunchTracing
import Testing
import _LaunchProfTestSupport

/// What a blocked thread waits on: the classifier's table, and real work on a
/// real thread sampled by `MainThreadSampler`.
@Suite("Blocking classifier")
struct BlockingClassifierTests {
    typealias Kind = BlockingClassifier.SyscallKind
    typealias Descriptor = BlockingClassifier.DescriptorKind

    /// One observation and the class it must get.
    struct Observation: Sendable, CustomStringConvertible {
        var state: Character
        var syscall: Int32
        var kind: Kind
        var descriptors: [Descriptor]
        var wait: ThreadSample.Wait
        var description: String { "\(state) syscall \(syscall) \(kind) on \(descriptors) → \(wait)" }
    }

    static let observations: [Observation] = [
        // Running or runnable is never waiting, whatever the last syscall said.
        Observation(state: "R", syscall: -1, kind: .other, descriptors: [], wait: .none),
        Observation(state: "R", syscall: 0, kind: .descriptorIO, descriptors: [.file], wait: .none),
        Observation(state: "R", syscall: 202, kind: .lock, descriptors: [], wait: .none),
        // Blocked outside a syscall: a page fault reading a mapped file when uninterruptible.
        Observation(state: "D", syscall: -1, kind: .other, descriptors: [], wait: .disk),
        Observation(state: "S", syscall: -1, kind: .other, descriptors: [], wait: .none),
        // I/O on a descriptor: its kind decides.
        Observation(state: "S", syscall: 0, kind: .descriptorIO, descriptors: [.socket], wait: .network),
        Observation(state: "D", syscall: 0, kind: .descriptorIO, descriptors: [.file], wait: .disk),
        Observation(state: "S", syscall: 0, kind: .descriptorIO, descriptors: [.file], wait: .disk),
        Observation(state: "D", syscall: 17, kind: .descriptorIO, descriptors: [.blockDevice], wait: .disk),
        Observation(state: "S", syscall: 0, kind: .descriptorIO, descriptors: [.pipe], wait: .ipc),
        Observation(state: "S", syscall: 45, kind: .descriptorIO, descriptors: [.localSocket], wait: .ipc),
        Observation(state: "S", syscall: 45, kind: .descriptorIO, descriptors: [.socket], wait: .network),
        Observation(state: "D", syscall: 0, kind: .descriptorIO, descriptors: [.other], wait: .disk),
        Observation(state: "S", syscall: 0, kind: .descriptorIO, descriptors: [.other], wait: .other),
        Observation(state: "S", syscall: 0, kind: .descriptorIO, descriptors: [], wait: .other),
        // poll: network when it polls sockets only, an event loop otherwise.
        Observation(state: "S", syscall: 7, kind: .poll, descriptors: [.socket, .socket], wait: .network),
        Observation(state: "S", syscall: 7, kind: .poll, descriptors: [.pipe, .socket], wait: .event),
        Observation(state: "S", syscall: 7, kind: .poll, descriptors: [.pipe], wait: .event),
        Observation(state: "S", syscall: 7, kind: .poll, descriptors: [], wait: .event),
        Observation(state: "S", syscall: 7, kind: .poll, descriptors: [.file], wait: .disk),
        // Calls that say what they wait on.
        Observation(state: "S", syscall: 232, kind: .event, descriptors: [], wait: .event),
        Observation(state: "D", syscall: 74, kind: .disk, descriptors: [], wait: .disk),
        Observation(state: "S", syscall: 202, kind: .lock, descriptors: [], wait: .lock),
        Observation(state: "S", syscall: 230, kind: .sleep(requestArgument: 2), descriptors: [], wait: .sleep),
        Observation(state: "S", syscall: 61, kind: .process(waitid: false), descriptors: [], wait: .process),
        Observation(state: "S", syscall: 39, kind: .other, descriptors: [], wait: .other),
        Observation(state: "D", syscall: 39, kind: .other, descriptors: [], wait: .disk),
    ]

    @Test(arguments: observations)
    func classify(_ observation: Observation) {
        let wait = BlockingClassifier.classify(
            state: UInt8(ascii: observation.state.unicodeScalars.first!), syscall: observation.syscall,
            kind: observation.kind, descriptors: observation.descriptors)
        #expect(wait == observation.wait)
    }

    static let linkTargets: [(String, Descriptor)] = [
        ("socket:[184467]", .socket),
        ("pipe:[99121]", .pipe),
        ("/home/user/.cache/launchprof-sample/catalog.json", .file),
        ("/tmp/a file with spaces (deleted)", .file),
        ("/dev/sda", .blockDevice),
        ("/dev/vda1", .blockDevice),
        ("/dev/nvme0n1p2", .blockDevice),
        ("/dev/xvda", .blockDevice),
        ("/dev/mmcblk0p1", .blockDevice),
        ("/dev/dm-0", .blockDevice),
        ("/dev/loop3", .blockDevice),
        ("/dev/null", .other),
        ("/dev/pts/0", .other),
        ("anon_inode:[eventfd]", .other),
        ("", .other),
    ]

    @Test(arguments: linkTargets)
    func descriptorKind(_ linkTarget: String, _ kind: Descriptor) {
        #expect(BlockingClassifier.descriptorKind(linkTarget: linkTarget) == kind)
    }

    @Test func realDescriptorsAreTold() throws {
        let scratch = ScratchDirectory("lp-fd")
        defer { withExtendedLifetime(scratch) {} }  // the file's link must not read "(deleted)"
        let file = try #require(FileHandle(forReadingAtPath: try scratch.write("x", to: "file")))
        defer { try? file.close() }
        let pipe = System.makePipe()
        let socket = System.makeSocket()
        defer {
            System.closeDescriptor(pipe.read)
            System.closeDescriptor(pipe.write)
            System.closeDescriptor(socket)
        }
        func kind(_ fd: Int32) throws -> Descriptor {
            BlockingClassifier.descriptorKind(linkTarget: try #require(System.linkTarget("/proc/self/fd/\(fd)")))
        }
        #expect(try kind(file.fileDescriptor) == .file)
        #expect(try kind(pipe.read) == .pipe)
        #expect(try kind(pipe.write) == .pipe)
        #expect(try kind(socket) == .socket)
    }

    @Test func syscallNumbersOfThisArchitecture() {
        var expected: [Int32: Kind] = [-1: .other, 100_000: .other]
        #if arch(x86_64)
            expected.merge([
                0: .descriptorIO, 1: .descriptorIO, 17: .descriptorIO, 42: .descriptorIO, 43: .descriptorIO,
                45: .descriptorIO,
                74: .disk(pathArgument: nil, descriptorArgument: true),
                257: .disk(pathArgument: 1, descriptorArgument: false),
                2: .disk(pathArgument: 0, descriptorArgument: false), 162: .disk, 202: .lock,
                35: .sleep(requestArgument: 0), 230: .sleep(requestArgument: 2), 7: .poll, 271: .poll, 232: .event,
                23: .event,
                61: .process(waitid: false), 247: .process(waitid: true), 56: .process(waitid: false), 39: .other,
                60: .other,
            ]) { $1 }
        #elseif arch(arm64)
            expected.merge([
                63: .descriptorIO, 64: .descriptorIO, 67: .descriptorIO, 203: .descriptorIO, 202: .descriptorIO,
                207: .descriptorIO,
                82: .disk(pathArgument: nil, descriptorArgument: true),
                56: .disk(pathArgument: 1, descriptorArgument: false),
                98: .lock, 101: .sleep(requestArgument: 0), 115: .sleep(requestArgument: 2), 73: .poll, 22: .event,
                260: .process(waitid: false), 95: .process(waitid: true), 172: .other, 93: .other,
            ]) { $1 }
        #endif
        for (number, kind) in expected {
            #expect(BlockingClassifier.kind(ofSyscall: number) == kind, "syscall \(number)")
        }
    }
}

/// Real work on a real thread, sampled every 0.5 ms: most samples of each
/// activity land in its class. Serialized so the activities do not compete for
/// the machine's cores with each other.
@Suite("Blocking classifier: sampled activities", .serialized)
struct SampledActivityTests {
    /// Enough samples to speak of a majority (a run lasts about 80–250 ms; on a
    /// busy machine a run may need repeating to get them).
    static let minimumSamples = 30

    func check(_ activity: SampledActivity, is wait: ThreadSample.Wait) {
        #expect(activity.samples.count >= Self.minimumSamples, "\(activity)")
        #expect(activity.majority == wait, "\(activity)")
        #expect(activity.share(wait) > 0.5, "\(activity)")
    }

    /// Where each test's files go; removed after the test.
    let scratch = ScratchDirectory("lp-disk")

    /// A 64 MiB file written, forced to disk and dropped from the page cache.
    func uncachedFile() throws -> String {
        let path = scratch.file("cold.bin")
        let cached = try System.writeUncachedFile(path, megabytes: 64)
        try #require(
            cached < 0.05, "the kernel kept \(Int(cached * 100))% of the file cached after POSIX_FADV_DONTNEED")
        return path
    }

    @Test func readingAFileFromTheDeviceIsDisk() throws {
        let path = try uncachedFile()
        let bytesRead = Locked<[Int]>([])
        let reader = System.DirectReader(capacity: 64 << 20)
        let activity = SampledActivity.run(minimumSamples: Self.minimumSamples) {
            bytesRead.value.append(reader.readAll(path))
        }
        #expect(bytesRead.value.allSatisfy { $0 == 64 << 20 }, "\(bytesRead.value)")
        check(activity, is: .disk)
    }

    /// Read in order through the page cache, the kernel reads ahead while the
    /// thread copies what already arrived: on a fast disk, or a busy machine, the
    /// thread runs or waits for a core much of the time. Its waits are still all
    /// disk, and never anything else.
    @Test func readingAFileThatIsNotCachedWaitsOnlyOnDisk() throws {
        let path = try uncachedFile()
        let bytesRead = Locked<[Int]>([])
        let activity = SampledActivity.run(minimumSamples: Self.minimumSamples, before: { _ = try? System.evict(path) })
        {
            bytesRead.value.append(System.readWholeFile(path))
        }
        #expect(bytesRead.value.allSatisfy { $0 == 64 << 20 }, "\(bytesRead.value)")
        #expect(activity.samples.count >= Self.minimumSamples, "\(activity)")
        #expect(Set(activity.samples.map(\.wait)).isSubset(of: [.disk, .none]), "\(activity)")
        #expect(activity.counts[.disk, default: 0] > 0, "\(activity)")
    }

    @Test func waitingForALoopbackServerIsNetwork() throws {
        let response = Array("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}".utf8)
        let server = try System.startLoopbackServer(latencyMilliseconds: 100, response: response)
        defer { server.stop() }
        let answers = Locked<[[UInt8]]>([])
        let activity = SampledActivity.run(minimumSamples: Self.minimumSamples) {
            answers.value.append(
                System.exchange(port: server.port, request: Array("GET /config HTTP/1.0\r\n\r\n".utf8)))
        }
        #expect(answers.value.allSatisfy { $0 == response })
        check(activity, is: .network)
    }

    @Test func waitingOnASemaphoreIsLock() {
        let signalled = Locked(0)
        let activity = SampledActivity.run(minimumSamples: Self.minimumSamples) {
            let semaphore = DispatchSemaphore(value: 0)
            Thread {
                System.sleepInNanosleep(milliseconds: 80)  // the other thread's work
                signalled.withLock { $0 += 1 }
                semaphore.signal()
            }.start()
            semaphore.wait()
        }
        #expect(signalled.value == activity.runs)
        check(activity, is: .lock)
    }

    @Test func nanosleepIsSleepAndNamesItsLength() {
        let activity = SampledActivity.run(minimumSamples: Self.minimumSamples) {
            System.sleepInNanosleep(milliseconds: 80)
        }
        check(activity, is: .sleep)
        let named = Set(activity.samples.filter { $0.wait == .sleep }.compactMap(\.target))
        #expect(named == [WaitTarget(kind: .sleep, name: "80 ms")], "\(named)")
    }

    @Test func readingAPipeIsIPCAndNamesIt() {
        let activity = SampledActivity.run(minimumSamples: Self.minimumSamples) {
            let pipe = System.makePipe()
            Thread {
                System.sleepInNanosleep(milliseconds: 80)  // the other end's work
                System.writeByte(pipe.write)
            }.start()
            System.readByte(pipe.read)
            System.closeDescriptor(pipe.read)
            System.closeDescriptor(pipe.write)
        }
        check(activity, is: .ipc)
        let named = Set(activity.samples.filter { $0.wait == .ipc }.compactMap(\.target))
        #expect(named == [WaitTarget(kind: .pipe, name: "pipe")], "\(named)")
    }

    @Test func waitingForAChildIsProcessAndNamesItsCommand() throws {
        // posix_spawn, not Foundation's Process: Process.run's own work on this thread
        // (which a busy machine stretches) would count against the share of waiting.
        let activity = SampledActivity.run(minimumSamples: Self.minimumSamples) {
            guard let child = System.spawn("/bin/sleep", ["0.08"]) else { return }
            System.waitForChild(child)
        }
        #expect(activity.counts[.process, default: 0] > activity.samples.count / 2, "\(activity)")
        let named = Set(activity.samples.filter { $0.wait == .process }.compactMap(\.target))
        // By its command line while it runs; by its command's name once it has exited and
        // waits to be reaped (all a sample finds when the machine is busy for the 80 ms).
        #expect(
            !named.isEmpty
                && named.isSubset(of: [
                    WaitTarget(kind: .process, name: "/bin/sleep 0.08"), WaitTarget(kind: .process, name: "sleep"),
                ]),
            "\(named)")
    }

    @Test func aCPULoopIsNotWaiting() {
        let result = Locked<UInt64>(0)
        let activity = SampledActivity.run(minimumSamples: Self.minimumSamples) {
            let end = System.monotonicNanoseconds + 80_000_000
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            while System.monotonicNanoseconds < end {
                for byte in UInt8(0)..<255 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            }
            result.value = hash
        }
        #expect(result.value != 0)
        check(activity, is: .none)
        let waiting = activity.share(.disk) + activity.share(.network) + activity.share(.lock) + activity.share(.sleep)
        #expect(waiting < 0.2, "\(activity)")
    }
}

extension SampledActivityTests {
    /// A fixed amount of CPU work (no waits): about 30 ms here.
    static func compute() -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for round in 0..<3_000_000 { hash = (hash ^ UInt64(truncatingIfNeeded: round)) &* 0x100_0000_01B3 }
        return hash
    }

    /// Looking at the thread's own switches while it runs, the harness's sampler takes next to no
    /// samples while the thread computes (it said only "running", which accounting
    /// measures), and samples its waits as the periodic sampler does. Where the
    /// system offers no switch watch it falls back to sampling every period.
    @Test func aSamplerThatSleepsWhileTheThreadRunsStillSamplesItsWaits() {
        // Whether the system allows the watch is known once a sampler has run (it opens it on its own thread).
        let probe = MainThreadSampler(
            threadID: MainThreadSampler.currentThreadID, intervalMicroseconds: 500, sleepsWhileRunning: true)
        probe.start()
        _ = probe.stop()
        let watched = probe.sleepsWhileRunning
        let result = Locked<UInt64>(0)
        let activity = SampledActivity.run(minimumSamples: Self.minimumSamples, sleepsWhileRunning: true) {
            for _ in 0..<2 {
                result.value &+= Self.compute()
                usleep(30_000)
            }
        }
        #expect(result.value != 0)
        let sleeping = activity.counts[.sleep, default: 0]
        let running = activity.counts[.none, default: 0]
        #expect(sleeping >= Self.minimumSamples / 2, "\(activity)")
        if watched {
            // Running samples come only from the first look, and from a thread woken from its
            // sleep but not yet on a core when sampled (once each: it is not sampled again until it switches).
            #expect(running <= 1 + 2 * 2 * activity.runs, "\(activity)")
        } else {
            #expect(running > 0, "\(activity)")
        }
    }
}

@Suite("Sampler lifecycle")
struct SamplerLifecycleTests {
    @Test func stoppingASamplerThatNeverStartedReturnsNothing() {
        let sampler = MainThreadSampler(threadID: MainThreadSampler.currentThreadID, intervalMicroseconds: 1_000)
        #expect(sampler.stop().isEmpty)
    }
}
