// Every C library function LaunchAnalysis calls, in one place: small wrappers
// with Swift names, so the logic files need no `#if`, no libc import, and no
// Foundation.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif

/// Namespace for the C math functions LaunchAnalysis wraps.
enum Platform {
    /// e raised to `x`. The corresponding C function is `exp`.
    static func exponential(_ x: Double) -> Double { exp(x) }

    /// The natural logarithm of `x`. The corresponding C function is `log`.
    static func naturalLogarithm(_ x: Double) -> Double { log(x) }

    /// The natural logarithm of |Γ(`x`)|; `logGamma(n + 1)` is log n!. The
    /// corresponding C function is `lgamma`.
    static func logGamma(_ x: Double) -> Double { lgamma(x) }

    /// The error function, 2/√π ∫₀ˣ e^(−t²) dt. The corresponding C function is `erf`.
    static func errorFunction(_ x: Double) -> Double { erf(x) }

    /// The complementary error function, 1 − erf(`x`), accurate where erf(`x`) is
    /// near 1. The corresponding C function is `erfc`.
    static func complementaryErrorFunction(_ x: Double) -> Double { erfc(x) }
}
