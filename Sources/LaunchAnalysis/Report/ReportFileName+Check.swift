extension ReportFileName {
    /// The longest suffix launchprof adds to a name in any file it writes: a
    /// comparison's hyperfine export (`.comparison.hyperfine.json`) while it is
    /// still the temporary file beside its target (`.tmp-<pid>-<attempt>`, the pid
    /// at most 10 digits, the attempt at most 100).
    public static let longestSuffix = ".comparison.hyperfine.json.tmp-4294967295-100"

    /// The longest file name a folder takes on the file systems launchprof runs on.
    public static let fileNameLimit = 255

    /// The longest name (in UTF-8 bytes) `--name` or a baseline may have: the
    /// longest suffix must still fit in a file name.
    public static var maximumGivenLength: Int { fileNameLimit - longestSuffix.utf8.count }

    /// The endings of a sibling's files: a name that ends in one would write
    /// (or be read as) another name's file, such as `main.spread`, whose JSON
    /// `main.spread.json` is baseline `main`'s spread file.
    public static let reservedEndings = ["spread", "comparison", "trace", "hyperfine"]

    /// Why `name`, given as a report's or a baseline's name, cannot be used as it
    /// is; nil when it can. The one rule for `--name` and baseline names, checked
    /// before the first launch: a name is not empty and not only dots, takes only
    /// what ``safe(_:)`` keeps (so no name is silently changed: `a b` and
    /// `a\nb` would both write `a-b`), only ASCII (so no two names that look
    /// alike — Unicode's composed and decomposed forms, confusable letters — are
    /// different files), does not end in a sibling's ending
    /// (``reservedEndings``), and leaves room for ``longestSuffix`` in a file name.
    ///
    /// ```swift
    /// ReportFileName.problem(with: "main")          // nil
    /// ReportFileName.problem(with: "main.spread")   // "ends in '.spread', …"
    /// ```
    public static func problem(with name: String) -> String? {
        let shown = displayed(name)
        if name.isEmpty || !name.contains(where: { $0 != "." }) {
            return "\(shown) is not a name"
        }
        // Look-alikes (`café` composed and decomposed, a Cyrillic `а` for a Latin `a`) would be different files.
        if !name.unicodeScalars.allSatisfy(\.isASCII) {
            return "\(shown) holds characters other than ASCII: a name takes ASCII letters, digits, '-', '_' and '.' "
                + "only (names that look alike would be different files)"
        }
        if safe(name) != name {
            return "\(shown) would be written as '\(safe(name))': a name takes letters, digits, '-', '_' and '.' only"
        }
        let bytes = name.utf8.count
        if bytes > maximumGivenLength {
            return
                "\(shown) is \(bytes) bytes; a name takes at most \(maximumGivenLength) (a file name's \(fileNameLimit) less "
                + "the longest suffix launchprof adds, '\(longestSuffix)')"
        }
        if name.contains("."), let ending = name.split(separator: ".").last.map(String.init),
            reservedEndings.contains(ending)
        {
            let stem = String(name.dropLast(ending.count + 1))
            return
                "\(shown) ends in '.\(ending)': its JSON, '\(displayed(name).dropFirst().dropLast()).json', is a file of the name "
                + "\(displayed(stem)) (choose another name)"
        }
        return nil
    }

    /// `name` quoted for a one-line message: control characters escaped, at most
    /// 40 characters shown.
    static func displayed(_ name: String) -> String {
        let cut = name.count > 40 ? String(name.prefix(40)) + "…" : name
        var text = ""
        for scalar in cut.unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar == "'" || scalar == "\\" {
                text += scalar.escaped(asASCII: true)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return "'" + text + "'"
    }
}
