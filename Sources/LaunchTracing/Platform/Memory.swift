// The tracer's event buffers: memory mapped resident up front.

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
    /// Maps `bytes` of zeroed, already-resident memory (MAP_POPULATE on Linux;
    /// touched page by page elsewhere), so the hot path never takes a page fault.
    static func allocateResident(bytes: Int) -> UnsafeMutableRawPointer? {
        guard bytes > 0 else { return nil }
        #if os(Linux)
        let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE
        #else
        let flags = MAP_PRIVATE | MAP_ANON
        #endif
        guard let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, flags, -1, 0),
              memory != MAP_FAILED else { return nil }
        #if !os(Linux)
        let page = Int(getpagesize())
        var offset = 0
        while offset < bytes {
            memory.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
            offset += page
        }
        #endif
        return memory
    }

    static func release(_ memory: UnsafeMutableRawPointer, bytes: Int) {
        munmap(memory, bytes)
    }
}
