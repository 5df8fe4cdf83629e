import LaunchTracing

/// A stretch of the main thread outside every span in which the sampler read
/// the thread, and what those readings saw.
///
/// The tracer reads CPU time and waits only at span boundaries, so between
/// spans the sampler's readings are all there is. They are counts, not times:
/// a report draws them as estimates, in proportion. Gaps no sample fell in
/// (shorter than the sampler's interval, or in a program the sampler does not
/// run in) have no record.
///
/// ```swift
/// for gap in timeline.mainThreadGaps {
///     print(gap.beginNanoseconds, gap.endNanoseconds, gap.runningSamples, gap.waitSamples[.disk] ?? 0)
/// }
/// ```
public struct SampledGap: Sendable, Codable, Equatable {
    /// Where the gap begins: the end of the spans before it, or its first sample when no span came before.
    public var beginNanoseconds: UInt64
    /// Where the gap ends: the begin of the span after it, or its last sample when no span came after.
    public var endNanoseconds: UInt64
    /// Samples that found the thread running or runnable (the sampler cannot tell the two apart).
    public var runningSamples: Int
    /// Samples that found it blocked, by what it waited on.
    public var waitSamples: [WaitKind: Int]

    /// All the samples in the gap.
    public var sampleCount: Int { runningSamples + waitSamples.values.reduce(0, +) }

    /// Makes a record.
    public init(beginNanoseconds: UInt64, endNanoseconds: UInt64, runningSamples: Int, waitSamples: [WaitKind: Int]) {
        self.beginNanoseconds = beginNanoseconds
        self.endNanoseconds = endNanoseconds
        self.runningSamples = runningSamples
        self.waitSamples = waitSamples
    }
}
