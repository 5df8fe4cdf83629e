import Foundation
import LaunchAnalysis
import Testing

/// The committed reference values of the stratified statistics, `Fixtures/fleet-statistics.json`.
///
/// The fixture came from `python3 Tests/LaunchAnalysisTests/Fixtures/make-fleet-statistics.py`
/// (NumPy 2.4, SciPy 1.17; the script says how each value was computed, independently
/// of the Swift code, and checks van Elteren's moments by enumeration). Regenerate it
/// with that command; never edit it by hand.
struct FleetFixture: Decodable, Sendable {
    struct Stratum: Decodable, Sendable {
        var head: [Double]
        var base: [Double]
    }

    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var strata: [Stratum]
        var statistic: Double
        var expected: Double
        var variance: Double
        var z: Double
        var pGreater: Double
        var pLess: Double
        var shift: Double
        var bootstrapLower: Double
        var bootstrapUpper: Double

        var testDescription: String { "\(name) (\(strata.count) strata)" }
        var given: [RankStatistics.Stratum] { strata.map { RankStatistics.Stratum(head: $0.head, base: $0.base) } }
    }

    var bootstrapSeed: UInt64
    var resamples: Int
    var cases: [Case]

    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fleet-statistics.json")

    static let loaded: FleetFixture? = try? JSONDecoder().decode(FleetFixture.self, from: Data(contentsOf: url))
}

@Suite("Fleet statistics against SciPy/NumPy")
struct FleetStatisticsTests {
    @Test("the fixture is there, with the seed and resamples the library uses by default")
    func fixtureLoads() throws {
        let fixture = try #require(FleetFixture.loaded, "cannot read \(FleetFixture.url.path)")
        #expect(fixture.cases.count >= 10)
        #expect(fixture.bootstrapSeed == RankStatistics.bootstrapSeed)
        #expect(fixture.resamples == RankStatistics.bootstrapResamples)
        #expect(fixture.cases.contains { $0.strata.count >= 3 })
    }

    @Test("van Elteren's statistic and p-values match the reference", arguments: FleetFixture.loaded?.cases ?? [])
    func vanElteren(_ reference: FleetFixture.Case) {
        let greater = RankStatistics.vanElteren(reference.given, alternative: .greater)
        let less = RankStatistics.vanElteren(reference.given, alternative: .less)
        #expect(
            isRelativelyClose(greater.statistic, reference.statistic, 1e-12),
            "T \(greater.statistic) vs \(reference.statistic)")
        #expect(isRelativelyClose(greater.expected, reference.expected, 1e-12))
        #expect(
            isRelativelyClose(greater.variance, reference.variance, 1e-12),
            "Var \(greater.variance) vs \(reference.variance)")
        #expect(abs(greater.z - reference.z) <= 1e-9, "z \(greater.z) vs \(reference.z)")
        #expect(
            isRelativelyClose(greater.pValue, reference.pGreater, 1e-7),
            "greater \(greater.pValue) vs \(reference.pGreater)")
        #expect(isRelativelyClose(less.pValue, reference.pLess, 1e-7), "less \(less.pValue) vs \(reference.pLess)")
    }

    @Test(
        "the pooled within-stratum shift and its bootstrap interval match the reference",
        arguments: FleetFixture.loaded?.cases ?? [])
    func shiftAndInterval(_ reference: FleetFixture.Case) {
        #expect(RankStatistics.stratifiedShift(reference.given) == reference.shift)
        let interval = RankStatistics.bootstrapInterval(reference.given)
        #expect(
            isRelativelyClose(interval.lower, reference.bootstrapLower, 1e-12),
            "lower \(interval.lower) vs \(reference.bootstrapLower)")
        #expect(
            isRelativelyClose(interval.upper, reference.bootstrapUpper, 1e-12),
            "upper \(interval.upper) vs \(reference.bootstrapUpper)")
    }

    @Test("the stratified shift never pairs values across strata")
    func noCrossStratumPairs() {
        // Within each stratum head is 1 above base; across strata the gap is 100.
        let strata = [
            RankStatistics.Stratum(head: [2, 3], base: [1, 2]),
            RankStatistics.Stratum(head: [101, 102, 103], base: [100, 101, 102]),
        ]
        #expect(RankStatistics.stratifiedShift(strata) == 1)
        #expect(RankStatistics.stratifiedShift([]).isNaN)
        let interval = RankStatistics.bootstrapInterval([])
        #expect(interval.lower.isNaN && interval.upper.isNaN)
    }
}
