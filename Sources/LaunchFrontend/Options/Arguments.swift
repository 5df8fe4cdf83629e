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

    /// The last value given for the option `name`; nil when it was left out. Read options
    /// through their declarations (``Option``), not by name.
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value given for the option `name`.
    func all(_ name: String) -> [String] { values[name] ?? [] }
    /// Whether the flag `name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// The smallest positive number of milliseconds an option takes (1 µs).
    static let smallestMilliseconds = 0.001

    /// The most seconds `--timeout` takes: one day.
    static let maximumSeconds = 86_400.0
}

/// "; did you mean '--runs'?" when one candidate is close to `text`, else "".
func suggestion(_ text: String, among candidates: [String]) -> String {
    Spelling.nearest(to: text, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
}
