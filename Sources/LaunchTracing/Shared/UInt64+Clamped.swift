package extension UInt64 {
    /// `self - other`, or 0 when `other` is larger.
    ///
    /// Times read on different threads, or a child's clock read against its
    /// parent's, can come out a few nanoseconds in the wrong order; a duration
    /// is then 0, never a wrapped-around `UInt64`.
    ///
    /// ```swift
    /// UInt64(5).subtractingClamped(7)   // 0
    /// ```
    func subtractingClamped(_ other: UInt64) -> UInt64 { self > other ? self - other : 0 }

    /// `self + other`, saturating at `.max`.
    func addingClamped(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    /// This time plus `nanoseconds` (negative or NaN counts as 0), saturating at
    /// `.max`: a wait given as any `Double` (infinite, 1e300) never traps.
    func adding(nanoseconds: Double) -> UInt64 {
        guard nanoseconds > 0 else { return self }
        return nanoseconds < 0x1p63 ? addingClamped(UInt64(nanoseconds)) : .max
    }
}
