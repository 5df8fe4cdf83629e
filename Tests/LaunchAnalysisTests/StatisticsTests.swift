import Foundation
import LaunchAnalysis
import Testing

/// Statistics against published reference values.
///
/// Expected numbers were computed independently with NumPy 2.4 and SciPy 1.17
/// (the calls are quoted next to each value) and hard-coded here.
@Suite("Statistics")
struct StatisticsTests {
    /// Ten launch times, deliberately unsorted.
    static let launches = [12.0, 15.5, 9.75, 20.25, 11.0, 14.0, 18.5, 10.5, 13.25, 16.0]

    // MARK: Summary

    /// Type 7 of Hyndman & Fan (1996), "Sample quantiles in statistical packages",
    /// is the default of R's `quantile` and NumPy's `percentile`/`quantile`
    /// (`method="linear"`); these are `numpy.percentile(launches, [25, 50, 90, 95])`.
    @Test("percentiles are type 7, NumPy's and R's default")
    func percentiles() throws {
        let summary = try #require(Summary.of(Self.launches))
        #expect(isClose(summary.median, 13.625))
        #expect(isClose(summary.p90, 18.675))
        #expect(isClose(summary.p95, 19.4625))
        let sorted = Self.launches.sorted()
        #expect(isClose(Summary.quantile(sorted: sorted, 0.25), 11.25))
        #expect(Summary.quantile(sorted: sorted, 0) == 9.75)
        #expect(Summary.quantile(sorted: sorted, 1) == 20.25)
    }

    /// R: `quantile(1:100, c(0.5, 0.9, 0.95))` gives 50.5, 90.1, 95.05 (type 7),
    /// as does `numpy.percentile(range(1, 101), [50, 90, 95])`.
    @Test("percentiles of 1…100 match R's quantile(1:100)")
    func percentilesOneToHundred() throws {
        let summary = try #require(Summary.of((1...100).reversed().map(Double.init)))
        #expect(isClose(summary.median, 50.5))
        #expect(isClose(summary.p90, 90.1))
        #expect(isClose(summary.p95, 95.05))
    }

    @Test("count, extremes, mean, sample standard deviation and MAD")
    func moments() throws {
        let summary = try #require(Summary.of(Self.launches))
        #expect(summary.count == 10)
        #expect(summary.min == 9.75)
        #expect(summary.max == 20.25)
        #expect(isClose(summary.mean, 14.075))  // numpy.mean
        #expect(isClose(summary.standardDeviation, 3.486183044853242))  // numpy.std(ddof=1)
        #expect(isClose(summary.medianAbsoluteDeviation, 2.5))  // scipy.stats.median_abs_deviation (scale=1)
    }

    /// The textbook example (Wikipedia, "Standard deviation"): 2, 4, 4, 4, 5, 5, 7, 9
    /// has population standard deviation 2; the sample one (n − 1) is
    /// √(32/7) = 2.138089935299395 (`numpy.std(x, ddof=1)`). Median 4.5, MAD 0.5.
    @Test("sample standard deviation divides by n − 1")
    func sampleStandardDeviation() throws {
        let summary = try #require(Summary.of([9, 2, 5, 4, 4, 7, 4, 5]))
        #expect(isClose(summary.standardDeviation, 2.138089935299395))
        #expect(isClose(summary.mean, 5))
        #expect(isClose(summary.median, 4.5))
        #expect(isClose(summary.medianAbsoluteDeviation, 0.5))
    }

    @Test("one value: no spread; no values, or only NaNs: no summary")
    func degenerate() throws {
        let one = try #require(Summary.of([42]))
        #expect(one.standardDeviation == 0)
        #expect(one.medianAbsoluteDeviation == 0)
        #expect(one.median == 42 && one.p95 == 42)
        #expect(one.medianConfidenceInterval.lowerBound == 42 && one.medianConfidenceInterval.upperBound == 42)
        #expect(Summary.of([]) == nil)
        #expect(Summary.of([.nan, .nan]) == nil)
    }

    @Test("NaNs are ignored")
    func ignoresNaN() throws {
        let summary = try #require(Summary.of(Self.launches + [.nan]))
        #expect(summary == Summary.of(Self.launches))
    }

    // MARK: Confidence interval of the median

    /// Distribution-free interval (Conover, *Practical Nonparametric Statistics*,
    /// 3rd ed., §3.2; the same table is in Hollander & Wolfe): the k-th smallest
    /// and k-th largest values cover the median with probability
    /// 1 − 2·P(B ≤ k − 1), B ~ binomial(n, ½). With
    /// `1 - 2 * scipy.stats.binom.cdf(k - 1, n, 0.5)`:
    /// n = 10: k = 2 gives 0.978515625 (k = 3 only 0.890625), so the 2nd and 9th;
    /// n = 20: k = 6 gives 0.9586105346679688 (k = 7 only 0.8846817…), the 6th and 15th;
    /// n = 100: k = 40 gives 0.9647997997822951 (k = 41 only 0.9431…), the 40th and 61st;
    /// n = 6: k = 1 gives 0.96875, the whole range.
    @Test(
        "the 95% interval is the order statistics Conover's binomial argument gives",
        arguments: [
            (10, 2, 9, 0.978515625),
            (20, 6, 15, 0.9586105346679688),
            (100, 40, 61, 0.9647997997822951),
            (6, 1, 6, 0.96875),
        ])
    func medianInterval(n: Int, lower: Int, upper: Int, confidence: Double) throws {
        // Values 1…n, shuffled deterministically, so the k-th order statistic is k.
        let values = (1...n).map { Double(($0 * 7919) % n + 1) }
        #expect(Set(values).count == n)
        let summary = try #require(Summary.of(values))
        let interval = summary.medianConfidenceInterval
        #expect(interval.lowerBound == Double(lower))
        #expect(interval.upperBound == Double(upper))
        #expect(isClose(summary.medianConfidenceLevel, confidence))
    }

    /// With n < 6 even the whole range reaches less than 95%: 1 − 2·(½)ⁿ,
    /// 0.9375 for n = 5, 0.875 for n = 4; the interval is the whole range.
    @Test(
        "below six values the interval is the whole range, with the level it reaches",
        arguments: [(5, 0.9375), (4, 0.875), (2, 0.5)])
    func smallSample(n: Int, confidence: Double) throws {
        let values = (0..<n).map { 100 + Double(($0 * 3) % n) }
        let summary = try #require(Summary.of(values))
        let interval = summary.medianConfidenceInterval
        #expect(interval.lowerBound == values.min())
        #expect(interval.upperBound == values.max())
        #expect(isClose(summary.medianConfidenceLevel, confidence))
    }

    // MARK: Outliers

    /// Modified z-score of Iglewicz & Hoaglin (1993), "How to Detect and Handle
    /// Outliers": 0.6745·(x − median)/MAD, outlying above 3.5. Here median 10.1,
    /// MAD 0.1, so 31 scores 0.6745 × 20.9 / 0.1 = 140.9705 (NumPy).
    @Test("modified z-scores flag the one far value")
    func outliers() {
        let found = Outliers.detect([10, 10.2, 9.9, 10.1, 31])
        #expect(found.indices == [4])
        let expected = [-0.6745, 0.6745, -1.349, 0, 140.9705]
        #expect(found.scores.count == expected.count)
        for (score, reference) in zip(found.scores, expected) {
            #expect(isClose(score, reference, tolerance: 1e-9))
        }
    }

    @Test("fast outliers are found too, in input order")
    func lowOutliers() {
        #expect(Outliers.detect([1, 10, 10.2, 9.9, 10.1, 31]).indices == [0, 5])
    }

    @Test("with a MAD of 0 nothing is an outlier")
    func zeroMAD() {
        let found = Outliers.detect([5, 5, 5, 5, 9])
        #expect(found.indices.isEmpty)
        #expect(found.scores == [0, 0, 0, 0, 0])
    }

    @Test("ordinary spread has no outliers; fewer than 3 values are never judged")
    func noOutliers() {
        #expect(Outliers.detect(Self.launches).indices.isEmpty)
        #expect(Outliers.detect([1, 1000]).indices.isEmpty)
    }

    // MARK: Run warnings

    @Test("a first run twice the others is warned about, and is not mistaken for drift")
    func firstRunSlow() {
        // The median of the others is 100: the ratio is exactly 2.
        let warnings = RunWarnings.detect([200, 100, 101, 99, 100, 102, 98, 101, 100, 99])
        #expect(warnings == [.firstRunSlow(ratio: 2)])
    }

    /// 100, 102, … 118: least-squares slope 2 ms per run, a total change of
    /// 2 × 9 = 18 ms against a median of 109 (`numpy.polyfit(x, y, 1)`).
    @Test("a steady trend is drift", arguments: [false, true])
    func drift(downward: Bool) throws {
        var values = stride(from: 100.0, through: 118, by: 2).map { $0 }
        if downward { values.reverse() }
        let warnings = RunWarnings.detect(values)
        try #require(warnings.count == 1)
        guard case .drift(let slope, let relative) = warnings[0] else {
            Issue.record("expected drift, got \(warnings)")
            return
        }
        let sign = downward ? -1.0 : 1.0
        #expect(isClose(slope, sign * 2))
        #expect(isClose(relative, sign * 18 / 109))
    }

    @Test("noise, a constant or too few runs give no warning")
    func quiet() {
        #expect(RunWarnings.detect([100, 103, 98, 101, 99, 102, 100, 97, 101, 99]).isEmpty)
        #expect(RunWarnings.detect([50, 50, 50, 50, 50]).isEmpty)
        #expect(RunWarnings.detect([300, 100, 100]).isEmpty)
        // Sub-millisecond changes are not worth a warning, whatever their share.
        #expect(RunWarnings.detect([0.9, 0.3, 0.3, 0.3, 0.3]).isEmpty)
        #expect(RunWarnings.detect([0.30, 0.35, 0.40, 0.45, 0.50]).isEmpty)
    }
}

/// True when `a` and `b` agree to `tolerance`, relative to their size (absolute near 0).
private func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-12) -> Bool {
    abs(a - b) <= tolerance * max(1, abs(a), abs(b))
}

@Suite("Statistics: JSON form")
struct SummaryCodingTests {
    /// The keys the DocC article "JSON Report Schema" documents.
    @Test func summaryEncodesAsDocumented() throws {
        let summary = try #require(Summary.of((1...10).map(Double.init)))
        let data = try JSONEncoder().encode(summary)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "n", "min", "max", "mean", "median", "standardDeviation", "mad", "p90", "p95",
                "medianConfidenceInterval", "medianConfidenceLevel",
            ])
        #expect(object["medianConfidenceInterval"] as? [Double] == [2, 9])
        #expect(try JSONDecoder().decode(Summary.self, from: data) == summary)
    }
}

@Suite("Statistics: robustness")
struct RobustnessTests {
    /// A steady climb with one wild run in it is still a drift (least squares would
    /// let the spike hide it).
    @Test func oneSpikeDoesNotHideADrift() throws {
        let values = [16.3, 17.8, 19.4, 19.6, 22.8, 205.8, 22.6, 23.1, 24.0, 24.4, 25.2, 25.9]
        let drift = RunWarnings.detect(values).first { if case .drift = $0 { true } else { false } }
        guard case .drift(let slope, let relative) = try #require(drift) else { return }
        #expect(slope > 0.5 && slope < 1.5)
        #expect(relative > 0.3)
    }

    /// The drift check stays bounded on the longest sessions `--runs` allows.
    @Test func aHundredThousandRunsAreJudgedOnBlockMedians() {
        let values: [Double] = (0..<100_000).map { (run: Int) -> Double in
            let trend: Double = Double(run) * 0.001
            let wobble: Double = Double(run % 7) * 0.01
            return 100 + trend + wobble
        }
        let warnings = RunWarnings.detect(values)
        #expect(warnings.contains { if case .drift = $0 { true } else { false } })
        #expect(Summary.of(values)?.medianConfidenceLevel ?? 0 >= 0.95)
    }

    /// A run 0.03 ms off a 0.6 ms median is not flagged, however tight the rest.
    @Test func tinyDeviationsAreNotOutliers() {
        let values = [0.590, 0.591, 0.592, 0.620]
        #expect(Outliers.detect(values).indices == [3])
        #expect(Outliers.detect(values, minimumDeviation: 0.1).indices.isEmpty)
        #expect(LaunchProfile.minimumOutlierDeviationMs(0.6) == 0.1)
        #expect(LaunchProfile.minimumOutlierDeviationMs(400) == 20)
    }
}
