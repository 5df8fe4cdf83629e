import Foundation
import LaunchAnalysis
import Testing
import _LaunchProfTestSupport

/// The audit's simulations (issue 21) as seeded tests; see ``GateAudit``.
@Suite("Gate audit simulations")
struct GateAuditTests {
    /// Power at +10 %, +15 % and +30 % for 10, 20 and 40 launches a side, one look,
    /// CV 5 %, defaults (α 0.01, ε 5 % / 5 ms); 1,000 trials each (ids 100…108).
    @Test("power at +10 %, +15 %, +30 % for n = 10, 20, 40 (printed)")
    func power() async {
        var id: UInt64 = 100
        for n in [10, 20, 40] {
            for slowdown in [1.10, 1.15, 1.30] {
                let rate = await GateAudit.count(id: id, trials: 1_000) { generator in
                    GateAudit.stagedVerdict(stages: [n], slowdown: slowdown, noise: .cv(0.05), using: &generator) == .regression
                }
                print("audit power n=\(n) +\(Int((slowdown - 1) * 100 + 0.5)) %: \(rate)")
                let staged = await GateAudit.count(id: id + 50, trials: 1_000) { generator in
                    GateAudit.stagedVerdict(stages: [n, 2 * n, 3 * n], slowdown: slowdown, noise: .cv(0.05), using: &generator) == .regression
                }
                print("audit power stages \(n),\(2 * n),\(3 * n) +\(Int((slowdown - 1) * 100 + 0.5)) %: \(staged)")
                id += 1
            }
        }
    }
}
