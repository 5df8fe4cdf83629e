import LaunchTracing

/// The moment a launched program counts as ready: the end of the time measured.
///
/// Instrumented programs (linked with LaunchHarness) report `firstFrame` and
/// `fullyDrawn` themselves through the ready pipe; any other program can be
/// judged by its exit, a line on its stdout, a listening TCP port, or a file
/// it creates. The text forms are what `launchprof measure --ready` takes.
///
/// ```swift
/// let ready = try ReadyCondition(parsing: "port:8080")  // .port(8080)
/// print(ready)                                          // port:8080
/// ```
public enum ReadyCondition: Sendable, Hashable, CustomStringConvertible {
    /// Ready when the program exits; nothing is killed.
    case exit
    /// Ready when the program writes `firstFrame` to the ready pipe.
    case firstFrame
    /// Ready when the program writes `fullyDrawn` to the ready pipe (end of extended launch).
    case fullyDrawn
    /// Ready at the first stdout line that `pattern`, a POSIX extended regular
    /// expression (`grep -E`'s dialect, matched byte by byte), matches anywhere in.
    ///
    /// Matching is line by line (multi-line patterns never match); a last line
    /// without a newline is matched when the program closes its stdout. Only
    /// the last 64 KiB of a longer line are searched. Backreferences are not
    /// accepted, and every search ends in time proportional to the line's
    /// length: no pattern can hold a launch past its timeout.
    case stdout(pattern: String)
    /// Ready when a TCP connection to this port on a loopback address succeeds:
    /// `127.0.0.1`, else `::1` (probed about every millisecond).
    case port(UInt16)
    /// Ready when something exists at this path (checked about every millisecond).
    case file(path: String)

    /// This condition with `transform` applied to the text it carries from the user
    /// (a file's path, a stdout pattern): paths redacted as the report's prose is.
    public func mappingText(_ transform: (String) -> String) -> ReadyCondition {
        switch self {
        case .file(let path): return .file(path: transform(path))
        case .stdout(let pattern): return .stdout(pattern: transform(pattern))
        case .exit, .firstFrame, .fullyDrawn, .port: return self
        }
    }

    /// The conditions named by a keyword alone (`exit`, `first-frame`, `fully-drawn`).
    public static let keywordConditions: [ReadyCondition] = [.exit, .firstFrame, .fullyDrawn]

    /// The accepted text forms, for help and error messages.
    public static let forms = ["exit", "first-frame", "fully-drawn", "stdout:REGEX", "port:N", "file:PATH"]

    /// Parses a `--ready` value.
    ///
    /// Accepts `exit`, `first-frame`, `fully-drawn`, `stdout:REGEX`, `port:N`
    /// (1–65535) and `file:PATH`. Anything else, a port out of range, an empty
    /// pattern or path, and a pattern that is not an accepted POSIX extended
    /// regular expression (``stdoutPatternProblem(_:)``) throw
    /// ``ParseError`` naming the value.
    public init(parsing text: String) throws(ParseError) {
        switch text {
        case "exit":
            self = .exit
            return
        case "first-frame":
            self = .firstFrame
            return
        case "fully-drawn":
            self = .fullyDrawn
            return
        default: break
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw ParseError(text: text, problem: Self.expected(near: text))
        }
        let kind = text[..<colon]
        let value = String(text[text.index(after: colon)...])
        switch kind {
        case "stdout":
            guard !value.isEmpty else {
                throw ParseError(text: text, problem: "stdout: needs a regular expression after the colon")
            }
            if let problem = Self.stdoutPatternProblem(value) {
                throw ParseError(text: text, problem: "invalid regular expression (\(problem))")
            }
            self = .stdout(pattern: value)
        case "port":
            guard value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let port = UInt16(value), port > 0
            else {
                throw ParseError(text: text, problem: "the port must be a whole number from 1 to 65535")
            }
            self = .port(port)
        case "file":
            guard !value.isEmpty else {
                throw ParseError(text: text, problem: "file: needs a path after the colon")
            }
            self = .file(path: value)
        default:
            throw ParseError(text: text, problem: Self.expected(near: text))
        }
    }

    /// The text form `init(parsing:)` accepts, so that a condition round-trips.
    public var description: String {
        switch self {
        case .exit: return "exit"
        case .firstFrame: return "first-frame"
        case .fullyDrawn: return "fully-drawn"
        case .stdout(let pattern): return "stdout:\(pattern)"
        case .port(let port): return "port:\(port)"
        case .file(let path): return "file:\(path)"
        }
    }

    /// How the launcher learns that this condition holds: every question the launcher
    /// asks of a condition is answered from here, so a new kind of condition is a
    /// compile error in this file and in the launcher's probe, nowhere else.
    public enum Detection: Sendable, Equatable {
        /// The program's exit is the moment; nothing is ended.
        case exit
        /// The program says it on the ready pipe with this word; it writes its trace
        /// up to there itself (`LAUNCHPROF_FLUSH_AT`).
        case announced(LaunchContract.ReadyWord)
        /// The launcher probes for it (a port, a file) about every millisecond.
        case probed
        /// The launcher matches the program's stdout lines.
        case stdoutLine

        /// True when the launcher sees the moment itself and ends the program then:
        /// it asks the tracer for the trace first (`LAUNCHPROF_CONTROL_FD`).
        public var isSeenByLauncher: Bool {
            switch self {
            case .probed, .stdoutLine: return true
            case .exit, .announced: return false
            }
        }
    }

    /// How the launcher learns that this condition holds.
    public var detection: Detection {
        switch self {
        case .exit: return .exit
        case .firstFrame: return .announced(.firstFrame)
        case .fullyDrawn: return .announced(.fullyDrawn)
        case .stdout: return .stdoutLine
        case .port, .file: return .probed
        }
    }

    /// The milestone the program marks to meet this condition, for the conditions
    /// an instrumented program reports itself; nil for the others.
    public var milestone: Milestone? {
        switch self {
        case .firstFrame: return .firstFrame
        case .fullyDrawn: return .fullyDrawn
        case .exit, .stdout, .port, .file: return nil
        }
    }

    /// The ready-pipe word that makes this condition true, for the conditions an
    /// instrumented program reports itself; nil for the others.
    public var readyWord: LaunchContract.ReadyWord? {
        guard case .announced(let word) = detection else { return nil }
        return word
    }

    /// True for the conditions an instrumented program reports through the ready pipe.
    public var isReportedByProgram: Bool { readyWord != nil }

    /// True when the launch ends before the program exits (callgrind writes its
    /// counts only at the exit or at a tracer mark).
    public var endsBeforeExit: Bool { detection != .exit }

    /// The most elements a `stdout:` pattern may have once its repetitions are
    /// expanded (`(ab){3}` has 6): it bounds the cost of searching a line.
    public static let stdoutPatternLimit = 1_000

    /// Why `pattern` is not accepted as a `stdout:` pattern, or nil: it must be a
    /// POSIX extended regular expression `regcomp` compiles, without
    /// backreferences (`\1`, which need backtracking) or escapes POSIX does not
    /// have (`\d`: write `[0-9]`; GNU's `\w`, `\s`, `\b` are kept), with balanced parentheses,
    /// and at most ``stdoutPatternLimit`` elements once its repetitions are expanded.
    public static func stdoutPatternProblem(_ pattern: String) -> String? {
        let bytes = Array(pattern.utf8)
        // Sizes of the open groups' contents so far, innermost last; `last` is
        // the size of the atom just read, for a repetition that follows it.
        var groups: [Int] = [0]
        var last = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\\"):
                if index + 1 < bytes.count, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index + 1]) {
                    return "backreferences such as \\\(Character(UnicodeScalar(bytes[index + 1]))) are not supported"
                }
                // A letter after '\' is literal in POSIX, and only GNU's \w \W \s \S \b \B mean more:
                // a \d written out of habit would silently match a 'd'.
                if index + 1 < bytes.count, Character(UnicodeScalar(bytes[index + 1])).isLetter,
                    !"wWsSbB".utf8.contains(bytes[index + 1])
                {
                    let letter = Character(UnicodeScalar(bytes[index + 1]))
                    let hint =
                        ["d": " (write [0-9])", "D": " (write [^0-9])", "t": " (write a tab itself)"][letter] ?? ""
                    return "\\\(letter) is not part of POSIX extended regular expressions\(hint)"
                }
                index += 2
                last = 1
            case UInt8(ascii: "["):
                // A bracket expression: a leading ']' (after an optional '^') is a member; '[:…:]' classes hold ']'.
                var end = index + 1
                if end < bytes.count, bytes[end] == UInt8(ascii: "^") { end += 1 }
                if end < bytes.count, bytes[end] == UInt8(ascii: "]") { end += 1 }
                while end < bytes.count, bytes[end] != UInt8(ascii: "]") {
                    if bytes[end] == UInt8(ascii: "["), end + 1 < bytes.count,
                        [UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "=")].contains(bytes[end + 1]),
                        let close = bytes[(end + 2)...].firstIndex(of: UInt8(ascii: "]"))
                    {
                        end = close + 1
                    } else {
                        end += 1
                    }
                }
                index = end + 1
                last = 1
            case UInt8(ascii: "("):
                groups.append(0)
                index += 1
                last = 0
                continue
            case UInt8(ascii: ")"):
                guard groups.count > 1 else { return "unbalanced parenthesis: a ')' closes no group" }
                last = groups.removeLast() + 1
                index += 1
            case UInt8(ascii: "{"):
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")) else {
                    return "'{' without its '}'"
                }
                let bounds = String(decoding: bytes[(index + 1)..<close], as: UTF8.self).split(
                    separator: ",", omittingEmptySubsequences: false)
                let numbers = bounds.map { Int($0) }
                let most = numbers.compactMap { $0 }.max() ?? 0
                guard most <= stdoutPatternLimit else { return "a repetition of more than \(stdoutPatternLimit)" }
                // {n,} repeats at least n times: counted as n + 1.
                let times = bounds.count == 2 && numbers[1] == nil ? most + 1 : most
                groups[groups.count - 1] += last * (max(times, 1) - 1)
                index = close + 1
                last = 0
                continue
            default:
                index += 1
                last = 1
            }
            groups[groups.count - 1] += last
            if groups[groups.count - 1] > stdoutPatternLimit {
                return "more than \(stdoutPatternLimit) elements once its repetitions are expanded"
            }
        }
        guard groups.count == 1 else { return "unbalanced parenthesis: a '(' is not closed" }
        guard groups[0] <= stdoutPatternLimit else {
            return "more than \(stdoutPatternLimit) elements once its repetitions are expanded"
        }
        do { _ = try ExtendedRegex(pattern) } catch { return error.message }
        return nil
    }

    /// "expected …", with a suggestion when `text` is a near miss of a keyword.
    private static func expected(near text: String) -> String {
        let list = "expected " + forms.dropLast().joined(separator: ", ") + " or " + forms.last!
        let squashed = text.lowercased().filter { $0.isLetter }
        let keywords = ["exit": "exit", "firstframe": "first-frame", "fullydrawn": "fully-drawn"]
        if let keyword = keywords[squashed] {
            return list + " (did you mean '\(keyword)'?)"
        }
        return list
    }
}

extension ReadyCondition {
    /// A `--ready` value that is not one of the forms ``ReadyCondition`` accepts.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The value as given.
        public var text: String
        /// What is wrong with it, and what was expected.
        public var problem: String

        /// `bad ready condition '<text>': <problem>`.
        public var description: String { "bad ready condition '\(text)': \(problem)" }
    }
}

extension ReadyCondition: Codable {
    private enum CodingKeys: String, CodingKey { case kind, pattern, port, path }

    /// The `kind` of the object form: the keyword of the text form.
    private var kind: String {
        switch self {
        case .exit: return "exit"
        case .firstFrame: return "first-frame"
        case .fullyDrawn: return "fully-drawn"
        case .stdout: return "stdout"
        case .port: return "port"
        case .file: return "file"
        }
    }

    /// Encodes the object form: `{"kind": "port", "port": 8080}`,
    /// `{"kind": "stdout", "pattern": "…"}`, `{"kind": "file", "path": "…"}`,
    /// `{"kind": "first-frame"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .stdout(let pattern): try container.encode(pattern, forKey: .pattern)
        case .port(let port): try container.encode(port, forKey: .port)
        case .file(let path): try container.encode(path, forKey: .path)
        case .exit, .firstFrame, .fullyDrawn: break
        }
    }

    /// Decodes the object form, or the text form a schema-1 report holds.
    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = try Self.legacy(text, decoder: decoder)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "exit": self = .exit
        case "first-frame": self = .firstFrame
        case "fully-drawn": self = .fullyDrawn
        case "stdout": self = .stdout(pattern: try container.decode(String.self, forKey: .pattern))
        case "port": self = .port(try container.decode(UInt16.self, forKey: .port))
        case "file": self = .file(path: try container.decode(String.self, forKey: .path))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "unknown ready condition kind '\(kind)'")
        }
    }

    /// A schema-1 report's text: a `--ready` value, or the label of a default.
    private static func legacy(_ text: String, decoder: any Decoder) throws -> ReadyCondition {
        if text.hasPrefix("first-frame (") || text.hasPrefix("end of the hooks") { return .firstFrame }
        do {
            return try ReadyCondition(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }
}
