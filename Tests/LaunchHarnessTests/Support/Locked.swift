import Foundation

/// A value shared between a test, the delegates it launches and the threads
/// they start, behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&stored) }
    }
}

extension Locked where Value == [String] {
    /// Appends one entry to a journal.
    func append(_ entry: String) { withLock { $0.append(entry) } }
}
