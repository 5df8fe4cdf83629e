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

/// A POSIX extended regular expression compiled with the C library's `regcomp`
/// (`REG_EXTENDED | REG_NOSUB`, the C locale: bytes), asked only whether it
/// matches somewhere in a line. It is searched as `^.*(PATTERN)`: one pass of
/// the library's automaton from the line's start, so a search takes time in
/// proportion to the line's length times the pattern's size, with no
/// backtracking. ``ReadyCondition/stdoutPatternProblem(_:)`` vets a pattern
/// first (no backreferences, balanced groups, a bounded size).
package final class ExtendedRegex: @unchecked Sendable {
    /// The compiled pattern; only read after `init` (regexec is thread-safe).
    private let compiled: UnsafeMutablePointer<regex_t>

    /// Compiles `pattern`; throws the library's message when it rejects it.
    package init(_ pattern: String) throws(ExtendedRegex.Rejected) {
        let compiled = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
        let code = regcomp(compiled, "^.*(" + pattern + ")", REG_EXTENDED | REG_NOSUB)
        guard code == 0 else {
            var message = [CChar](repeating: 0, count: 256)
            regerror(code, compiled, &message, message.count)
            compiled.deallocate()
            throw Rejected(
                message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.compiled = compiled
    }

    deinit {
        regfree(compiled)
        compiled.deallocate()
    }

    /// Why `regcomp` refused a pattern, in the C library's words.
    package struct Rejected: Error {
        package var message: String
    }

    /// True when the pattern matches somewhere in `line` (a NUL byte ends a
    /// segment: each segment is searched on its own).
    package func matches(_ line: some Collection<UInt8>) -> Bool {
        for segment in line.split(separator: 0, omittingEmptySubsequences: false) {
            let found = withUnsafeTemporaryAllocation(of: CChar.self, capacity: segment.count + 1) { buffer in
                var index = 0
                for byte in segment {
                    buffer[index] = CChar(bitPattern: byte)
                    index += 1
                }
                buffer[index] = 0
                return regexec(compiled, buffer.baseAddress!, 0, nil, 0) == 0
            }
            if found { return true }
        }
        return false
    }
}

extension Platform {
    /// The machine's name. The corresponding C function is `gethostname`.
    static var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
