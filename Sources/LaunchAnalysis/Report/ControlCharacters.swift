/// Makes text that came from a measured program or its trace safe to print.
///
/// Span names, thread names, source file names, a program's output and the
/// reasons built from them are the program's to choose: printed raw, an escape
/// sequence among them could set the terminal's title, clear the screen or hide
/// lines, and a line break could forge a line of the report. Every renderer that
/// prints such text (the terminal report, Markdown, CI annotations) and the
/// command's standard-error lines pass it through ``escaped(_:)`` first, with or
/// without colour.
///
/// Escaped are the C0 controls (U+0000–U+001F, ESC and BEL among them), DEL,
/// the C1 controls (U+0080–U+009F, CSI among them), the line and paragraph
/// separators, and the bidirectional overrides and isolates that reorder what a
/// reader sees. Each becomes `\n`, `\r`, `\t` or `\u{1B}` (its code in hex);
/// all other text is kept as it is.
///
/// ```swift
/// ControlCharacters.escaped("\u{1B}]0;pwned\u{07}Load")  // "\\u{1B}]0;pwned\\u{07}Load"
/// ```
public enum ControlCharacters {
    /// `text` with every control character written as a visible escape.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isEscaped(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// True for a character ``escaped(_:)`` rewrites.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1
        case 0x2028, 0x2029: return true  // line and paragraph separators
        case 0x202A...0x202E, 0x2066...0x2069: return true  // bidirectional embeddings, overrides, isolates
        default: return false
        }
    }
}
