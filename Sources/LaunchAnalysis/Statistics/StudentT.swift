/// Student's t distribution: the CDF and its quantile, for the session-level
/// test of the regression gate (``SessionTest``).
///
/// The CDF is the regularized incomplete beta function I_x(ν/2, 1/2) at
/// x = ν/(ν + t²), evaluated by its continued fraction (Lentz's method), as
/// Numerical Recipes and Cephes do; an infinite ν is the standard normal. The
/// quantile inverts the CDF by bisection to about 1e-12. Values match
/// `scipy.stats.t.cdf` and `scipy.stats.t.ppf` to 1e-9 (the tests check them
/// against values SciPy computed, `Tests/LaunchAnalysisTests/Fixtures/make-student-t.py`).
///
/// ```swift
/// StudentT.cdf(2.776, degreesOfFreedom: 4)        // ≈ 0.975
/// StudentT.quantile(0.99, degreesOfFreedom: 4)    // ≈ 3.747
/// ```
public enum StudentT {
    /// P(T ≤ `t`) for T with `degreesOfFreedom` ν > 0 (fractional ν allowed, `.infinity` is the normal).
    ///
    /// NaN for a NaN `t` or a ν that is not positive.
    public static func cdf(_ t: Double, degreesOfFreedom nu: Double) -> Double {
        guard !t.isNaN, !nu.isNaN, nu > 0 else { return .nan }
        if t == .infinity { return 1 }
        if t == -.infinity { return 0 }
        guard nu.isFinite, nu < 1e7 else { return RankStatistics.normalCDF(t) }
        let x = nu / (nu + t * t)
        let tail = 0.5 * regularizedBeta(x, nu / 2, 0.5)  // P(T > |t|)
        return t > 0 ? 1 - tail : tail
    }

    /// The `p` quantile of T with `degreesOfFreedom` ν: the t with P(T ≤ t) = p.
    ///
    /// −∞ at 0, +∞ at 1, NaN outside [0, 1] or for a ν that is not positive.
    public static func quantile(_ p: Double, degreesOfFreedom nu: Double) -> Double {
        guard !p.isNaN, !nu.isNaN, nu > 0, p >= 0, p <= 1 else { return .nan }
        if p == 0 { return -.infinity }
        if p == 1 { return .infinity }
        guard nu.isFinite, nu < 1e7 else { return RankStatistics.normalQuantile(p) }
        if p < 0.5 { return -quantile(1 - p, degreesOfFreedom: nu) }
        var low = 0.0
        var high = 1.0
        while cdf(high, degreesOfFreedom: nu) < p {
            low = high
            high *= 2
            if high > 1e300 { return .infinity }
        }
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if cdf(middle, degreesOfFreedom: nu) < p { low = middle } else { high = middle }
            if high - low <= 1e-13 * max(1, high) { break }
        }
        return (low + high) / 2
    }

    /// I_x(a, b), the regularized incomplete beta function, for 0 ≤ x ≤ 1 and a, b > 0.
    static func regularizedBeta(_ x: Double, _ a: Double, _ b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logFront =
            Platform.logGamma(a + b) - Platform.logGamma(a) - Platform.logGamma(b)
            + a * Platform.naturalLogarithm(x) + b * Platform.naturalLogarithm(1 - x)
        let front = Platform.exponential(logFront)
        // The continued fraction converges fast for x < (a + 1)/(a + b + 2); else use the symmetry.
        if x < (a + 1) / (a + b + 2) { return front * continuedFraction(x, a, b) / a }
        return 1 - front * continuedFraction(1 - x, b, a) / b
    }

    /// The continued fraction of the incomplete beta function (modified Lentz).
    private static func continuedFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        let epsilon = 1e-16
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var result = d
        for step in 1...10_000 {
            let m = Double(step)
            let twoM = 2 * m
            var term = m * (b - m) * x / ((a + twoM - 1) * (a + twoM))
            d = 1 + term * d
            if abs(d) < tiny { d = tiny }
            c = 1 + term / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            result *= d * c
            term = -(a + m) * (a + b + m) * x / ((a + twoM) * (a + twoM + 1))
            d = 1 + term * d
            if abs(d) < tiny { d = tiny }
            c = 1 + term / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let change = d * c
            result *= change
            if abs(change - 1) < epsilon { break }
        }
        return result
    }
}
