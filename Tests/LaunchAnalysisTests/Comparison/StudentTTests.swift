import Foundation
import LaunchAnalysis
import Testing

/// Student's t and the binomial tail against SciPy's values
/// (`Fixtures/student-t.json`, from `python3 Tests/LaunchAnalysisTests/Fixtures/make-student-t.py`, SciPy 1.17).
@Suite("Student's t and the sign test")
struct StudentTTests {
    struct Fixture: Decodable {
        struct CDF: Decodable {
            var t: Double
            var nu: Double
            var cdf: Double
        }
        struct Quantile: Decodable {
            var p: Double
            var nu: Double
            var quantile: Double
        }
        struct Tail: Decodable {
            var n: Int
            var k: Int
            var upperTail: Double
        }
        var cdf: [CDF]
        var quantile: [Quantile]
        var binomialUpperTail: [Tail]
    }

    static let fixture: Fixture = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/student-t.json")
        return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }()

    @Test func theCDFMatchesSciPy() {
        #expect(Self.fixture.cdf.count == 49)
        for row in Self.fixture.cdf {
            let value = StudentT.cdf(row.t, degreesOfFreedom: row.nu)
            #expect(
                abs(value - row.cdf) <= 1e-10 * max(1, abs(row.cdf)), "t \(row.t), ν \(row.nu): \(value) vs \(row.cdf)")
        }
        #expect(
            StudentT.cdf(1.96, degreesOfFreedom: .infinity) > 0.975
                && StudentT.cdf(1.96, degreesOfFreedom: .infinity) < 0.9751)
        #expect(StudentT.cdf(1, degreesOfFreedom: 0).isNaN)
    }

    @Test func theQuantileMatchesSciPy() {
        #expect(Self.fixture.quantile.count == 42)
        for row in Self.fixture.quantile {
            let value = StudentT.quantile(row.p, degreesOfFreedom: row.nu)
            #expect(
                abs(value - row.quantile) <= 1e-8 * max(1, abs(row.quantile)),
                "p \(row.p), ν \(row.nu): \(value) vs \(row.quantile)")
            #expect(
                abs(StudentT.quantile(1 - row.p, degreesOfFreedom: row.nu) + row.quantile) <= 1e-8
                    * max(1, abs(row.quantile)))
        }
        #expect(StudentT.quantile(1, degreesOfFreedom: 3) == .infinity)
    }

    @Test func theBinomialTailMatchesSciPy() {
        for row in Self.fixture.binomialUpperTail {
            let value = Binomial.upperTail(row.k, of: row.n)
            #expect(abs(value - row.upperTail) <= 1e-12, "n \(row.n), k \(row.k): \(value) vs \(row.upperTail)")
        }
        #expect(Binomial.upperTail(11, of: 10) == 0)
    }
}
