import LaunchAnalysis
import LaunchTracing

/// A bad command line: the message names the value and what was expected.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A small command-line parser: long options with values (`--runs 5` or
/// `--runs=5`), boolean flags, repeatable options, and everything after `--`
/// kept verbatim as the command to run. Unknown options are rejected before any
/// work starts, with the nearest known option suggested.
struct Arguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    /// Everything after `--`.
    private(set) var command: [String] = []
    /// Arguments that are not options, before `--` (only when `positionals` allows them).
    private(set) var positionals: [String] = []
    /// The declared options, which give each value its type and default.
    private let options: [OptionSpec]

    /// Parses `arguments`; up to `positionals` plain arguments are kept (for
    /// commands that take files), any other is an error.
    init(
        _ arguments: [String], options: [OptionSpec], positionals maximum: Int = 0,
        positionalHint: String = "put the command to measure after '--'"
    ) throws {
        self.options = options
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                command = Array(arguments[index...])
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                guard positionals.count < maximum else {
                    throw UsageError("unexpected argument '\(argument)'; \(positionalHint)")
                }
                positionals.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '\(name)'" + suggestion(name, among: options.map(\.name)))
            }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count, !isOption(arguments[index], options) else {
                        throw UsageError("option '\(name)' needs a value")
                    }
                    value = arguments[index]
                    index += 1
                }
                if option.kind != .repeatable, values[name] != nil {
                    throw UsageError("option '\(name)' was given twice")
                }
                values[name, default: []].append(value)
            } else {
                guard inlineValue == nil else { throw UsageError("option '\(name)' takes no value") }
                flags.insert(name)
            }
        }
    }

    private func isOption(_ text: String, _ options: [OptionSpec]) -> Bool {
        text == "--" || options.contains { $0.name == text }
    }

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// The given value, else the declared default.
    func text(_ name: String) -> String? { value(name) ?? spec(name)?.defaultValue }

    /// The declaration of `name`, when this command has the option.
    func spec(_ name: String) -> OptionSpec? { options.first { $0.name == name } }

    /// A whole number within the declared range (the declared default when
    /// left out), or a usage error naming the option and value.
    func integer(_ name: String) throws -> Int? {
        guard let text = text(name) else { return nil }
        guard case .wholeNumber(let range)? = spec(name)?.type else {
            preconditionFailure("\(name) is not declared as a whole number")
        }
        guard let number = Int(text), range.contains(number) else {
            let upper = range.upperBound == Int.max ? "" : " to \(range.upperBound)"
            throw UsageError("\(name) takes a whole number from \(range.lowerBound)\(upper), not '\(text)'")
        }
        return number
    }

    /// The smallest positive number of milliseconds an option takes (1 µs).
    static let smallestMilliseconds = 0.001

    /// The most seconds `--timeout` takes: one day.
    static let maximumSeconds = 86_400.0

    /// Milliseconds in `0.001...LaunchBudget.maximumMilliseconds` (or from 0 when
    /// `allowingZero`), a plain decimal (``DecimalNumber``); nil when the option
    /// is absent. A refusal names the range.
    func milliseconds(_ name: String, allowingZero: Bool = false) throws -> Double? {
        guard let text = value(name) else { return nil }
        let lower = allowingZero ? 0 : Self.smallestMilliseconds
        let limit = LaunchBudget.maximumMilliseconds
        guard let number = DecimalNumber.parse(text, in: lower...limit) else {
            throw UsageError(
                "\(name) takes milliseconds \(DecimalNumber.rangeText(lower, limit, unit: "(one hour)")) "
                    + "as a plain decimal such as 250 or 12.5, not '\(text)'")
        }
        return number
    }

    /// Seconds in `0.001...86400` (the declared default when left out), a plain
    /// decimal, or a usage error naming the range.
    func seconds(_ name: String) throws -> Double? {
        guard let text = text(name) else { return nil }
        guard let number = DecimalNumber.parse(text, in: 0.001...Self.maximumSeconds) else {
            throw UsageError(
                "\(name) takes seconds \(DecimalNumber.rangeText(0.001, Self.maximumSeconds, unit: "(one day)")) "
                    + "as a plain decimal such as 20 or 2.5, not '\(text)'")
        }
        return number
    }

    /// One of the declared words (the declared default when left out), or a
    /// usage error listing them: "--mode takes warm, cold or hot, not 'x'; did you mean …".
    func choice(_ name: String) throws -> String? {
        guard let text = text(name) else { return nil }
        guard case .choice(let words)? = spec(name)?.type else {
            preconditionFailure("\(name) is not declared as a choice")
        }
        guard words.contains(text) else {
            throw UsageError(
                "\(name) takes \(words.dropLast().joined(separator: ", ")) or \(words.last!), not '\(text)'"
                    + suggestion(text, among: words))
        }
        return text
    }
}

/// "; did you mean '--runs'?" when one candidate is close to `text`, else "".
func suggestion(_ text: String, among candidates: [String]) -> String {
    Spelling.nearest(to: text, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
}
