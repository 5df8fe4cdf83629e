package extension FixedWidthInteger {
    /// `value` cut toward zero to a whole number and held within this type's
    /// range: 0 for NaN, `max` for `+inf` and anything above it, `min` for
    /// `-inf` and anything below it. It never traps, unlike `Int(_: Double)`.
    ///
    /// Numbers in reports, traces and on the command line come from outside;
    /// every conversion of a `Double` to an integer goes through this one.
    ///
    /// ```swift
    /// Int(saturating: 1e308)          // Int.max
    /// UInt64(saturating: -3.5)        // 0
    /// Int(saturating: .nan)           // 0
    /// ```
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value <= Double(Self.min) {
            self = Self.min
        } else if value >= Double(Self.max) {
            // Double(max) rounds up to a power of two for 64-bit types: never converted back.
            self = Self.max
        } else {
            self = Self(value)
        }
    }
}
