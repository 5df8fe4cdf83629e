import LaunchAnalysis

/// `value` milliseconds as every report writes them (``Milliseconds/text(_:)``),
/// in microseconds below 1 ms so a short span never reads `0.00 ms`: `410 µs`, `41.2 µs`, `4.12 µs`.
public func ms(_ value: Double) -> String {
    let magnitude = abs(value)
    guard magnitude > 0, magnitude < 1 else { return Milliseconds.text(value) }
    let micro = value * 1000
    if abs(micro) >= 99.95 { return "\(Int(micro.rounded())) µs" }
    if abs(micro) >= 9.995 { return "\(Milliseconds.oneDecimal(micro)) µs" }
    return "\(Milliseconds.twoDecimals(micro)) µs"
}

/// `value` milliseconds with its sign (`+`, `−`), as ``ms(_:)`` writes it: `+63.5 ms`, `−410 µs`, `0 ms`.
func signedMs(_ value: Double) -> String {
    guard abs(value) < 1 else { return Milliseconds.signed(value) }
    if value == 0 { return "0 ms" }
    return (value > 0 ? "+" : "−") + ms(abs(value))
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.hasSuffix(" ") { copy.removeLast() }
        return copy
    }
}

/// ANSI styling, off when not on a terminal or with NO_COLOR.
struct Style {
    let enabled: Bool

    func wrap(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { wrap("1", text) }
    func dim(_ text: String) -> String { wrap("2", text) }
    func red(_ text: String) -> String { wrap("31;1", text) }
    func green(_ text: String) -> String { wrap("32;1", text) }
    func yellow(_ text: String) -> String { wrap("33", text) }

    /// `text` in the colour of `tone`: green, yellow or red.
    func tone(_ tone: ReportOutcome.Tone, _ text: String) -> String {
        switch tone {
        case .good: return green(text)
        case .warning: return yellow(text)
        case .bad: return red(text)
        }
    }

    /// Width of `text` without ANSI escapes.
    static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if scalar == "\u{1B}" {
                inEscape = true
                continue
            }
            if inEscape {
                if scalar == "m" { inEscape = false }
                continue
            }
            width += 1
        }
        return width
    }
}

extension Style {
    /// Rows as aligned columns (the first row is the header, dimmed).
    func table(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        let widths = (0..<rows[0].count).map { column in rows.map { Style.visibleWidth($0[column]) }.max() ?? 0 }
        return rows.enumerated().map { index, row in
            let cells = row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - Style.visibleWidth(cell))
                return rightAligned.contains(column) ? pad + cell : cell + pad
            }
            let line = cells.joined(separator: "  ").trimmingTrailingSpaces()
            return index == 0 ? dim(line) : line
        }
    }
}
