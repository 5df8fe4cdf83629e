import Testing
import _LaunchProfTestSupport

@testable import LaunchAnalysis

/// The shift and the interval select order statistics of the n·m differences
/// without storing them; here every order statistic is checked against sorting
/// them all, with and without ties.
@Suite("Rank statistics: selection of differences")
struct DifferencesSelectionTests {
    @Test("every k-th smallest difference equals the sorted differences' k-th, bit for bit")
    func selectionMatchesSorting() {
        var generator = SeededGenerator(seed: 3)
        for round in 0..<60 {
            let n = 1 + Int(generator.next() % 12)
            let m = 1 + Int(generator.next() % 12)
            // Every third round draws from a handful of values, so differences tie.
            let spread: UInt64 = round % 3 == 0 ? 4 : 1_000_000
            let head = (0..<n).map { _ in Double(generator.next() % spread) / 7 }
            let base = (0..<m).map { _ in Double(generator.next() % spread) / 7 }
            let sorted = head.flatMap { h in base.map { h - $0 } }.sorted()
            let differences = RankStatistics.Differences(head: head, base: base)
            for k in 1...sorted.count {
                #expect(differences.smallest(k) == sorted[k - 1], "k = \(k) of \(head) − \(base)")
            }
        }
    }

    @Test("the exact null distribution: counts sum to C(n+m, n), are symmetric, and match a small table")
    func nullCounts() {
        #expect(RankStatistics.exactNullCounts(2, 2) == [1, 1, 2, 1, 1])
        #expect(RankStatistics.exactNullCounts(3, 1) == [1, 1, 1, 1])
        #expect(RankStatistics.exactNullCounts(0, 4) == [1])
        let counts = RankStatistics.exactNullCounts(20, 20)
        #expect(counts.reduce(0, +) == 137_846_528_820)  // C(40, 20)
        #expect(counts == counts.reversed())
        #expect(
            RankStatistics.TwoSamples(head: (0..<20).map { Double($0) + 0.5 }, base: (0..<20).map(Double.init))
                .mosesRank(alpha: 0.025) == 128)
    }

    @Test("the null counts a process keeps are the ones computed, for the sizes in either order")
    func cachedNullCounts() {
        let cached = RankStatistics.cachedNullCounts(7, 12)
        #expect(cached.counts == RankStatistics.exactNullCounts(12, 7))
        #expect(cached.arrangements == 50_388)  // C(19, 7)
        let again = RankStatistics.cachedNullCounts(12, 7)
        #expect(again.counts == cached.counts && again.arrangements == cached.arrangements)
        // Sizes whose counts alone pass the cache's limit are computed, and right, all the same.
        let large = RankStatistics.cachedNullCounts(8, RankStatistics.nullCountsCacheLimit / 8 + 1)
        #expect(large.counts.count == 8 * (RankStatistics.nullCountsCacheLimit / 8 + 1) + 1)
        #expect(RankStatistics.cachedNullCounts(7, 12).counts == cached.counts)
    }
}
