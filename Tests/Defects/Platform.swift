// Every system call the defect app makes, in one place.

// The defect suite runs on Linux (its waits are Linux system calls); elsewhere the
// app only says so.
#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
    import Foundation
    import _DefectShims

    /// The defects' real system calls, and the partner threads that end each wait.
    enum DefectSystem {
        static func now() -> UInt64 {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        }

        static func sleep(until deadline: UInt64) {
            var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
        }

        /// How long the calling thread has been off the CPU by its own doing since it
        /// started: wall − CPU − run-queue wait. The disk defects loop until it grew by
        /// their size, so a busy machine's contention does not shrink the defect.
        final class BlockedClock {
            private let schedstat = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)
            private var start: UInt64 = 0
            init() { start = reading() }
            deinit { if schedstat >= 0 { close(schedstat) } }

            /// Blocked nanoseconds since `init`. The run-queue wait is kept on the
            /// scheduler's clock, which drifts from CLOCK_MONOTONIC by a little: never below 0.
            var elapsed: UInt64 { UInt64(max(0, Int64(bitPattern: reading()) - Int64(bitPattern: start))) }

            private func reading() -> UInt64 {
                var time = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
                let cpu = UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
                var text = [UInt8](repeating: 0, count: 96)
                let count =
                    schedstat >= 0 ? text.withUnsafeMutableBytes { pread(schedstat, $0.baseAddress, $0.count, 0) } : 0
                let fields = count > 0 ? String(decoding: text[0..<count], as: UTF8.self).split(separator: " ") : []
                let runQueue = fields.count > 1 ? UInt64(fields[1]) ?? 0 : 0
                return now() &- cpu &- runQueue
            }
        }

        static func fail(_ message: String) -> Never {
            FileHandle.standardError.write(Data("launchprof-defects: \(message) (errno \(errno))\n".utf8))
            exit(3)
        }

        /// Runs `body` on a new thread (a partner that ends the main thread's wait).
        static func partner(_ body: @escaping @Sendable () -> Void) {
            let thread = Thread(block: body)
            thread.start()
        }

        /// The main thread's word to its partner that it is about to block: the
        /// partner ends the wait `nanoseconds` after that, not after a deadline set
        /// earlier, so on a busy machine a main thread that waited for a core first
        /// still blocks for the whole defect.
        final class Cue: @unchecked Sendable {
            private let semaphore = DispatchSemaphore(value: 0)
            let nanoseconds: UInt64
            init(_ nanoseconds: UInt64) { self.nanoseconds = nanoseconds }
            /// Main thread, just before the blocking call.
            func blocking() { semaphore.signal() }
            /// Partner: returns when the main thread said it blocks.
            func awaitBlocking() { semaphore.wait() }
            /// Partner: returns `nanoseconds` after the main thread said it blocks.
            func waitOut() {
                awaitBlocking()
                DefectSystem.sleep(until: DefectSystem.now() + nanoseconds)
            }
        }

        // MARK: Disk

        /// Makes `path` hold `bytes` of data (once: kept between launches), and drops
        /// it from the page cache.
        static func prepareFile(_ path: String, bytes: Int) {
            var status = stat()
            if stat(path, &status) != 0 || Int(status.st_size) != bytes {
                let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard fd >= 0 else { fail("cannot create \(path)") }
                let block = [UInt8](repeating: 0x5A, count: 1 << 20)
                for _ in 0..<(bytes >> 20) { _ = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
                fsync(fd)
                close(fd)
            }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { fail("cannot open \(path)") }
            fdatasync(fd)
            _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
            close(fd)
        }

        /// Reads 4 KiB blocks of `path` with O_DIRECT (past the page cache) until blocked for `nanoseconds`.
        static func readDirect(_ path: String, blockedFor nanoseconds: UInt64) {
            let blocked = BlockedClock()
            let fd = defects_open_direct(path)
            guard fd >= 0 else { fail("cannot open \(path) with O_DIRECT") }
            defer { close(fd) }
            guard let buffer = UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: aligned(4_096, 4_096))) else {
                fail("no memory")
            }
            defer { free(buffer) }
            var offset: off_t = 0
            let blocks: off_t = (16 << 20) / 4_096
            repeat {
                guard pread(fd, buffer, 4_096, offset * 4_096) == 4_096 else { fail("cannot read \(path)") }
                offset = (offset &* 7_919 &+ 13) % blocks  // scattered, as a lookup is
            } while blocked.elapsed < nanoseconds
        }

        private static func aligned(_ alignment: Int, _ size: Int) -> UnsafeMutableRawPointer? {
            var pointer: UnsafeMutableRawPointer?
            return posix_memalign(&pointer, alignment, size) == 0 ? pointer : nil
        }

        /// Writes 4 KiB and `fdatasync`s it, again and again, until blocked for `nanoseconds`: a journal.
        static func writeSynchronously(_ path: String, blockedFor nanoseconds: UInt64) {
            let blocked = BlockedClock()
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { fail("cannot create \(path)") }
            defer { close(fd) }
            let block = [UInt8](repeating: 0x4A, count: 4_096)
            var offset: off_t = 0
            repeat {
                _ = block.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, offset) }
                guard fdatasync(fd) == 0 else { fail("cannot fdatasync \(path)") }
                offset = (offset + 4_096) % (1 << 20)
            } while blocked.elapsed < nanoseconds
        }

        /// Maps `path` (dropped from the page cache) and touches one byte a page, in a
        /// scattered order with read-ahead off, until blocked for `nanoseconds`: each touch a major fault.
        static func touchEvictedPages(_ path: String, blockedFor nanoseconds: UInt64) {
            let blocked = BlockedClock()
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { fail("cannot open \(path)") }
            defer { close(fd) }
            let size = 64 << 20
            guard let map = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
                fail("cannot map \(path)")
            }
            defer { munmap(map, size) }
            madvise(map, size, MADV_RANDOM)
            let pages = size / 4_096
            var page = 0
            var sum: UInt8 = 0
            repeat {
                sum &+= map.load(fromByteOffset: page * 4_096, as: UInt8.self)
                page = (page &* 7_919 &+ 13) % pages
            } while blocked.elapsed < nanoseconds
            if sum == 1 { print("") }
        }

        // MARK: Network and local exchanges

        /// Sends a request to a loopback TCP server (in a partner thread) that answers `nanoseconds` after it, and reads the answer.
        static func request(answeredAfter nanoseconds: UInt64) {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let listening = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listener, $0, length) == 0 && listen(listener, 4) == 0
                        && getsockname(listener, $0, &length) == 0
                }
            }
            guard listener >= 0, listening else { fail("cannot listen on the loopback") }
            partner {
                let client = accept(listener, nil, nil)
                var byte: UInt8 = 0
                _ = read(client, &byte, 1)
                sleep(until: now() + nanoseconds)  // the server's latency, from the request
                _ = write(client, "ok", 2)
                close(client)
                close(listener)
            }
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
            }
            guard connected == 0 else { fail("cannot connect") }
            _ = write(fd, "?", 1)
            var answer = [UInt8](repeating: 0, count: 16)
            while answer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
            close(fd)
        }

        /// Reads a pipe a partner writes `nanoseconds` after the read begins.
        static func readPipe(writtenAfter nanoseconds: UInt64) {
            let cue = Cue(nanoseconds)
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { fail("cannot make a pipe") }
            let writer = fds[1]
            partner {
                cue.waitOut()
                _ = write(writer, "x", 1)
            }
            var byte: UInt8 = 0
            cue.blocking()
            _ = read(fds[0], &byte, 1)
            close(fds[0])
            close(fds[1])
        }

        /// Reads a named pipe at `path` a partner writes `nanoseconds` after the read begins.
        static func readFIFO(_ path: String, writtenAfter nanoseconds: UInt64) {
            let cue = Cue(nanoseconds)
            unlink(path)
            guard mkfifo(path, 0o600) == 0 else { fail("cannot make the named pipe \(path)") }
            // Read-write, so opening does not wait for a writer and a read waits for data.
            let fd = open(path, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { fail("cannot open \(path)") }
            partner {
                cue.waitOut()
                let writer = open(path, O_WRONLY | O_CLOEXEC)
                _ = write(writer, "x", 1)
                close(writer)
            }
            var byte: UInt8 = 0
            cue.blocking()
            _ = read(fd, &byte, 1)
            close(fd)
            unlink(path)
        }

        /// Reads a local socket pair a partner writes `nanoseconds` after the read begins.
        static func readSocketPair(writtenAfter nanoseconds: UInt64) {
            let cue = Cue(nanoseconds)
            var fds: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
                fail("cannot make a socket pair")
            }
            let writer = fds[1]
            partner {
                cue.waitOut()
                _ = write(writer, "x", 1)
            }
            var byte: UInt8 = 0
            cue.blocking()
            _ = recv(fds[0], &byte, 1, 0)
            close(fds[0])
            close(fds[1])
        }

        /// An eventfd a partner signals when `cue` is waited out.
        private static func eventFD(signalledAfter cue: Cue) -> Int32 {
            let fd = defects_eventfd()
            guard fd >= 0 else { fail("cannot make an eventfd") }
            partner {
                cue.waitOut()
                var one: UInt64 = 1
                _ = write(fd, &one, 8)
            }
            return fd
        }

        /// `epoll_wait` on an eventfd signalled `nanoseconds` after the wait begins: an event loop's wait.
        static func epollEventFD(signalledAfter nanoseconds: UInt64) {
            let cue = Cue(nanoseconds)
            let fd = eventFD(signalledAfter: cue)
            let epoll = defects_epoll_watching(fd)
            guard epoll >= 0 else { fail("cannot make an epoll") }
            cue.blocking()
            _ = defects_epoll_wait_one(epoll)
            close(epoll)
            close(fd)
        }

        /// `poll` on a pipe and an eventfd; the pipe is written `nanoseconds` after the poll begins.
        static func pollPipeAndEventFD(writtenAfter nanoseconds: UInt64) {
            let cue = Cue(nanoseconds)
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { fail("cannot make a pipe") }
            let idle = defects_eventfd()
            let writer = fds[1]
            partner {
                cue.waitOut()
                _ = write(writer, "x", 1)
            }
            var polled = [
                pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0),
                pollfd(fd: idle, events: Int16(POLLIN), revents: 0),
            ]
            cue.blocking()
            while poll(&polled, 2, -1) == 0 {}
            close(fds[0])
            close(fds[1])
            close(idle)
        }

        /// Reads an eventfd signalled `nanoseconds` after the read begins.
        static func readEventFD(signalledAfter nanoseconds: UInt64) {
            let cue = Cue(nanoseconds)
            let fd = eventFD(signalledAfter: cue)
            var value: UInt64 = 0
            cue.blocking()
            _ = read(fd, &value, 8)
            close(fd)
        }

        // MARK: Locks and children

        /// Takes a mutex a partner holds, computing, until `nanoseconds` after the main thread asks for it.
        static func takeLockHeld(for nanoseconds: UInt64) {
            let cue = Cue(nanoseconds)
            let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
            let held = DispatchSemaphore(value: 0)
            nonisolated(unsafe) let shared = mutex
            partner {
                pthread_mutex_lock(shared)
                held.signal()
                var x: UInt64 = 1
                cue.awaitBlocking()
                let end = now() + cue.nanoseconds
                while now() < end { for _ in 0..<1_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 } }
                pthread_mutex_unlock(shared)
                if x == 0 { print("") }
            }
            held.wait()
            cue.blocking()
            pthread_mutex_lock(mutex)
            pthread_mutex_unlock(mutex)
        }

        /// Runs `/bin/sleep SECONDS` and waits for it (`waitpid`).
        static func runChild(seconds: Double) {
            var pid: pid_t = 0
            let argv: [String] = ["/bin/sleep", String(format: "%.3f", seconds)]
            var cArguments = argv.map { strdup($0) } + [nil]
            defer { for argument in cArguments { free(argument) } }
            guard posix_spawn(&pid, argv[0], nil, nil, &cArguments, environ) == 0 else { fail("cannot run /bin/sleep") }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }

        // MARK: CPU

        /// Computes until the calling thread has used `cpuNanoseconds` of CPU.
        static func compute(cpuNanoseconds: UInt64) {
            func cpu() -> UInt64 {
                var time = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
                return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
            }
            let end = cpu() + cpuNanoseconds
            var x: UInt64 = 1
            while cpu() < end { for _ in 0..<2_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 } }
            if x == 0 { print("") }
        }

        /// Threads that spin until stopped.
        final class Spinners: @unchecked Sendable {
            private let lock = NSLock()
            private var running = true
            var isRunning: Bool { lock.withLock { running } }
            /// Tells the threads to stop, without waiting for them.
            func stop() {
                lock.withLock { running = false }
            }
            func add(_ body: @escaping @Sendable () -> Void) {
                partner(body)
            }
        }

        /// Starts `count` threads that compute until stopped: rivals for the CPUs.
        static func startSpinners(_ count: Int) -> Spinners {
            let spinners = Spinners()
            for _ in 0..<count {
                spinners.add {
                    var x: UInt64 = 1
                    while spinners.isRunning { for _ in 0..<20_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 } }
                    if x == 0 { print("") }
                }
            }
            return spinners
        }
    }
#endif
