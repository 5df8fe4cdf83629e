import LaunchTracing

extension InstructionCounter {
    /// The processes valgrind ran for one counted launch: the process ids its logs
    /// (`output.<pid>.log`, one a valgrind process) prefix their lines with
    /// (`==1234==`). A process that forks under valgrind writes to its parent's log
    /// with its own id; one that execs a traced program opens a log of its own.
    ///
    /// ```swift
    /// InstructionCounter.launchProcesses(output: "/runs/base/counts-001/callgrind")  // [4102, 4105]
    /// ```
    package static func launchProcesses(output: String) -> Set<Int32> {
        let slash = output.lastIndex(of: "/")!
        let folder = String(output[..<slash])
        let base = String(output[output.index(after: slash)...]) + "."
        var found = Set<Int32>()
        for entry in Platform.folderEntries(folder) ?? [] where entry.hasPrefix(base) && entry.hasSuffix(".log") {
            guard
                let bytes = try? BoundedFile.read(
                    folder + "/" + entry, limit: 1 << 24, followLinks: false, prefix: true)
            else { continue }
            for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: "==".utf8) {
                let digits = line.dropFirst(2).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                guard line.dropFirst(2 + digits.count).starts(with: "==".utf8),
                    let pid = Int32(String(decoding: digits, as: UTF8.self))
                else { continue }
                found.insert(pid)
            }
        }
        return found
    }
}
