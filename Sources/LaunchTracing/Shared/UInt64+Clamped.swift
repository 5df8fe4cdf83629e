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
}
