// Watching the sampled thread leave the CPU, so the sampler samples only once it has blocked.

import _LaunchTracingShims

extension Platform {
    /// A watch on a thread of this process switching off and on the CPU (Linux: a
    /// perf event's context-switch records). The kernel does not wake its reader (only
    /// once per ring's worth of records, about two thousand switches): it looks at the
    /// records from memory once a period (``look(afterNanoseconds:)``). Woken at each
    /// switch, as it was until issue 36's tenth round, the reader cost a 30 ms launch
    /// about 0.1 ms more on a 2-core virtual machine (Benchmarks/RESULTS.md).
    final class SwitchWatch: @unchecked Sendable {
        /// What the watch last saw of the thread.
        enum State {
            /// Off the CPU by its own doing: blocked in a call, a fault, a lock.
            case blocked
            /// Running, or runnable (preempted: waiting for a core, which accounting measures).
            case running
            /// Nothing seen yet, or records were lost.
            case unknown
            /// A wait ended by ``interrupt()``.
            case interrupted
        }

        private let watch: OpaquePointer

        /// Watches thread `threadID`, last seen on CPU `cpu` (-1: not known). Nil where
        /// the system offers no such watch (another OS, perf events forbidden,
        /// valgrind): the sampler then samples every period.
        ///
        /// Opening one can take milliseconds (Linux turns its context-switch hooks on
        /// for the first such watch on the machine, and off a second after the last
        /// closes, and waits for every CPU to see it), so the sampler opens it on its
        /// own thread, never on the thread it watches.
        init?(threadID: UInt64, cpu: Int32) {
            guard let watch = lp_switch_watch_open(threadID, cpu) else { return nil }
            self.watch = watch
        }

        deinit { lp_switch_watch_close(watch) }

        /// The state the switches since the last look say, without waiting.
        func drain() -> State { Self.state(lp_switch_watch_drain(watch)) }

        /// Sleeps `nanoseconds` (or until ``interrupt()``), then looks as ``drain()`` does.
        func look(afterNanoseconds nanoseconds: UInt64) -> State {
            Self.state(lp_switch_watch_look_after(watch, Int64(clamping: nanoseconds)))
        }

        /// The switches read so far (by ``drain()`` and ``look(afterNanoseconds:)``).
        var switches: UInt64 { lp_switch_watch_switches(watch) }

        /// Keeps the calling thread (the reader) off the CPU the watched thread last ran
        /// on, so that the reader's wake-ups do not preempt it. It moves only when it runs on
        /// that CPU (a move preempts the CPU it leaves); otherwise it costs a `sched_getcpu`.
        func keepAway() { lp_switch_watch_keep_away(watch) }

        /// Ends the current or the next wait. Any thread.
        func interrupt() { lp_switch_watch_interrupt(watch) }

        private static func state(_ raw: Int32) -> State {
            switch raw {
            case Int32(LP_SWITCH_BLOCKED): return .blocked
            case Int32(LP_SWITCH_RUNNING): return .running
            case Int32(LP_SWITCH_INTERRUPTED): return .interrupted
            default: return .unknown
            }
        }
    }
}
