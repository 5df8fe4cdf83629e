import Foundation
import Testing

@testable import LaunchReports

/// The byte writer every fast renderer writes numbers and strings through.
@Suite("JSON bytes")
struct JSONBytesTests {
    /// Every number of digits, each side of every power of ten, the extremes.
    static let integers: [UInt64] =
        [0, 1, 9, 10, 11, 99, 100, 101, 999, 1_000, .max - 1, .max]
        + (1...19).flatMap { exponent -> [UInt64] in
            let power = (0..<exponent).reduce(UInt64(1)) { product, _ in product * 10 }
            return [power - 1, power, power + 1, power + power / 2 + 7]
        }

    @Test func integersAreWrittenAsSwiftPrintsThem() {
        let bytes = JSONBytes.bytes(capacity: 16) { json in
            for value in Self.integers {
                json.integer(value)
                json.byte(UInt8(ascii: ","))
            }
            for value in [Int.min, Int.min + 1, -1, -10, -99, -100, Int.max] {
                json.integer(value)
                json.byte(UInt8(ascii: ","))
            }
        }
        let expected =
            Self.integers.map { "\($0)," }.joined()
            + [Int.min, Int.min + 1, -1, -10, -99, -100, Int.max].map { "\($0)," }.joined()
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    /// Written through a buffer flushed whenever it is full, the bytes are
    /// those written whole, even with a string larger than the buffer.
    @Test func aFlushedBufferHandsOnEveryByteInOrder() {
        let long = String(repeating: "a \"quoted\" line\n", count: 40)
        func write(_ json: inout JSONBytes) {
            for value in Self.integers {
                json.raw("{\"n\":")
                json.integer(value)
                json.raw(",\"s\":")
                json.string(value % 3 == 0 ? long : "short")
                json.raw("}")
            }
        }
        let whole = JSONBytes.bytes(capacity: 64) { write(&$0) }
        for chunk in [1, 5, 64, 1 << 20] {
            var joined: [UInt8] = []
            JSONBytes.flushing(chunk: chunk, to: { joined.append(contentsOf: $0) }) { write(&$0) }
            #expect(joined == whole, "chunks of \(chunk) bytes")
        }
    }
}
