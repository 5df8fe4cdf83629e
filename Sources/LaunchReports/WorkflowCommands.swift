/// Keeps text from a measured program from turning into GitHub Actions
/// workflow commands on standard output.
///
/// The runner reads a step's standard output line by line (a line ends at LF
/// or CR) and obeys a line that starts with `::` once leading whitespace is
/// stripped (`::set-output name=x::1`, `::error file=…::`), and the legacy
/// form `##[command]` anywhere in a line. A span named `"\n::error::x"` or
/// `"##[error]x"` printed as it is would issue that command.
/// ``neutralized(_:as:)`` rewrites each such place in the syntax of the text
/// around it, so what a reader or parser sees is unchanged:
///
/// | syntax | `::` at a line's start | `##[` |
/// |---|---|---|
/// | ``Syntax/text`` | `:` U+200B `:` | `#` U+200B `#[` |
/// | ``Syntax/json`` | (cannot occur) | `\u0023#[` |
/// | ``Syntax/markup`` (HTML, XML) | `&#58;:` | `&#35;#[` |
/// | ``Syntax/markdown`` | `\::` | `#\#[` |
///
/// Under `GITHUB_ACTIONS=true` a machine-readable document written to standard
/// output is also wrapped in ``stopCommands(token:)`` … ``resumeCommands(token:)``,
/// which turns command processing off in between.
///
/// ```swift
/// WorkflowCommands.neutralized(Array("x\n  ::error::y\n".utf8), as: .text)
/// // "x\n  :\u{200B}:error::y\n"
/// ```
public enum WorkflowCommands {
    /// How the text around a command is written, which decides how it is neutralised.
    public enum Syntax: Sendable {
        /// Plain text for people (the terminal report, listings).
        case text
        /// JSON: `#` only occurs inside strings, where `\u0023` means it.
        case json
        /// HTML or XML: character references.
        case markup
        /// Markdown: backslash escapes.
        case markdown
    }

    /// `bytes` (UTF-8) with every workflow command neutralised as `syntax` allows.
    /// Text with no `::` and no `##[` is returned as it is, after one scan.
    public static func neutralized(_ bytes: [UInt8], as syntax: Syntax) -> [UInt8] {
        guard mayHoldCommand(bytes) else { return bytes }
        let text = String(decoding: bytes, as: UTF8.self)
        var out = String.UnicodeScalarView()
        var atLineStart = true
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" || scalar == "\r" {
                atLineStart = true
            } else if atLineStart, !scalar.properties.isWhitespace {
                atLineStart = false
                if scalar == ":", index + 1 < scalars.count, scalars[index + 1] == ":" {
                    out.append(contentsOf: lineStartColon(syntax).unicodeScalars)
                    index += 1
                    continue
                }
            }
            if scalar == "#", index + 2 < scalars.count, scalars[index + 1] == "#", scalars[index + 2] == "[" {
                out.append(contentsOf: legacyHash(syntax).unicodeScalars)
                index += 1
                continue
            }
            out.append(scalar)
            index += 1
        }
        return Array(String(out).utf8)
    }

    /// `text` neutralised as ``neutralized(_:as:)`` does its bytes.
    public static func neutralized(_ text: String, as syntax: Syntax) -> String {
        let bytes = Array(text.utf8)
        guard mayHoldCommand(bytes) else { return text }
        return String(decoding: neutralized(bytes, as: syntax), as: UTF8.self)
    }

    /// The line that stops command processing until ``resumeCommands(token:)`` with the same token.
    public static func stopCommands(token: String) -> String { "::stop-commands::\(token)\n" }

    /// The line that resumes command processing after ``stopCommands(token:)``.
    public static func resumeCommands(token: String) -> String { "::\(token)::\n" }

    /// A token nobody can guess in advance (128 random bits in hex): the text
    /// in between cannot resume command processing itself.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    private static func mayHoldCommand(_ bytes: [UInt8]) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: ":"), previous == UInt8(ascii: ":") { return true }
            if byte == UInt8(ascii: "["), previous == UInt8(ascii: "#"), beforePrevious == UInt8(ascii: "#") {
                return true
            }
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    /// What the first of two colons at a line's start becomes (the second stays).
    private static func lineStartColon(_ syntax: Syntax) -> String {
        switch syntax {
        case .text, .json: return ":\u{200B}"
        case .markup: return "&#58;"
        case .markdown: return "\\:"
        }
    }

    /// What the first `#` of `##[` becomes (the rest stays).
    private static func legacyHash(_ syntax: Syntax) -> String {
        switch syntax {
        case .text: return "#\u{200B}"
        case .json: return "\\u0023"
        case .markup: return "&#35;"
        case .markdown: return "#\\"
        }
    }
}

extension ReportFormat {
    /// How this format's text is written, for ``WorkflowCommands/neutralized(_:as:)``.
    public var workflowCommandSyntax: WorkflowCommands.Syntax {
        switch self {
        case .terminal: return .text
        case .json, .chromeTrace, .hyperfine: return .json
        case .html, .junit: return .markup
        case .markdown: return .markdown
        }
    }
}
