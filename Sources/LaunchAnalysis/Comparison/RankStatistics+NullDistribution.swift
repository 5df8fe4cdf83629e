// The exact null distribution of the Mann–Whitney U statistic.

import LaunchTracing

extension RankStatistics {
    /// ``exactNullCounts(_:_:)`` and their sum, C(n+m, n), computed once for each pair
    /// of sizes a process meets (a sequential gate looks at the same sizes at every
    /// stage, and a simulation of it thousands of times). The counts depend on the
    /// sizes alone (and not on their order). The cache holds at most
    /// ``nullCountsCacheLimit`` counts in all; past that it starts again.
    static func cachedNullCounts(_ n: Int, _ m: Int) -> (counts: [Double], arrangements: Double) {
        let key = NullCountsKey(small: min(n, m), large: max(n, m))
        if let cached = nullCountsCache.withLock({ nullCountsStore.entries[key] }) { return cached }
        let counts = exactNullCounts(n, m)
        var arrangements = 0.0
        for count in counts { arrangements += count }
        guard counts.count <= nullCountsCacheLimit else { return (counts, arrangements) }
        nullCountsCache.withLock {
            if nullCountsStore.held + counts.count > nullCountsCacheLimit { nullCountsStore = NullCountsStore() }
            nullCountsStore.entries[key] = (counts, arrangements)
            nullCountsStore.held += counts.count
        }
        return (counts, arrangements)
    }

    /// The most counts ``cachedNullCounts(_:_:)`` keeps (8 MB of `Double`).
    static let nullCountsCacheLimit = 1 << 20

    private struct NullCountsKey: Hashable {
        var small: Int
        var large: Int
    }

    private struct NullCountsStore {
        var entries: [NullCountsKey: (counts: [Double], arrangements: Double)] = [:]
        var held = 0
    }

    private static let nullCountsCache = Lock()
    nonisolated(unsafe) private static var nullCountsStore = NullCountsStore()

    /// How many of the C(n+m, n) orderings of n head and m base values give U = 0, 1, …, nm
    /// (index u). Counts are exact integers in Double for n + m ≤ 40 (C(40, 20) ≈ 1.4e11);
    /// beyond (min(n, m) ≤ 8 with a large other side) they are rounded to Double's
    /// 53 bits, and a tail probability computed from them is off by about
    /// 1e-16 · min(n, m) · nm at most in absolute terms (1e-11 for 8 against 10,000).
    ///
    /// The counts are the coefficients of the Gaussian binomial [n+m choose n]_q, built
    /// as ∏ᵢ (1 − q^(L+i)) / (1 − q^i) for i = 1…S (S, L the smaller and larger count):
    /// after step i the polynomial is [L+i choose i]_q, and every intermediate
    /// coefficient is an integer no larger in magnitude than C(n+m, n), so Double holds
    /// it exactly. O(S·nm) time, O(nm) memory.
    static func exactNullCounts(_ n: Int, _ m: Int) -> [Double] {
        let small = min(n, m)
        let large = max(n, m)
        var polynomial = [Double](repeating: 0, count: small * (large + 1) + 1)
        polynomial[0] = 1
        // Plain while loops: this runs once per comparison, and also in debug builds.
        var i = 1
        while i <= small {
            let factor = large + i
            var k = (i - 1) * large + factor  // degree after multiplying by (1 − q^factor)
            let top = k
            while k >= factor {
                polynomial[k] -= polynomial[k - factor]
                k -= 1
            }
            // Dividing by (1 − q^i) is a running sum with stride i; the division is exact.
            k = i
            while k <= top {
                polynomial[k] += polynomial[k - i]
                k += 1
            }
            i += 1
        }
        return Array(polynomial[0...(small * large)])
    }
}
