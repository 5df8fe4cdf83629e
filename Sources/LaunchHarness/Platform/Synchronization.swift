// A condition variable on the monotonic clock, and the flag and semaphore built on it.

import LaunchTracing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("Unsupported Platform")
#endif

extension Platform {
    /// A mutex with a condition variable on CLOCK_MONOTONIC.
    final class Condition: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

        init() {
            pthread_mutex_init(mutex, nil)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            #if os(Linux)
                pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            #endif
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        func withLock<T>(_ body: () throws -> T) rethrows -> T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body()
        }

        /// Call with the lock held.
        func signal() { pthread_cond_broadcast(condition) }

        /// Call with the lock held. False when the deadline passed.
        func wait(untilMonotonic deadline: UInt64) -> Bool {
            #if os(Linux)
                var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
                return pthread_cond_timedwait(condition, mutex, &target) != ETIMEDOUT
            #else
                let now = MonotonicClock.nanoseconds
                guard deadline > now else { return false }
                var relative = timespec(
                    tv_sec: Int((deadline - now) / 1_000_000_000), tv_nsec: Int((deadline - now) % 1_000_000_000))
                return pthread_cond_timedwait_relative_np(condition, mutex, &relative) != ETIMEDOUT
            #endif
        }
    }

    /// A flag set once by one thread and read by another.
    struct AtomicFlag: @unchecked Sendable {
        private let storage = Condition()
        private let value = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        init() { value.initialize(to: false) }
        func set() { storage.withLock { value.pointee = true } }
        var isSet: Bool { storage.withLock { value.pointee } }
    }

    /// A counting semaphore.
    struct Semaphore: @unchecked Sendable {
        private let storage = Condition()
        private let count = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        init() { count.initialize(to: 0) }
        func signal() {
            storage.withLock {
                count.pointee += 1
                storage.signal()
            }
        }
        func wait() {
            storage.withLock {
                while count.pointee == 0 { _ = storage.wait(untilMonotonic: MonotonicClock.nanoseconds + 100_000_000) }
                count.pointee -= 1
            }
        }
    }
}
