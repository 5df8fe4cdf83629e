#if os(Linux)
    import Foundation
    import LaunchTracing

    /// One launch defect, and the advisor rule it must get when done on the main thread.
    enum Defect: String, CaseIterable {
        /// Reads a file with O_DIRECT, block by block, past the page cache (MS: time blocked).
        case diskRead = "disk-read"
        /// Writes and `fdatasync`s a file, block by block (MS: time blocked).
        case diskWrite = "disk-write"
        /// Touches pages of a mapped file evicted from the page cache: major faults (MS: time blocked).
        case majorFaults = "major-faults"
        /// A request to a TCP server on the loopback that answers MS after it.
        case network
        /// Takes a mutex another thread holds, computing, until MS after the main thread asks for it.
        case lock
        /// Sleeps MS.
        case sleep
        /// Sleeps MS in twenty equal sleeps (2 ms: twenty of 0.1 ms), each too short to be seen alone.
        case shortSleeps = "short-sleeps"
        /// Runs `/bin/sleep` for MS and waits for it.
        case process
        /// Reads a pipe another thread writes MS later.
        case pipe
        /// Reads a named pipe (FIFO) another thread writes MS later.
        case fifo
        /// Reads a local socket pair another thread writes MS later.
        case localSocket = "local-socket"
        /// `epoll_wait` on an eventfd another thread signals MS later.
        case epoll
        /// `poll` on a pipe and an eventfd, one of them written MS later.
        case poll
        /// Reads an eventfd another thread signals MS later: a wait the sampler cannot name.
        case eventfd
        /// MS of CPU work the first frame does not need, in a launch over its budget.
        case cpuOverBudget = "cpu-over-budget"
        /// MS of CPU work the first frame needs, in a launch over its budget.
        case requiredCPUOverBudget = "required-cpu-over-budget"
        /// MS of CPU work in a launch comfortably inside its budget.
        case cpuInsideBudget = "cpu-inside-budget"
        /// MS of CPU work while three other threads compete for the two cores: run-queue wait, not blocking.
        case cpuContention = "cpu-contention"

        /// The budget the app declares: tight for the over-budget cases.
        var budget: LaunchBudget {
            switch self {
            case .cpuOverBudget: return LaunchBudget(timeToFirstFrameMs: 20)
            // Roomy, so the launch is comfortably inside it (first frame under half) even on a busy machine,
            // while the suite's 120 ms of CPU is over 5% of it: a warning by its share, `info` by what is at stake.
            case .cpuInsideBudget: return LaunchBudget(timeToFirstFrameMs: 2000)
            // Roomy too: what this case checks is that waiting for a core is not called blocking.
            case .cpuContention: return LaunchBudget(timeToFirstFrameMs: 800)
            case .requiredCPUOverBudget: return LaunchBudget(timeToFirstFrameMs: 20, requiredForFirstFrame: ["Defect"])
            default: return LaunchBudget(timeToFirstFrameMs: 400)
            }
        }
    }

    /// A defect ready to run: its files set up before the launch's span.
    final class Prepared: @unchecked Sendable {
        let defect: Defect
        let nanoseconds: UInt64
        let scratch: String

        init(defect: Defect, milliseconds: Double, scratch: String) {
            self.defect = defect
            self.nanoseconds = UInt64(milliseconds * 1_000_000)
            self.scratch = scratch
            switch defect {
            case .diskRead: DefectSystem.prepareFile(path + ".data", bytes: 16 << 20)
            case .majorFaults: DefectSystem.prepareFile(path + ".data", bytes: 64 << 20)
            default: break
            }
        }

        private var path: String { scratch + "/" + defect.rawValue }

        /// Does the defect, on the calling thread.
        func run() {
            switch defect {
            case .diskRead: DefectSystem.readDirect(path + ".data", blockedFor: nanoseconds)
            case .diskWrite: DefectSystem.writeSynchronously(path + ".journal", blockedFor: nanoseconds)
            case .majorFaults: DefectSystem.touchEvictedPages(path + ".data", blockedFor: nanoseconds)
            case .network: DefectSystem.request(answeredAfter: nanoseconds)
            case .lock: DefectSystem.takeLockHeld(for: nanoseconds)
            case .sleep: usleep(useconds_t(nanoseconds / 1_000))
            case .shortSleeps: for _ in 0..<20 { usleep(useconds_t(nanoseconds / 20_000)) }
            case .process: DefectSystem.runChild(seconds: Double(nanoseconds) / 1e9)
            case .pipe: DefectSystem.readPipe(writtenAfter: nanoseconds)
            case .fifo: DefectSystem.readFIFO(path + ".fifo", writtenAfter: nanoseconds)
            case .localSocket: DefectSystem.readSocketPair(writtenAfter: nanoseconds)
            case .epoll: DefectSystem.epollEventFD(signalledAfter: nanoseconds)
            case .poll: DefectSystem.pollPipeAndEventFD(writtenAfter: nanoseconds)
            case .eventfd: DefectSystem.readEventFD(signalledAfter: nanoseconds)
            case .cpuOverBudget, .requiredCPUOverBudget, .cpuInsideBudget:
                DefectSystem.compute(cpuNanoseconds: nanoseconds)
            case .cpuContention:
                let rivals = DefectSystem.startSpinners(3)
                DefectSystem.compute(cpuNanoseconds: nanoseconds)
                rivals.stop()
            }
        }
    }
#endif
