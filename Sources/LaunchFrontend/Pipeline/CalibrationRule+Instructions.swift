import LaunchAnalysis

extension CalibrationRule {
    /// What the A/A rounds' instruction counts say about the instruction gate: the
    /// widest spread between identical launches against its 1 % minimum effect
    /// (``InstructionGate``), which cannot decide where identical launches differ by more.
    static func instructionAdvice(widestSpread: Double) -> String {
        let spread = Milliseconds.fixed(widestSpread * 100, decimals: 3) + "%"
        let effect = Milliseconds.fixed(InstructionGate.defaultMinimumEffect * 100, decimals: 0) + "%"
        guard widestSpread <= InstructionGate.defaultMinimumEffect else {
            return
                "instructions: identical launches differed by up to \(spread), above the \(effect) the instruction gate "
                + "tests: its comparisons will be inconclusive until what varies between launches is held fixed "
                + "(files the program changes: reset them with --prepare)"
        }
        return
            "instructions: identical launches differed by up to \(spread), within the \(effect) the instruction gate tests"
    }
}
