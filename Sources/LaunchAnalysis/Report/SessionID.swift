/// Session ids: one per launchprof invocation (``MeasurementReport/session``).
///
/// An id is 16 random hexadecimal digits (64 bits from the system's random
/// source), so two sessions never share one by chance and none is derived from
/// what a report says about itself.
///
/// ```swift
/// let session = SessionID.make()  // "9f2c4be01d7a3e55"
/// ```
public enum SessionID {
    /// A new session id.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next()
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
