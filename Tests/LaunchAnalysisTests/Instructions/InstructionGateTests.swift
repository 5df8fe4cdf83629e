import LaunchAnalysis
import Testing
import _LaunchProfTestSupport

/// The deterministic metric's gate: a regression above max(ε, the A/A spread), a pass
/// only below ε − spread, inconclusive between.
@Suite("Instruction gate")
struct InstructionGateTests {
    @Test func identicalCountsPass() throws {
        let decision = try InstructionGate.decide(
            base: [1_000_000, 1_000_000, 1_000_000], head: [1_000_000, 1_000_000, 1_000_000])
        #expect(decision.status == .pass)
        #expect(decision.shift == 0 && decision.spread == 0)
    }

    @Test func aSeparatedShiftAboveTheMinimumEffectIsARegression() throws {
        let decision = try InstructionGate.decide(
            base: [100_000, 100_001, 100_000], head: [102_000, 102_001, 102_000])
        #expect(decision.status == .regression)
        #expect(abs(decision.shift - 0.02) < 1e-4)
        #expect(decision.separated)
    }

    @Test func aShiftBelowTheMinimumEffectPassesEvenWhenSeparated() throws {
        let decision = try InstructionGate.decide(
            base: [100_000, 100_000, 100_000], head: [100_300, 100_300, 100_300])
        #expect(decision.status == .pass)
        #expect(decision.separated)
    }

    @Test func anImprovementIsSeparatedTheOtherWay() throws {
        #expect(
            try InstructionGate.decide(base: [100_000, 100_000, 100_000], head: [90_000, 90_000, 90_000]).status
                == .improvement)
    }

    @Test func countsThatSpreadMoreThanTheEffectAreInconclusiveAndRaiseTheBar() throws {
        // Identical launches differed by 5 %: a 3 % shift cannot be told from that.
        let noisy = try InstructionGate.decide(base: [100_000, 105_000, 102_000], head: [104_000, 106_000, 105_500])
        #expect(noisy.status == .inconclusive)
        #expect(abs(noisy.spread - 0.05) < 1e-9)
        #expect(noisy.threshold == noisy.spread)
        // A shift well above that spread still decides.
        #expect(
            try InstructionGate.decide(base: [100_000, 105_000, 102_000], head: [130_000, 131_000, 132_000]).status
                == .regression)
    }

    /// The cases: sides that overlap (spreads up to 1 %) used to pass +1.85 % and +1.5 % at ε = 1 %.
    @Test func aShiftAboveTheMinimumEffectAndTheSpreadIsARegressionEvenWhenTheSidesOverlap() throws {
        let base: [UInt64] = [100_000, 100_000, 100_900]
        let big = try InstructionGate.decide(base: base, head: [100_850, 101_850, 101_850])
        #expect(big.status == .regression)
        #expect(!big.separated)
        #expect(abs(big.shift - 0.0185) < 1e-9)
        let smaller = try InstructionGate.decide(base: base, head: [100_850, 101_500, 101_500])
        #expect(smaller.status == .regression)
        #expect(!smaller.separated)
        #expect(try InstructionGate.decide(base: [101_850, 101_850, 100_850], head: base).status == .improvement)
    }

    @Test func aShiftWithinTheSpreadOfTheMinimumEffectIsInconclusive() throws {
        // Spread 0.9 %: a pass needs a shift below 1 % − 0.9 % = 0.1 %; +0.5 % is neither.
        let decision = try InstructionGate.decide(
            base: [100_000, 100_000, 100_900], head: [100_500, 100_500, 100_500])
        #expect(decision.status == .inconclusive)
        #expect(abs((decision.passBelow ?? 1) - 0.001) < 1e-9)
        #expect(decision.threshold == 0.01)
    }

    @Test func aPassNeedsTheShiftBelowTheMinimumEffectByMoreThanTheSpread() throws {
        // Spread 0.5 %: below 0.5 % passes, 0.6 % is inconclusive.
        let base: [UInt64] = [100_000, 100_000, 100_500]
        #expect(try InstructionGate.decide(base: base, head: [100_050, 100_050, 100_050]).status == .pass)
        #expect(try InstructionGate.decide(base: base, head: [100_600, 100_600, 100_600]).status == .inconclusive)
        // A spread of ε or more leaves no pass: even a shift of 0 is inconclusive.
        #expect(
            try InstructionGate.decide(base: [100_000, 100_000, 101_000], head: [100_000, 100_000, 100_000]).status
                == .inconclusive)
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
            (0..<3).map { _ in
                UInt64((57_700_000 * scale * (1 + Double.random(in: -2.5e-6...2.5e-6, using: &generator))).rounded())
            }
        }
        func rate(_ shift: Double) throws -> Double {
            var regressions = 0
            for _ in 0..<1_000
            where try InstructionGate.decide(base: counts(1), head: counts(1 + shift)).status == .regression {
                regressions += 1
            }
            return Double(regressions) / 1_000
        }
        #expect(try rate(0) == 0)  // A/A
        #expect(try rate(0.003) == 0)  // +0.3 %: below ε
        #expect(try rate(0.009) == 0)  // just below ε
        #expect(try rate(0.02) == 1)  // +2 %
        #expect(try rate(0.011) == 1)  // just above ε
    }
}
