import Testing
import _LaunchProfTestSupport

/// The test support's seeded generator: what makes a randomized test replayable.
@Suite("Seeded generator")
struct SeededGeneratorTests {
    /// SplitMix64's published output for seed 0 (Vigna's `splitmix64.c`).
    @Test func seedZeroGivesSplitMix64sReferenceOutput() {
        var generator = SeededGenerator(seed: 0)
        #expect(
            (0..<3).map { _ in generator.next() } == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
            ])
    }

    @Test(arguments: [0, 1, 42, UInt64.max])
    func theSameSeedGivesTheSameSequence(_ seed: UInt64) {
        var first = SeededGenerator(seed: seed)
        var second = SeededGenerator(seed: seed)
        let a = (0..<100).map { _ in first.next() }
        let b = (0..<100).map { _ in second.next() }
        #expect(a == b)
        // And the sequence is not stuck on one value.
        #expect(Set(a).count == 100)
        // Drawing through the standard library's helpers replays too.
        var third = SeededGenerator(seed: seed)
        var fourth = SeededGenerator(seed: seed)
        #expect(
            (0..<50).map { _ in Int.random(in: 0..<1_000, using: &third) }
                == (0..<50).map { _ in Int.random(in: 0..<1_000, using: &fourth) })
    }

    @Test func differentSeedsGiveDifferentSequences() {
        let sequences = (0..<16).map { seed in
            var generator = SeededGenerator(seed: UInt64(seed))
            return (0..<8).map { _ in generator.next() }
        }
        #expect(Set(sequences).count == sequences.count)
        // Not even one position in common between neighbouring seeds.
        for (a, b) in zip(sequences, sequences.dropFirst()) {
            #expect(zip(a, b).allSatisfy { $0 != $1 }, "\(a) vs \(b)")
        }
    }

    @Test func theSeedComesFromTheEnvironmentWhenSet() throws {
        #expect(try SeededGenerator.fromEnvironment(["LAUNCHPROF_TEST_SEED": "12345"]).seed == 12_345)
        #expect(try SeededGenerator.fromEnvironment(["LAUNCHPROF_TEST_SEED": "0xff"]).seed == 255)
        var replayed = try SeededGenerator.fromEnvironment(["LAUNCHPROF_TEST_SEED": "\(UInt64.max)"])
        var direct = SeededGenerator(seed: .max)
        #expect(replayed.next() == direct.next())
        #expect(replayed.replayNote == "seed \(UInt64.max) — replay with LAUNCHPROF_TEST_SEED=\(UInt64.max)")
    }

    @Test func withoutTheVariableEachRunGetsAFreshSeed() throws {
        let seeds = try (0..<8).map { _ in try SeededGenerator.fromEnvironment([:]).seed }
        #expect(Set(seeds).count > 1, "\(seeds)")
    }

    @Test(arguments: ["", "seven", "-1", "18446744073709551616", "0x"])
    func aBadSeedIsRejectedNamingIt(_ value: String) {
        #expect(throws: SeededGenerator.BadSeed(value: value)) {
            try SeededGenerator.fromEnvironment(["LAUNCHPROF_TEST_SEED": value])
        }
        #expect(SeededGenerator.BadSeed(value: value).description.contains("LAUNCHPROF_TEST_SEED is '\(value)'"))
    }
}
