/// Escapes text for HTML (and the SVG inside it), in element content and in
/// quoted attribute values alike.
///
/// Every string that comes from a report (span names, file names, reasons,
/// recommendations, command lines) goes through ``text(_:)`` before it is
/// written into the page; nothing from a report is ever placed inside the
/// page's script.
///
/// ```swift
/// HTMLEscaping.text("Load <Settings> & \"Prefs\"")
/// // "Load &lt;Settings&gt; &amp; &quot;Prefs&quot;"
/// ```
enum HTMLEscaping {
    /// `value` with `&`, `<`, `>`, `"` and `'` replaced by character references.
    static func text(_ value: String) -> String {
        guard value.contains(where: { "&<>\"'".contains($0) }) else { return value }
        var out = ""
        out.reserveCapacity(value.utf8.count + 16)
        for character in value {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
