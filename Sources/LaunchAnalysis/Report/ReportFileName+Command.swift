extension ReportFileName {
    /// The longest name ``forCommand(_:)`` and ``capped(_:hashing:)`` give.
    public static let maximumLength = 60

    /// The report name a command line suggests: the executable's name and its
    /// arguments in order, each reduced to `[a-z0-9._]` runs joined by `-` (a path
    /// to its last component, an option to its name without dashes), at most
    /// ``maximumLength`` characters. When it had to be cut, it ends with `-` and
    /// the command's ``hash(of:)`` instead of the words that did not fit.
    ///
    /// ```swift
    /// ReportFileName.forCommand(["python3", "-m", "http.server", "8000"])   // "python3-m-http.server-8000"
    /// ReportFileName.forCommand(["/usr/bin/git", "--version"])              // "git-version"
    /// ```
    public static func forCommand(_ command: [String]) -> String {
        let words = command.enumerated().compactMap { index, word in
            let reduced = reduce(word)
            return reduced.isEmpty ? (index == 0 ? "program" : nil) : reduced
        }
        return capped(words.joined(separator: "-"), hashing: command)
    }

    /// `name` when it is at most ``maximumLength`` characters; else its leading
    /// `-`-separated words that fit, `-`, and ``hash(of:)`` of `command`, the
    /// whole command line the name stands for.
    public static func capped(_ name: String, hashing command: [String]) -> String {
        guard name.count > maximumLength else { return name }
        let suffix = "-" + hash(of: command)
        let room = maximumLength - suffix.count
        var kept = ""
        for word in name.split(separator: "-") {
            let next = kept.isEmpty ? String(word) : kept + "-" + word
            if next.count > room { break }
            kept = next
        }
        if kept.isEmpty { kept = String(name.prefix(room)) }
        return kept + suffix
    }

    /// A short, stable hash of a command line: 8 hexadecimal digits of the 64-bit
    /// FNV-1a hash of its words, each followed by a NUL byte. The same words give
    /// the same hash on every machine and in every version.
    public static func hash(of command: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for word in command {
            for byte in word.utf8 + [0] {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
        }
        let folded = UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
        let digits = String(folded, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// One word of a command reduced to a name's part: a path to its last
    /// component, lowercased, anything but `a-z`, `0-9`, `.` and `_` to `-`,
    /// repeated `-` to one, and no `-` or `.` at either end.
    static func reduce(_ word: String) -> String {
        let last = word.split(separator: "/").last.map(String.init) ?? ""
        var reduced = ""
        for scalar in last.lowercased().unicodeScalars {
            let keep = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "." || scalar == "_"
            if keep {
                reduced.unicodeScalars.append(scalar)
            } else if !reduced.isEmpty, reduced.last != "-" {
                reduced.append("-")
            }
        }
        while let last = reduced.last, last == "-" || last == "." { reduced.removeLast() }
        while let first = reduced.first, first == "." || first == "-" { reduced.removeFirst() }
        return reduced
    }
}
