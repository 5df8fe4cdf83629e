/// A list of run numbers that stays short however many runs there are:
/// `run 3`, `runs 3, 17 and 42`, `runs 3, 17, 42 and 9 more`.
enum RunList {
    /// How many run numbers are written before `and N more`.
    static let shown = 3

    /// `runs` in words, at most ``shown`` numbers; empty for no runs.
    static func text(_ runs: [Int], limit: Int = shown) -> String {
        guard !runs.isEmpty else { return "" }
        if runs.count == 1 { return "run \(runs[0])" }
        let numbers = runs.map(String.init)
        if runs.count <= limit {
            return "runs " + numbers.dropLast().joined(separator: ", ") + " and " + numbers.last!
        }
        return "runs " + numbers.prefix(limit).joined(separator: ", ") + " and \(runs.count - limit) more"
    }
}
