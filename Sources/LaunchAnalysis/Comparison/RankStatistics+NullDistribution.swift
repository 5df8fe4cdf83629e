// The exact null distribution of the Mann–Whitney U statistic.

extension RankStatistics {
    /// How many of the C(n+m, n) orderings of n head and m base values give U = 0, 1, …, nm
    /// (index u). Counts are exact integers in Double for n + m ≤ 40 (C(40, 20) ≈ 1.4e11).
    ///
    /// The counts are the coefficients of the Gaussian binomial [n+m choose n]_q, built
    /// as ∏ᵢ (1 − q^(L+i)) / (1 − q^i) for i = 1…S (S, L the smaller and larger count):
    /// after step i the polynomial is [L+i choose i]_q, and every intermediate
    /// coefficient is an integer no larger in magnitude than C(n+m, n), so Double holds
    /// it exactly. O(S·nm) time, O(nm) memory.
    static func exactNullCounts(_ n: Int, _ m: Int) -> [Double] {
        let small = min(n, m), large = max(n, m)
        var polynomial = [Double](repeating: 0, count: small * (large + 1) + 1)
        polynomial[0] = 1
        if small > 0 {
            for i in 1...small {
                let factor = large + i
                let top = (i - 1) * large + factor  // degree after multiplying by (1 − q^factor)
                for k in stride(from: top, through: factor, by: -1) {
                    polynomial[k] -= polynomial[k - factor]
                }
                // Dividing by (1 − q^i) is a running sum with stride i; the division is exact.
                if i <= top {
                    for k in i...top { polynomial[k] += polynomial[k - i] }
                }
            }
        }
        return Array(polynomial[0...(small * large)])
    }
}
