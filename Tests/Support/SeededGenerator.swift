import Foundation

/// A random number generator whose whole sequence follows from one seed, so a
/// failing randomized test can be replayed: SplitMix64 (Steele, Lea and Flood;
/// Vigna's `splitmix64.c`).
///
/// `fromEnvironment()` takes the seed from `LAUNCHPROF_TEST_SEED` when it is set,
/// else draws a fresh one; a test puts ``replayNote`` in its failure messages.
/// Not for cryptography. A value type: a copy continues the same sequence.
///
/// ```swift
/// var generator = try SeededGenerator.fromEnvironment()
/// let note = Comment(rawValue: generator.replayNote)
/// let count = Int.random(in: 1...8, using: &generator)
/// #expect(count <= 8, note)
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The environment variable a seed is replayed from.
    public static let seedVariable = "LAUNCHPROF_TEST_SEED"

    /// The seed the sequence started from.
    public let seed: UInt64
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A generator seeded from `LAUNCHPROF_TEST_SEED` (decimal, or hexadecimal
    /// with `0x`) when it is set in `environment`, else from the system's generator.
    ///
    /// - Throws: ``BadSeed`` when the variable is set but is not a 64-bit unsigned number.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(BadSeed) -> SeededGenerator {
        guard let text = environment[seedVariable] else {
            var system = SystemRandomNumberGenerator()
            return SeededGenerator(seed: system.next())
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let seed = trimmed.lowercased().hasPrefix("0x") ? UInt64(trimmed.dropFirst(2), radix: 16) : UInt64(trimmed)
        guard let seed else { throw BadSeed(value: text) }
        return SeededGenerator(seed: seed)
    }

    /// What a failure message says so the run can be replayed:
    /// "seed 42 — replay with LAUNCHPROF_TEST_SEED=42".
    public var replayNote: String {
        "seed \(seed) — replay with \(Self.seedVariable)=\(seed)"
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `LAUNCHPROF_TEST_SEED` holds something that is not a seed.
    public struct BadSeed: Error, Equatable, CustomStringConvertible {
        /// The variable's value.
        public var value: String

        /// The error for the variable's `value`.
        public init(value: String) {
            self.value = value
        }

        public var description: String {
            "\(SeededGenerator.seedVariable) is '\(value)'; expected a 64-bit unsigned number (decimal, or hexadecimal with 0x)"
        }
    }
}
