import FuzzerMain
import LaunchTracing

/// One input: parses the bytes as a `launchprof.json` budget file.
/// Every input must either parse or throw a `LaunchBudgetError`; a parsed budget
/// must survive being written back and read again.
func budgetReaderFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    guard let budget = try? LaunchBudget(json: String(decoding: bytes, as: UTF8.self)) else { return 0 }
    guard let again = try? LaunchBudget(json: budget.json) else {
        fatalError("a budget read from a file could not be read back from its own JSON: \(budget.json)")
    }
    // Non-finite or rounded values may differ; the keys may not.
    precondition(again.hooksMs.keys == budget.hooksMs.keys && again.spansMs.keys == budget.spansMs.keys)
    return 0
}

/// libFuzzer calls ``budgetReaderFuzzer(_:_:)`` with each input.
@main
enum BudgetReaderFuzzer {
    static func main() { LibFuzzer.run(budgetReaderFuzzer) }
}
