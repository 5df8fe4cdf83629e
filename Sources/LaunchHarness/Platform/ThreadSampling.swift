// Sampling another thread of this process: its procfs state and system call,
// what its descriptors are, and this architecture's system call numbers.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif
import LaunchTracing

extension Platform {
    /// What one read of a thread's procfs files said.
    struct Observation {
        var nanoseconds: UInt64
        var state: UInt8
        var syscall: Int32
        var arguments: (UInt64, UInt64)
    }

    /// Open descriptors on `/proc/self/task/<tid>/stat` and `.../syscall`, re-read
    /// with `pread` at offset 0 (procfs regenerates them on every read).
    final class ThreadProbe {
        private let statFD: Int32
        private let syscallFD: Int32
        private var buffer = [UInt8](repeating: 0, count: 1_024)

        init?(threadID: UInt64) {
            #if os(Linux)
            statFD = open("/proc/self/task/\(threadID)/stat", O_RDONLY | O_CLOEXEC)
            syscallFD = open("/proc/self/task/\(threadID)/syscall", O_RDONLY | O_CLOEXEC)
            guard statFD >= 0 else { return nil }
            #else
            return nil
            #endif
        }

        deinit {
            if statFD >= 0 { close(statFD) }
            if syscallFD >= 0 { close(syscallFD) }
        }

        func observe() -> Observation? {
            let now = MonotonicClock.nanoseconds
            guard let stat = read(statFD), let close = stat.lastIndex(of: UInt8(ascii: ")")),
                  close + 2 < stat.count else { return nil }
            var observation = Observation(nanoseconds: now, state: stat[close + 2], syscall: -1, arguments: (0, 0))
            guard observation.state != UInt8(ascii: "R"), syscallFD >= 0, let text = read(syscallFD) else {
                return observation
            }
            // "running" or "<nr> 0x<arg1> … 0x<sp> 0x<pc>"; "-1 …" when blocked outside a syscall.
            let fields = text.split(separator: UInt8(ascii: " "))
            guard let first = fields.first, let number = Int32(String(decoding: first, as: UTF8.self)) else {
                return observation
            }
            observation.syscall = number
            func hex(_ index: Int) -> UInt64 {
                guard index < fields.count else { return 0 }
                let digits = fields[index].starts(with: Array("0x".utf8)) ? fields[index].dropFirst(2) : fields[index]
                return UInt64(String(decoding: digits, as: UTF8.self), radix: 16) ?? 0
            }
            observation.arguments = (hex(1), hex(2))
            return observation
        }

        private func read(_ fd: Int32) -> ArraySlice<UInt8>? {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            var end = count
            while end > 0, buffer[end - 1] == 0x0A { end -= 1 }
            return buffer[0..<end]
        }
    }

    /// The kind of descriptor `fd` of this process is.
    static func descriptorKind(_ fd: Int32) -> BlockingClassifier.DescriptorKind {
        guard fd >= 0 else { return .other }
        var target = [CChar](repeating: 0, count: 512)
        let count = readlink("/proc/self/fd/\(fd)", &target, target.count - 1)
        guard count > 0 else { return .other }
        let text = String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return BlockingClassifier.descriptorKind(linkTarget: text)
    }

    /// The kinds of the first few descriptors of a `pollfd` array in this
    /// process's memory (the blocked thread's own argument to `poll`).
    static func pollDescriptorKinds(address: UInt, count: Int) -> [BlockingClassifier.DescriptorKind] {
        guard address != 0, address % 4 == 0, count > 0, count < 4_096,
              let pointer = UnsafePointer<pollfd>(bitPattern: address) else { return [] }
        return (0..<min(count, 4)).map { descriptorKind(pointer[$0].fd) }
    }

    /// System call numbers and what they do, for this architecture.
    static let syscallKinds: [Int32: BlockingClassifier.SyscallKind] = {
        typealias Kind = BlockingClassifier.SyscallKind
        var table: [Int32: Kind] = [:]
        #if os(Linux) && arch(x86_64)
        for number in [0, 1, 17, 18, 19, 20, 295, 296, 327, 328, 40, 326, 275, 276] { table[Int32(number)] = .descriptorIO }
        for number in [42, 43, 288, 44, 45, 46, 47, 299, 307] { table[Int32(number)] = .network }
        for number in [2, 257, 437, 4, 5, 6, 262, 332, 74, 75, 277, 76, 77, 82, 316, 83, 258, 84, 87, 263, 217, 78, 26, 85] {
            table[Int32(number)] = .disk
        }
        for number in [202, 65, 220, 73, 449] { table[Int32(number)] = .lock }
        for number in [35, 230] { table[Int32(number)] = .sleep }
        for number in [7, 271, 23, 270] { table[Int32(number)] = .poll }
        #elseif os(Linux) && arch(arm64)
        for number in [63, 64, 67, 68, 65, 66, 69, 70, 286, 287, 71, 285, 76, 77] { table[Int32(number)] = .descriptorIO }
        for number in [203, 202, 242, 206, 207, 211, 212, 243, 269] { table[Int32(number)] = .network }
        for number in [56, 437, 79, 80, 291, 82, 83, 84, 45, 46, 38, 276, 34, 35, 61, 227] { table[Int32(number)] = .disk }
        for number in [98, 193, 192, 32, 449] { table[Int32(number)] = .lock }
        for number in [101, 115] { table[Int32(number)] = .sleep }
        for number in [73, 72] { table[Int32(number)] = .poll }
        #endif
        return table
    }()
}
