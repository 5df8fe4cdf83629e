import LaunchAnalysis
import Testing
import _LaunchProfTestSupport

/// The deterministic metric's gate: separation plus a shift above max(ε, the A/A spread).
@Suite("Instruction gate")
struct InstructionGateTests {
    @Test func identicalCountsPass() throws {
        let decision = try InstructionGate.decide(base: [1_000_000, 1_000_000, 1_000_000], head: [1_000_000, 1_000_000, 1_000_000])
        #expect(decision.status == .pass)
        #expect(decision.shift == 0 && decision.spread == 0)
    }

    @Test func aSeparatedShiftAboveTheMinimumEffectIsARegression() throws {
        let decision = try InstructionGate.decide(base: [100_000, 100_001, 100_000], head: [102_000, 102_001, 102_000])
        #expect(decision.status == .regression)
        #expect(abs(decision.shift - 0.02) < 1e-4)
        #expect(decision.separated)
    }

    @Test func aShiftBelowTheMinimumEffectPassesEvenWhenSeparated() throws {
        let decision = try InstructionGate.decide(base: [100_000, 100_000, 100_000], head: [100_300, 100_300, 100_300])
        #expect(decision.status == .pass)
        #expect(decision.separated)
    }

    @Test func anImprovementIsSeparatedTheOtherWay() throws {
        #expect(try InstructionGate.decide(base: [100_000, 100_000, 100_000], head: [90_000, 90_000, 90_000]).status == .improvement)
    }

    @Test func countsThatSpreadMoreThanTheEffectAreInconclusiveAndRaiseTheBar() throws {
        // Identical launches differed by 5 %: a 3 % shift cannot be told from that.
        let noisy = try InstructionGate.decide(base: [100_000, 105_000, 102_000], head: [104_000, 106_000, 105_500])
        #expect(noisy.status == .inconclusive)
        #expect(abs(noisy.spread - 0.05) < 1e-9)
        #expect(noisy.threshold == noisy.spread)
        // A shift well above that spread still decides.
        #expect(try InstructionGate.decide(base: [100_000, 105_000, 102_000], head: [130_000, 131_000, 132_000]).status == .regression)
    }

    @Test func fewerThanThreeLaunchesASideAreRefused() {
        #expect(throws: InstructionGate.RuleError.tooFewLaunches(base: 2, head: 3, needed: 3)) {
            try InstructionGate.decide(base: [1, 1], head: [1, 1, 1])
        }
    }

    /// Seeded simulation with known truth (seed 20261125, 1,000 trials each): counts
    /// as repeatable as measured here (a spread of at most 5e-6 between identical
    /// launches), 3 launches a side, ε = 1 %.
    @Test func simulatedRatesHoldAtThreeLaunchesASide() throws {
        var generator = SeededGenerator(seed: 20_261_125)
        func counts(_ scale: Double) -> [UInt64] {
            (0..<3).map { _ in UInt64((57_700_000 * scale * (1 + Double.random(in: -2.5e-6...2.5e-6, using: &generator))).rounded()) }
        }
        func rate(_ shift: Double) throws -> Double {
            var regressions = 0
            for _ in 0..<1_000 where try InstructionGate.decide(base: counts(1), head: counts(1 + shift)).status == .regression {
                regressions += 1
            }
            return Double(regressions) / 1_000
        }
        #expect(try rate(0) == 0)       // A/A
        #expect(try rate(0.003) == 0)   // +0.3 %: below ε
        #expect(try rate(0.009) == 0)   // just below ε
        #expect(try rate(0.02) == 1)    // +2 %
        #expect(try rate(0.011) == 1)   // just above ε
    }
}
