/// How a report's name becomes a file name: the one rule for `<name>.json`,
/// `<name>.runs/` and every other file a measurement writes.
public enum ReportFileName {
    /// `name` with anything but letters, digits, `-`, `_` and `.` replaced by `-`.
    ///
    /// ```swift
    /// ReportFileName.safe("my app/v2")   // "my-app-v2"
    /// ```
    public static func safe(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "-" })
    }
}
