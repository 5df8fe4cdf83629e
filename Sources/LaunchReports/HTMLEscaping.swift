import LaunchAnalysis

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
    /// `value` with `&`, `<`, `>`, `"` and `'` replaced by character references,
    /// and so the ASCII control characters ``ControlCharacters/isEscaped(_:)`` names
    /// (LF, CR, ESC, BEL, NUL…): the page's bytes carry no line break or escape
    /// sequence from a report, so no line of it can start a CI workflow command.
    /// The others it names (C1 controls, line separators, bidirectional overrides
    /// and isolates) are written as the terminal writes them (`\u{202E}`): as a
    /// reference, the browser would still apply an override, or show a C1 code
    /// as a Windows-1252 character.
    static func text(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: { "&<>\"'".unicodeScalars.contains($0) || ControlCharacters.isEscaped($0) }) else {
            return value
        }
        var out = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            case _ where ControlCharacters.isEscaped(scalar) && scalar.value < 0x80:
                out.append(contentsOf: "&#x\(String(scalar.value, radix: 16, uppercase: true));".unicodeScalars)
            case _ where ControlCharacters.isEscaped(scalar):
                out.append(contentsOf: ControlCharacters.escaped(String(scalar)).unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}