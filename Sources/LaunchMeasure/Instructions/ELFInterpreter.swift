/// The program interpreter an ELF executable names (`PT_INTERP`, the dynamic
/// loader: `/lib64/ld-linux-x86-64.so.2`): valgrind runs it with `--list` to read
/// a program's debug information without running any of the program's code.
enum ELFInterpreter {
    /// The interpreter `path` names, when it is a 64-bit little-endian ELF file
    /// with a `PT_INTERP` header; nil for anything else (a script, a static binary).
    static func path(of path: String) -> String? {
        guard let header = Platform.bytes(of: path, at: 0, count: 64),
            header[0...3] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1
        else {
            return nil
        }
        func integer(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
        }
        let tableOffset = integer(header, 0x20, 8)
        let entrySize = Int(integer(header, 0x36, 2))
        let count = Int(integer(header, 0x38, 2))
        // An ELF64 program header is 0x38 bytes: anything else is not a file to trust with a read size.
        guard entrySize == 0x38, count > 0, count < 4_096,
            let table = Platform.bytes(of: path, at: tableOffset, count: entrySize * count)
        else { return nil }
        for index in 0..<count where integer(table, index * entrySize, 4) == 3 /* PT_INTERP */ {
            let offset = integer(table, index * entrySize + 0x08, 8)
            let size = Int(min(integer(table, index * entrySize + 0x20, 8), 4_096))
            guard let bytes = Platform.bytes(of: path, at: offset, count: size) else { return nil }
            let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            return text.hasPrefix("/") ? text : nil
        }
        return nil
    }
}
