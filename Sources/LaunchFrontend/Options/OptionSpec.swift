import SampleApp

/// One command-line option, declared once: its name, its value's placeholder,
/// the type of value it takes, its default and its help. Parsing (``Arguments``),
/// the default a value falls back to, the "takes A, B or C" errors and the help
/// text (with its "(default …)") all come from a table of these, so an option
/// cannot exist without its help, or its default be written twice.
///
/// ```swift
/// .value("--rounds", "N", "A/A comparisons to make", type: .wholeNumber(1...100), default: "3")
/// // help: "--rounds N   A/A comparisons to make (default 3)"
/// // error: "--rounds takes a whole number from 1 to 100, not 'x'"
/// ```
public struct OptionSpec: Sendable {
    /// How the option takes values.
    public enum Kind: Sendable {
        /// `--quiet`: present or not.
        case flag
        /// `--runs N`: one value.
        case value
        /// `--launch-option K=V`: any number of values.
        case repeatable
    }

    /// What a value must be; ``Arguments`` checks it and words the error.
    public enum ValueType: Sendable, Equatable {
        /// Any text, checked by the code that reads it.
        case text
        /// A whole number within the range.
        case wholeNumber(ClosedRange<Int>)
        /// A positive, finite number of seconds.
        case seconds
        /// One of these words.
        case choice([String])

        /// `--annotations`: `github` or `none`.
        public static let annotations = ValueType.choice(["github", "none"])

        /// A variant of the bundled sample app.
        public static let sampleVariant = ValueType.choice(SampleApp.Variant.allCases.map(\.rawValue))
    }

    /// `--runs`.
    public let name: String
    /// `N`, shown after the name in help; empty for a flag.
    public let placeholder: String
    public let kind: Kind
    /// What a value must be.
    public let type: ValueType
    /// The value taken when the option is left out; nil when there is none (or it is worked out).
    public let defaultValue: String?
    /// What it does, with its default; wrapped to the help's width.
    public let help: String

    /// `--quiet`: present or not.
    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, placeholder: "", kind: .flag, type: .text, defaultValue: nil, help: help)
    }

    /// `--runs N`: one value of `type`, `defaultValue` when left out. The help
    /// ends with "(default …)": `shownDefault` when given, else the default itself;
    /// `showsDefault: false` when the help already says it in its own words.
    public static func value(
        _ name: String, _ placeholder: String, _ help: String, type: ValueType = .text,
        default defaultValue: String? = nil,
        shownDefault: String? = nil, showsDefault: Bool = true
    ) -> OptionSpec {
        let shown = showsDefault ? (shownDefault ?? defaultValue).map { " (default \($0))" } ?? "" : ""
        return OptionSpec(
            name: name, placeholder: placeholder, kind: .value, type: type, defaultValue: defaultValue,
            help: help + shown)
    }

    /// `--launch-option K=V`: any number of values.
    public static func repeatable(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, placeholder: placeholder, kind: .repeatable, type: .text, defaultValue: nil, help: help)
    }

    var takesValue: Bool { kind != .flag }

    /// The help's OPTIONS section for `options`: names in a column, help wrapped beside them.
    static func helpSection(_ options: [OptionSpec]) -> String {
        let column = 24
        let width = 80
        var lines: [String] = []
        for option in options {
            let label = "  " + option.name + (option.placeholder.isEmpty ? "" : " " + option.placeholder)
            var words = option.help.split(separator: " ").map(String.init)
            var line = label.count + 2 <= column ? label.padding(to: column) : label
            if label.count + 2 > column {
                lines.append(line)
                line = String(repeating: " ", count: column)
            }
            var empty = true
            while !words.isEmpty {
                let word = words.removeFirst()
                if !empty, line.count + 1 + word.count > width {
                    lines.append(line)
                    line = String(repeating: " ", count: column) + word
                } else {
                    line += (empty ? "" : " ") + word
                }
                empty = false
            }
            lines.append(line)
        }
        lines.append("  -h, --help".padding(to: column) + "show this help")
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
