/// One command-line option: its name, its value's placeholder, and its help.
/// Parsing and help text both come from a table of these, so an option cannot
/// exist without its help, or the reverse.
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

    /// `--runs`.
    public let name: String
    /// `N`, shown after the name in help; empty for a flag.
    public let placeholder: String
    public let kind: Kind
    /// What it does, with its default; wrapped to the help's width.
    public let help: String

    /// `--quiet`: present or not.
    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, placeholder: "", kind: .flag, help: help)
    }

    /// `--runs N`: one value.
    public static func value(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, placeholder: placeholder, kind: .value, help: help)
    }

    /// `--launch-option K=V`: any number of values.
    public static func repeatable(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, placeholder: placeholder, kind: .repeatable, help: help)
    }

    var takesValue: Bool { kind != .flag }

    /// The help's OPTIONS section for `options`: names in a column, help wrapped beside them.
    static func helpSection(_ options: [OptionSpec]) -> String {
        let column = 24, width = 80
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
