import LaunchAnalysis

/// Escapes text for markup: HTML (and the SVG inside it) and XML 1.0 (JUnit),
/// in element content and in quoted attribute values. One function; the
/// markups differ only in the rules a ``Markup`` names.
///
/// Every string that comes from a report (span names, file names, reasons,
/// recommendations, command lines) goes through it before it is written into a
/// page or a JUnit file; nothing from a report is ever placed inside the page's
/// script.
///
/// ```swift
/// MarkupEscaping.escaped("Load <Settings> & \"Prefs\"", for: .html)
/// // "Load &lt;Settings&gt; &amp; &quot;Prefs&quot;"
/// ```
enum MarkupEscaping {
    /// Where the text goes, and so which rules it is escaped by.
    enum Markup: Sendable {
        /// An HTML page. The ASCII control characters ``ControlCharacters/isEscaped(_:)``
        /// names (LF, CR, ESC, BEL, NUL…) become character references, so the page's
        /// bytes carry no line break or escape sequence from a report and no line of
        /// it can start a CI workflow command; the others it names (C1 controls, line
        /// separators, bidirectional overrides and isolates) are written as the
        /// terminal writes them (`\u{202E}`): as a reference, the browser would still
        /// apply an override, or show a C1 code as a Windows-1252 character.
        case html
        /// An XML 1.0 attribute value: line breaks and tabs become references (an XML
        /// reader would turn them into spaces), and the characters XML 1.0 cannot hold
        /// at all (the other C0 controls, U+FFFE, U+FFFF) become U+FFFD.
        case xmlAttribute
        /// XML 1.0 element content: as an attribute, but line feeds and tabs stay as they are.
        case xmlText

        /// How `scalar` is written, past the five characters every markup escapes.
        func treatment(of scalar: Unicode.Scalar) -> Treatment {
            switch self {
            case .html:
                guard ControlCharacters.isEscaped(scalar) else { return .kept }
                return scalar.value < 0x80 ? .reference : .visible
            case .xmlAttribute, .xmlText:
                switch scalar {
                case "\n", "\t": return self == .xmlAttribute ? .reference : .kept
                case "\r": return .reference
                case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: return .replaced
                default: return .kept
                }
            }
        }

        /// The reference for `'`: `&#39;` in HTML (HTML 4 has no `&apos;`), `&apos;` in XML.
        var apostrophe: String { self == .html ? "&#39;" : "&apos;" }
    }

    /// How a character other than `&`, `<`, `>`, `"` and `'` is written.
    enum Treatment {
        /// As it is.
        case kept
        /// As a character reference, `&#xA;`.
        case reference
        /// As a visible escape, `\u{202E}` (``ControlCharacters/escaped(_:)``).
        case visible
        /// As U+FFFD, the replacement character: the markup cannot hold it.
        case replaced
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by references, and every
    /// other character written as `markup`'s rules say.
    static func escaped(_ text: String, for markup: Markup) -> String {
        func special(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "&", "<", ">", "\"", "'": return true
            default: return markup.treatment(of: scalar) != .kept
            }
        }
        guard text.unicodeScalars.contains(where: special) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: markup.apostrophe.unicodeScalars)
            default:
                switch markup.treatment(of: scalar) {
                case .kept: out.append(scalar)
                case .reference:
                    out.append(contentsOf: "&#x\(String(scalar.value, radix: 16, uppercase: true));".unicodeScalars)
                case .visible: out.append(contentsOf: ControlCharacters.escaped(String(scalar)).unicodeScalars)
                case .replaced: out.append("\u{FFFD}")
                }
            }
        }
        return String(out)
    }
}

/// The HTML page's name for ``MarkupEscaping/escaped(_:for:)`` with ``MarkupEscaping/Markup/html``.
enum HTMLEscaping {
    /// `value` escaped for HTML (``MarkupEscaping/Markup/html``).
    static func text(_ value: String) -> String { MarkupEscaping.escaped(value, for: .html) }
}
