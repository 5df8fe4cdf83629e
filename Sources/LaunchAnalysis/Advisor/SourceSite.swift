/// How reports write a call site: the file's name without its module, and its line.
///
/// ```swift
/// SourceSite.text(file: "SampleApp/SearchIndex.swift", line: 9)   // "SearchIndex.swift:9"
/// ```
public enum SourceSite {
    /// `SearchIndex.swift` for the `#fileID` `SampleApp/SearchIndex.swift`.
    public static func fileName(_ fileID: String) -> String {
        fileID.split(separator: "/").last.map(String.init) ?? fileID
    }

    /// `SearchIndex.swift:9`.
    public static func text(file: String, line: Int) -> String {
        "\(fileName(file)):\(line)"
    }
}
