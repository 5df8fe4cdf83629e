/// Keeps text from a measured program from notifying people when a Markdown
/// report is posted where GitHub reads it (a pull-request comment, a job summary).
///
/// GitHub turns `@octocat` and `@org/team` into mentions that notify, and
/// `#12`, `GH-12` and `owner/repo#12` into references that link (and show up
/// on the referenced issue). A span named `@octocat @org/team #1` would do all
/// of that. ``neutralized(_:)`` puts a zero-width joiner (U+200D) after each
/// `@` that starts a name, between `#` and a digit, and after the `-` of
/// `GH-` before a digit: the text reads the same, and GitHub finds no mention
/// or reference in it. Code spans need none of this (nothing in them links).
///
/// ```swift
/// MarkdownMentions.neutralized("@octocat #1")   // "@\u{200D}octocat #\u{200D}1"
/// ```
public enum MarkdownMentions {
    /// The joiner put after `@`, `#` or `GH-`: invisible, and no name or number character.
    public static let joiner: Unicode.Scalar = "\u{200D}"

    /// `text` with every mention and issue reference broken by ``joiner``.
    public static func neutralized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "@" || $0 == "#" || $0 == "-" }) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            out.append(scalar)
            guard index + 1 < scalars.count else { continue }
            let next = scalars[index + 1]
            switch scalar {
            case "@"
            where next.properties.isAlphabetic || next.properties.numericType != nil || next == "-" || next == "_":
                out.append(joiner)
            case "#" where next.properties.numericType != nil:
                out.append(joiner)
            case "-"
            where next.properties.numericType != nil && index >= 2
                && String(String.UnicodeScalarView(scalars[(index - 2)..<index])).uppercased() == "GH":
                out.append(joiner)
            default:
                break
            }
        }
        return String(out)
    }
}
