import LaunchAnalysis
import LaunchTracing
import Testing

/// Numbers from outside (reports, traces, flags) can be any `Double`: the
/// formatters write every one of them and never trap, and flags read decimal only.
@Suite("extreme numbers")
struct ExtremeNumberTests {
    static let extremes: [Double] = [
        .nan, .infinity, -.infinity, 1e308, -1e308, .greatestFiniteMagnitude, 1e19, -1e19, 9.3e18, 1e15,
        999_999_999_999_999,
        .leastNonzeroMagnitude, -0.0, 0,
    ]

    @Test(arguments: extremes) func millisecondsWritesAnyDouble(_ value: Double) {
        let text = Milliseconds.text(value)
        if value.isFinite, abs(value) >= 1e15 { #expect(text == "\(value) ms") }
        let texts = [
            text, Milliseconds.oneDecimal(value), Milliseconds.twoDecimals(value),
            Milliseconds.fixed(value, decimals: 6),
            Milliseconds.signed(value), Milliseconds.comparison(value, value), Percent.text(value),
        ]
        // Written, and never as an integer the conversion clamped to (which would state a wrong value).
        for written in texts {
            #expect(
                !written.isEmpty && !written.contains("9223372036854775807")
                    && !written.contains("18446744073709551615"))
        }
        if value.isNaN {
            #expect(text == "—" && Milliseconds.oneDecimal(value) == "—" && Percent.text(value) == "—")
        }
        if value.isInfinite || abs(value) >= 1e15 {
            let exponentForm = value.isInfinite ? (value < 0 ? "-inf" : "inf") : "\(value)"
            #expect(Milliseconds.oneDecimal(value) == exponentForm && Milliseconds.twoDecimals(value) == exponentForm)
            #expect(Milliseconds.fixed(value, decimals: 6) == exponentForm)
        }
    }

    @Test func hugeValuesAreWrittenInExponentFormNotAsAWrongInteger() {
        #expect(Milliseconds.text(1e19) == "1e+19 ms")
        #expect(Milliseconds.text(.infinity) == "inf ms")
        #expect(Milliseconds.oneDecimal(-1e300) == "-1e+300")
        #expect(Milliseconds.text(412.4) == "412 ms")
        #expect(Milliseconds.oneDecimal(41.26) == "41.3")
    }

    @Test func saturatingConversionHoldsEveryDoubleInRange() {
        #expect(Int(saturating: 1e308) == .max)
        #expect(Int(saturating: -1e308) == .min)
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: 0x1p63) == .max)
        #expect(UInt64(saturating: 0x1p64) == .max)
        #expect(UInt64(saturating: -3.5) == 0)
        #expect(Int32(saturating: 3e9) == .max)
        #expect(Int(saturating: -41.9) == -41)
        #expect(Int64(saturating: 0x1p62) == 1 << 62)
    }

    @Test func decimalNumbersOnly() {
        #expect(DecimalNumber.parse("250") == 250)
        #expect(DecimalNumber.parse("12.5") == 12.5)
        #expect(DecimalNumber.parse(".5") == 0.5)
        #expect(DecimalNumber.parse("5.") == 5)
        #expect(DecimalNumber.parse("-0.2") == -0.2)
        // One rule for every option: plain decimals, no exponent (1e19 and 1e-300 alike).
        for text in [
            "1e3", "-2E-1", "1e19", "1e-300", "1e-9", "0x10", "0X1p4", "inf", "-infinity", "nan", "", "+", ".", "1e",
            "1e400", " 5", "5 ", "1_000", "１２", "5ms",
        ] {
            #expect(DecimalNumber.parse(text) == nil, "\(text)")
        }
    }

    @Test func aRangeIsNamedInPlainDecimals() {
        #expect(DecimalNumber.rangeText(0.001, 3_600_000, unit: "ms") == "from 0.001 to 3600000 ms")
        #expect(DecimalNumber.parse("0.0001", in: 0.001...1) == nil)
        #expect(DecimalNumber.parse("0.001", in: 0.001...1) == 0.001)
    }

    @Test func quantileOfExtremeValuesDoesNotTrap() {
        #expect(Summary.quantile(sorted: [1, 2, 3], .nan).isNaN)
        #expect(Summary.quantile(sorted: [1, 2, 3], 1e300) == 3)
        #expect(Summary.quantile(sorted: [1, 2, 3], -1e300) == 1)
    }
}
