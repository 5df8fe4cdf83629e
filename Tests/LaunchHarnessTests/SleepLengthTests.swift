#if os(Linux)
    import Glibc
    @testable import LaunchHarness
    import LaunchTracing
    import Testing

    /// The sampler reads a sleep's request from the sleeping thread's memory after the
    /// fact, when the stack may hold anything: no content makes it trap.
    @Suite("Sampler: a sleep's requested length")
    struct SleepLengthTests {
        func length(seconds: Int, nanoseconds: Int) -> WaitTarget? {
            var request = timespec(tv_sec: seconds, tv_nsec: nanoseconds)
            return withUnsafePointer(to: &request) { pointer in
                Platform.sleepLength(address: UInt64(UInt(bitPattern: pointer)), deadlineOn: nil)
            }
        }

        @Test func aRequestIsNamedByItsLength() {
            #expect(length(seconds: 0, nanoseconds: 5_000_000) == WaitTarget(kind: .sleep, name: "5 ms"))
        }

        @Test func garbageIsNotARequest() {
            // Found by a crash: a reused stack gave a tv_sec whose nanoseconds overflow 64 bits.
            #expect(length(seconds: Int(bitPattern: 0x7FFF_FFFF_FFFF_FFFF), nanoseconds: 0) == nil)
            #expect(length(seconds: 207_873_595_000, nanoseconds: 0) == nil)
            #expect(length(seconds: 1, nanoseconds: 1_000_000_000) == nil)
            #expect(length(seconds: -1, nanoseconds: 0) == nil)
        }
    }
#endif
