import Foundation
import LaunchAnalysis
import Testing

/// The committed SciPy reference values for the Kolmogorov–Smirnov test,
/// `Fixtures/shape-statistics.json`, made by
/// `python3 Tests/LaunchAnalysisTests/Fixtures/make-shape-statistics.py` (SciPy 1.17;
/// regenerate with that command, never edit by hand).
struct ShapeFixture: Decodable, Sendable {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var head: [Double]
        var base: [Double]
        var statistic: Double
        var pValue: Double

        var testDescription: String { "\(name) (\(head.count) vs \(base.count))" }
    }

    var cases: [Case]

    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/shape-statistics.json")

    static let loaded: ShapeFixture? = try? JSONDecoder().decode(ShapeFixture.self, from: Data(contentsOf: url))
}

@Suite("Shape check")
struct ShapeCheckTests {
    @Test("the fixture is there")
    func fixtureLoads() throws {
        let fixture = try #require(ShapeFixture.loaded, "cannot read \(ShapeFixture.url.path)")
        #expect(fixture.cases.count >= 15)
    }

    @Test("Kolmogorov–Smirnov D and p match scipy.stats.ks_2samp", arguments: ShapeFixture.loaded?.cases ?? [])
    func matchesScipy(_ reference: ShapeFixture.Case) {
        let test = RankStatistics.kolmogorovSmirnov(head: reference.head, base: reference.base)
        #expect(abs(test.statistic - reference.statistic) < 1e-12, "D \(test.statistic) vs \(reference.statistic)")
        #expect(
            abs(test.pValue - reference.pValue) <= 1e-12 + 1e-9 * reference.pValue,
            "p \(test.pValue) vs \(reference.pValue)")
        #expect(test.method == .exact)
    }

    @Test("the Kolmogorov limit takes over beyond the exact limit")
    func asymptotic() {
        let base = (0..<2_100).map { Double($0) }
        let head = base.map { $0 + 150 }
        let test = RankStatistics.kolmogorovSmirnov(head: head, base: base)
        #expect(test.method == .asymptotic)
        #expect(abs(test.statistic - 150.0 / 2_100) < 1e-12)
        // scipy.special.kolmogorov(√(2100/2) · 150/2100) (SciPy 1.17).
        #expect(abs(test.pValue - 4.445031391939151e-05) < 1e-15, "\(test.pValue)")
    }

    @Test("a head with half its launches 40 % slower is named bimodal, with both modes")
    func bimodalHead() throws {
        let base = (0..<20).map { 400 + Double($0) }
        let fast: [Double] = (0..<10).map { 400 + 2 * Double($0) }
        let slow: [Double] = (0..<10).map { 560 + 2 * Double($0) }
        let head = fast + slow
        let shape = try #require(ShapeCheck(baseMs: base, headMs: head))
        let modes = try #require(shape.bimodal)
        #expect(modes.lowerCount == 10 && modes.upperCount == 10)
        #expect(abs(modes.lowerMs - 409) < 1 && abs(modes.upperMs - 569) < 1)
        #expect(modes.summary(metric: "timeToFirstFrame").contains("10 launches near 409 ms and 10 near 569 ms"))
        let metric = GateDecision.compare(
            [(name: "timeToFirstFrame", gated: true, baseMs: base, headMs: head)], settings: GateSettings(), alpha: 0.01
        )[0]
        #expect(metric.shape?.bimodal == modes)
    }

    @Test("modes the base has too are the program's, not the change's: not named")
    func bothSidesBimodal() throws {
        let fast: [Double] = (0..<10).map { 400 + 2 * Double($0) }
        let slow: [Double] = (0..<10).map { 560 + 2 * Double($0) }
        let shape = try #require(ShapeCheck(baseMs: fast + slow, headMs: slow + fast))
        #expect(shape.bimodal == nil)
        // The same head against a unimodal base is named.
        #expect(ShapeCheck(baseMs: (0..<20).map { 400 + Double($0) }, headMs: fast + slow)?.bimodal != nil)
    }

    @Test("a head shifted as a whole is not bimodal")
    func shiftedHead() throws {
        let base = (0..<20).map { 400 + Double($0) }
        let shape = try #require(ShapeCheck(baseMs: base, headMs: base.map { $0 * 1.2 }))
        #expect(shape.pValue < 0.01)
        #expect(shape.bimodal == nil)
        #expect(ShapeCheck(baseMs: [1, 2, 3, 4], headMs: [1, 2, 3, 4, 5]) == nil)
    }
}
