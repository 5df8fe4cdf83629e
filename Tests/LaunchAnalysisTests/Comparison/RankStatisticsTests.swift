import Foundation
import LaunchAnalysis
import Testing
import _LaunchProfTestSupport

/// The committed SciPy reference values, `Fixtures/rank-statistics.json`.
///
/// The fixture came from `python3 Tests/LaunchAnalysisTests/Fixtures/make-rank-statistics.py` (NumPy 2.4,
/// SciPy 1.17; the script says how each value was computed, independently of the
/// Swift code). Regenerate it with that command; never edit it by hand.
struct RankFixture: Decodable, Sendable {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var head: [Double]
        var base: [Double]
        var method: RankStatistics.Method
        var u: Double
        var uBaseAgainstHead: Double
        var pGreater: Double
        var pLess: Double
        var shift: Double
        var mosesK: Int?
        var mosesLower: Double?
        var mosesUpper: Double?
        /// The Moses interval at other levels (null bounds: the level cannot be reached).
        var intervals: [Interval]
        /// ln 1.05: the tests of head − testedShift against base.
        var testedShift: Double
        var shiftedMethod: RankStatistics.Method
        var pGreaterShifted: Double
        var pLessShifted: Double

        struct Interval: Decodable, Sendable {
            var level: Double
            var k: Int?
            var lower: Double?
            var upper: Double?
        }

        var testDescription: String { "\(name) (\(head.count) vs \(base.count), \(method.rawValue))" }
    }

    struct HolmCase: Decodable, Sendable {
        var p: [Double]
        var adjusted: [Double]
    }

    var scipy: String
    var cases: [Case]
    var holm: [HolmCase]

    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/rank-statistics.json")

    static let loaded: RankFixture? = try? JSONDecoder().decode(RankFixture.self, from: Data(contentsOf: url))
}

@Suite("Rank statistics against SciPy")
struct RankStatisticsTests {
    @Test("the fixture is there and covers every kind of case")
    func fixtureLoads() throws {
        let fixture = try #require(RankFixture.loaded, "cannot read \(RankFixture.url.path)")
        #expect(fixture.cases.count >= 50)
        #expect(fixture.cases.contains { $0.method == .exact })
        #expect(fixture.cases.contains { $0.method == .asymptotic && $0.head.count >= 150 })
        #expect(fixture.holm.count >= 5)
    }

    @Test("U, p-values, shift and Moses interval match SciPy/NumPy", arguments: RankFixture.loaded?.cases ?? [])
    func matchesScipy(_ reference: RankFixture.Case) {
        let (head, base) = (reference.head, reference.base)
        #expect(RankStatistics.mannWhitneyU(head: head, base: base) == reference.u)
        #expect(RankStatistics.mannWhitneyU(head: base, base: head) == reference.uBaseAgainstHead)

        let tolerance = reference.method == .exact ? 1e-9 : 1e-7
        let greater = RankStatistics.mannWhitney(head: head, base: base, alternative: .greater)
        let less = RankStatistics.mannWhitney(head: head, base: base, alternative: .less)
        #expect(greater.method == reference.method)
        #expect(less.method == reference.method)
        #expect(greater.u == reference.u)
        #expect(less.u == reference.u)
        #expect(
            isRelativelyClose(greater.pValue, reference.pGreater, tolerance),
            "greater: \(greater.pValue) vs \(reference.pGreater)")
        #expect(
            isRelativelyClose(less.pValue, reference.pLess, tolerance), "less: \(less.pValue) vs \(reference.pLess)")

        #expect(RankStatistics.hodgesLehmannShift(head: head, base: base) == reference.shift)
        let interval = RankStatistics.mosesInterval(head: head, base: base)
        #expect(interval.lower == reference.mosesLower ?? -.infinity, "k = \(String(describing: reference.mosesK))")
        #expect(interval.upper == reference.mosesUpper ?? .infinity, "k = \(String(describing: reference.mosesK))")
        for level in reference.intervals {
            let bounds = RankStatistics.mosesInterval(head: head, base: base, alpha: level.level)
            #expect(
                bounds.lower == level.lower ?? -.infinity, "level \(level.level), k = \(String(describing: level.k))")
            #expect(
                bounds.upper == level.upper ?? .infinity, "level \(level.level), k = \(String(describing: level.k))")
        }

        let shifted = RankStatistics.mannWhitney(
            head: head, base: base, alternative: .greater, shift: reference.testedShift)
        let shiftedLess = RankStatistics.mannWhitney(
            head: head, base: base, alternative: .less, shift: reference.testedShift)
        #expect(shifted.method == reference.shiftedMethod)
        let shiftedTolerance = reference.shiftedMethod == .exact ? 1e-9 : 1e-7
        #expect(
            isRelativelyClose(shifted.pValue, reference.pGreaterShifted, shiftedTolerance),
            "\(shifted.pValue) vs \(reference.pGreaterShifted)")
        #expect(
            isRelativelyClose(shiftedLess.pValue, reference.pLessShifted, shiftedTolerance),
            "\(shiftedLess.pValue) vs \(reference.pLessShifted)")
    }

    /// Issue 21: the normal approximation gave p = 0.047 here.
    @Test("59 against 1 is exact, as SciPy's auto rule: p = 1/60, not the normal approximation's 0.047")
    func unequalSizesAreExact() {
        let base = (0..<59).map { 400.0 + Double($0) }
        let test = RankStatistics.mannWhitney(head: [500], base: base, alternative: .greater)
        #expect(test.method == .exact)
        #expect(abs(test.pValue - 1.0 / 60) < 1e-12, "\(test.pValue)")
        #expect(
            RankStatistics.exactIsCheap(59, 1) && RankStatistics.exactIsCheap(20, 20)
                && RankStatistics.exactIsCheap(8, 1_000))
        #expect(!RankStatistics.exactIsCheap(21, 20) && !RankStatistics.exactIsCheap(9, 40))
    }

    @Test("the normal quantile matches scipy.stats.norm.ppf")
    func normalQuantile() {
        // scipy.stats.norm.ppf of each p (SciPy 1.17).
        let reference: [(Double, Double)] = [
            (0.975, 1.959963984540054), (0.995, 2.5758293035489004), (0.5, 0), (0.001, -3.090232306167813),
            (1e-10, -6.361340902404056), (0.9995833333333334, 3.3414789560386264),
        ]
        for (p, z) in reference {
            #expect(
                abs(RankStatistics.normalQuantile(p) - z) <= 1e-14 * max(1, abs(z)),
                "Φ⁻¹(\(p)) = \(RankStatistics.normalQuantile(p)), SciPy \(z)")
        }
    }

    @Test("Holm matches the definition, in the input's order")
    func holmMatchesReference() throws {
        let fixture = try #require(RankFixture.loaded)
        for reference in fixture.holm {
            #expect(RankStatistics.holm(reference.p) == reference.adjusted, "\(reference.p)")
        }
    }

    // MARK: Properties

    /// A small deterministic sample set: no ties, sizes 1…12.
    static let samples: [[Double]] = {
        var generator = SeededGenerator(seed: 7)
        return (1...12).map { count in (0..<count).map { _ in 100 + Double(generator.next() % 100_000) / 1000 } }
    }()

    @Test("the shift of a sample against itself is 0, and its interval contains 0")
    func shiftAgainstItself() {
        for sample in Self.samples {
            #expect(RankStatistics.hodgesLehmannShift(head: sample, base: sample) == 0)
            let interval = RankStatistics.mosesInterval(head: sample, base: sample)
            #expect(interval.lower <= 0 && 0 <= interval.upper)
        }
    }

    @Test("U(head, base) + U(base, head) = n·m, with and without ties")
    func uComplements() {
        let tied: [[Double]] = [[1, 2, 2, 3], [2, 2, 2], [0, 5, 5, 5, 9], [3]]
        for head in Self.samples + tied {
            for base in Self.samples + tied {
                let sum =
                    RankStatistics.mannWhitneyU(head: head, base: base)
                    + RankStatistics.mannWhitneyU(head: base, base: head)
                #expect(sum == Double(head.count * base.count))
            }
        }
    }

    @Test("shifting head by a constant shifts the estimate and the interval by it")
    func shiftEquivariance() {
        let base = Self.samples[9]
        let head = Self.samples[10]
        let moved = head.map { $0 + 64 }  // a power of two keeps the sums exact enough to compare closely
        let shift = RankStatistics.hodgesLehmannShift(head: head, base: base)
        #expect(abs(RankStatistics.hodgesLehmannShift(head: moved, base: base) - (shift + 64)) < 1e-9)
        let interval = RankStatistics.mosesInterval(head: head, base: base)
        let movedInterval = RankStatistics.mosesInterval(head: moved, base: base)
        #expect(abs(movedInterval.lower - (interval.lower + 64)) < 1e-9)
        #expect(abs(movedInterval.upper - (interval.upper + 64)) < 1e-9)
    }

    @Test("one-sided p-values: greater and less of the same data")
    func oneSidedConsistency() {
        for head in Self.samples {
            for base in Self.samples {
                let greater = RankStatistics.mannWhitney(head: head, base: base, alternative: .greater)
                let less = RankStatistics.mannWhitney(head: head, base: base, alternative: .less)
                let swapped = RankStatistics.mannWhitney(head: base, base: head, alternative: .less)
                #expect(isRelativelyClose(greater.pValue, swapped.pValue, 1e-12))
                // Exact and continuous: P(U ≥ u) + P(U ≤ u) = 1 + P(U = u) > 1.
                #expect(greater.pValue + less.pValue >= 1 - 1e-12)
                #expect((0...1).contains(greater.pValue) && (0...1).contains(less.pValue))
            }
        }
    }

    @Test("the exact test's smallest p-value is 1/C(n+m, n)")
    func exactExtremes() {
        let base = (1...10).map(Double.init)
        let head = (11...20).map(Double.init)
        let result = RankStatistics.mannWhitney(head: head, base: base, alternative: .greater)
        #expect(result.method == .exact)
        #expect(result.u == 100)
        #expect(isRelativelyClose(result.pValue, 1 / 184_756, 1e-12))
    }

    @Test("41 launches or a tie switch to the normal approximation")
    func methodChoice() {
        let twenty = (1...20).map(Double.init)
        #expect(
            RankStatistics.mannWhitney(head: twenty, base: twenty.map { $0 + 0.5 }, alternative: .greater).method
                == .exact)
        #expect(
            RankStatistics.mannWhitney(head: twenty + [30.25], base: twenty.map { $0 + 0.5 }, alternative: .greater)
                .method == .asymptotic)
        #expect(
            RankStatistics.mannWhitney(head: [1, 2, 2], base: [3, 4], alternative: .greater).method == .asymptotic)
        #expect(RankStatistics.mannWhitney(head: [1, 2], base: [2, 4], alternative: .greater).method == .asymptotic)
    }

    @Test("Holm is monotone in the raw p-values, at least the raw p, at most 1")
    func holmProperties() {
        var generator = SeededGenerator(seed: 11)
        for count in 1...20 {
            let p = (0..<count).map { _ in
                Double(generator.next() % 1_000_001) / 1_000_000 / Double(1 + generator.next() % 5)
            }
            let adjusted = RankStatistics.holm(p)
            #expect(adjusted.count == p.count)
            for i in p.indices {
                #expect(adjusted[i] >= p[i] && adjusted[i] <= 1)
                for j in p.indices where p[i] <= p[j] {
                    #expect(adjusted[i] <= adjusted[j])
                }
            }
            // The smallest is multiplied by the number of tests (capped).
            let smallest = p.indices.min { p[$0] < p[$1] }!
            #expect(adjusted[smallest] == min(1, p[smallest] * Double(count)))
        }
        #expect(RankStatistics.holm([]) == [])
    }

    @Test("an empty side gives U 0, p 1 and no interval")
    func emptySide() {
        let result = RankStatistics.mannWhitney(head: [], base: [1, 2, 3], alternative: .greater)
        #expect(result.u == 0)
        #expect(result.pValue == 1)
        #expect(RankStatistics.hodgesLehmannShift(head: [], base: [1]).isNaN)
        #expect(RankStatistics.mosesInterval(head: [1], base: []).lower.isNaN)
    }
}

/// |a − b| ≤ tolerance · |b|, with exact equality for b = 0.
func isRelativelyClose(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool {
    a == b || abs(a - b) <= tolerance * abs(b)
}
