/// Whether an ELF binary carries DWARF debug information (a `.debug_info`
/// section): valgrind 3.19 gives up on some of the DWARF 5 LLVM writes
/// ("debuginfo reader: Possibly corrupted debuginfo file"), so such a binary is
/// probed before it is counted (``InstructionCounter/debugInfoFailure(_:)``).
enum ELFDebugInfo {
    /// True when `path` is a 64-bit little-endian ELF file with a `.debug_info`
    /// section; false for anything else (a script, a stripped binary, unreadable).
    static func present(in path: String) -> Bool {
        guard let header = Platform.bytes(of: path, at: 0, count: 64),
            header[0...3] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1
        else {
            return false
        }
        func integer(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
        }
        let sectionOffset = integer(header, 0x28, 8)
        let entrySize = Int(integer(header, 0x3A, 2))
        let count = Int(integer(header, 0x3C, 2))
        let namesIndex = Int(integer(header, 0x3E, 2))
        // An ELF64 section header is 0x40 bytes: anything else is not a file to trust with a read size.
        guard entrySize == 0x40, count > 0, count < 65_280, namesIndex < count,
            let table = Platform.bytes(of: path, at: sectionOffset, count: entrySize * count)
        else { return false }
        let namesOffset = integer(table, namesIndex * entrySize + 0x18, 8)
        let namesSize = Int(min(integer(table, namesIndex * entrySize + 0x20, 8), 1 << 20))
        guard let names = Platform.bytes(of: path, at: namesOffset, count: namesSize) else { return false }
        let wanted = Array(".debug_info".utf8) + [0]
        for index in 0..<count {
            let start = Int(integer(table, index * entrySize, 4))
            guard start + wanted.count <= names.count else { continue }
            if names[start..<start + wanted.count].elementsEqual(wanted) { return true }
        }
        return false
    }
}
