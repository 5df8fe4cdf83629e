import LaunchAnalysis
import Testing

/// Unix times written for people (error messages name a run by its spawn).
/// Expected values from Python's `datetime.fromtimestamp(ns / 1e9, timezone.utc)`.
@Suite("UTC text")
struct WallClockTextTests {
    @Test(arguments: [
        (UInt64(0), "1970-01-01T00:00:00.000Z"),
        (1_795_649_029_800_728_148, "2026-11-25T23:23:49.800Z"),
        (1_709_164_800_123_000_000, "2024-02-29T00:00:00.123Z"),
        (951_782_400_000_000_000, "2000-02-29T00:00:00.000Z"),
    ])
    func unixNanosecondsAreWrittenAsUTCToTheMillisecond(_ nanoseconds: UInt64, _ text: String) {
        #expect(WallClockAnchor.utcText(unixNanoseconds: nanoseconds) == text)
    }
}
