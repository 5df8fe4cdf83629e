// Everything the rank statistics need from one pair of samples, computed once.

extension RankStatistics {
    /// Head and base, with U, the ties, the exact null distribution when the test is
    /// exact, and the (implicit) pairwise differences.
    struct TwoSamples {
        var n: Int
        var m: Int
        var ranked: RankedSample
        /// Counts of U = 0…nm under the null when the exact distribution is cheap
        /// (``RankStatistics/exactIsCheap(_:_:)``) and no side repeats a value
        /// (a tie within a side stays a tie at any shift), else nil.
        var nullCounts: [Double]?
        /// C(n+m, n), the sum of `nullCounts` (0 when there are none).
        var arrangements = 0.0
        var differences: Differences

        init(head: [Double], base: [Double]) {
            n = head.count
            m = base.count
            differences = Differences(head: head, base: base)
            ranked = RankedSample(headAscending: differences.head, baseDescending: differences.base)
            let repeatsWithin =
                zip(differences.head, differences.head.dropFirst()).contains { $0 == $1 }
                || zip(differences.base, differences.base.dropFirst()).contains { $0 == $1 }
            if !repeatsWithin && RankStatistics.exactIsCheap(n, m) {
                let exact = RankStatistics.cachedNullCounts(n, m)
                nullCounts = exact.counts
                arrangements = exact.arrangements
            }
        }

        /// The exact null counts when this pair's test is exact (no value twice in the combined sample), else nil.
        var exactCounts: [Double]? { ranked.hasTies ? nil : nullCounts }

        /// The one-sided test (see ``RankStatistics/mannWhitney(head:base:alternative:shift:)``).
        func mannWhitney(_ alternative: Alternative) -> MannWhitney {
            test(ranked, alternative)
        }

        /// The one-sided test of head − `shift` against base: does the shift exceed
        /// `shift` (`.greater`) or fall short of it (`.less`)? As SciPy on the shifted head.
        func mannWhitney(_ alternative: Alternative, shift: Double) -> MannWhitney {
            guard shift != 0 else { return mannWhitney(alternative) }
            return test(
                RankedSample(headAscending: differences.head.map { $0 - shift }, baseDescending: differences.base),
                alternative)
        }

        private func test(_ ranked: RankedSample, _ alternative: Alternative) -> MannWhitney {
            let pairs = Double(n * m)
            // U of the side the alternative says is larger; its upper tail is the p-value.
            let statistic = alternative == .greater ? ranked.u : pairs - ranked.u
            if let counts = nullCounts, !ranked.hasTies {
                var upperTail = 0.0
                for u in Int(statistic)..<counts.count { upperTail += counts[u] }
                return MannWhitney(u: ranked.u, pValue: min(max(upperTail / arrangements, 0), 1), method: .exact)
            }
            guard n > 0, m > 0 else { return MannWhitney(u: ranked.u, pValue: 1, method: .asymptotic) }
            let mean = pairs / 2
            let count = Double(n + m)
            let deviation = (pairs / 12 * ((count + 1) - ranked.tieTerm / (count * (count - 1)))).squareRoot()
            // Continuity correction: the upper tail's statistic moves half a step toward the mean.
            let z = (statistic - mean - 0.5) / deviation
            return MannWhitney(u: ranked.u, pValue: min(max(normalCDF(-z), 0), 1), method: .asymptotic)
        }

        /// The Moses interval whose bounds are each one-sided at `alpha`
        /// (see ``RankStatistics/mosesInterval(head:base:alpha:)``).
        func mosesInterval(alpha: Double = 0.025) -> (lower: Double, upper: Double) {
            guard differences.count > 0 else { return (.nan, .nan) }
            guard let k = mosesRank(alpha: alpha) else { return (-.infinity, .infinity) }
            return (differences.smallest(k), differences.smallest(differences.count + 1 - k))
        }

        /// k of the Moses interval: 1 + the largest c with P(U ≤ c) ≤ `alpha`; nil when
        /// no c qualifies (no interval from these counts reaches the level).
        func mosesRank(alpha: Double) -> Int? {
            let pairs = n * m
            if let counts = exactCounts {
                var cumulative = 0.0
                var k: Int?
                for c in 0...pairs {
                    cumulative += counts[c]
                    // P(U ≤ c) ≤ alpha; at 2.5 % compared exactly on the counts (integers below 2^53 for n + m ≤ 40).
                    guard alpha == 0.025 ? 40 * cumulative <= arrangements : cumulative <= alpha * arrangements else {
                        break
                    }
                    k = c + 1
                }
                return k
            }
            // The rank the test itself rejects at: the shifted test's z, (U − nm/2 − ½)/σ, is above
            // z₁₋α exactly when U ≥ c = ⌊nm/2 + ½ + z₁₋α·σ⌋ + 1, that is when the shift is below the
            // c-th largest difference, the (nm + 1 − c)-th smallest: so the bound and the decision agree
            // (the continuity correction included; a rounding of nm/2 − z·σ alone was one rank off).
            let z = normalQuantile(1 - alpha)
            let sigma = (Double(pairs) * Double(n + m + 1) / 12).squareRoot()
            let c = (Double(pairs) / 2 + 0.5 + z * sigma).rounded(.down) + 1
            let k = Double(pairs) + 1 - c
            guard k >= 1 else { return nil }
            return Int(saturating: k)
        }
    }

    /// U of head against base and the tie term Σ(t³ − t) over groups of equal values.
    struct RankedSample {
        var u: Double = 0
        var tieTerm: Double = 0
        var hasTies = false

        /// Walks the two sorted samples together, one group of equal values at a time.
        init(headAscending head: [Double], baseDescending base: [Double]) {
            var h = 0
            var b = base.count - 1  // base read backwards: ascending
            var baseBelow = 0.0
            while h < head.count || b >= 0 {
                let value = b < 0 ? head[h] : h == head.count ? base[b] : min(head[h], base[b])
                var headInGroup = 0.0
                var baseInGroup = 0.0
                while h < head.count, head[h] == value {
                    headInGroup += 1
                    h += 1
                }
                while b >= 0, base[b] == value {
                    baseInGroup += 1
                    b -= 1
                }
                if headInGroup + baseInGroup == 0 {  // NaN equals nothing: count it alone, never loop
                    if h < head.count, head[h].isNaN {
                        headInGroup = 1
                        h += 1
                    } else {
                        baseInGroup = 1
                        b -= 1
                    }
                }
                let size = headInGroup + baseInGroup
                u += headInGroup * baseBelow + 0.5 * headInGroup * baseInGroup
                if size > 1 {
                    hasTies = true
                    tieTerm += size * size * size - size
                }
                baseBelow += baseInGroup
            }
        }
    }

    /// The n·m differences head_i − base_j, never stored: order statistics are
    /// selected from the two sorted samples.
    ///
    /// Row i, read left to right, is head[i] − base[m−1], …, head[i] − base[0] with
    /// base ascending: ascending, since rounded subtraction is monotone. Selection
    /// keeps, per row, the range of positions that may still hold the answer, picks a
    /// pivot among them, counts by binary search in each row how many differences
    /// are below and at most the pivot, and keeps the side holding the answer
    /// (Johnson and Mizoguchi's selection in X + Y). Each step removes at least the
    /// pivot, so it ends, at the pivot that has rank k; pivots are drawn at random (a
    /// fixed sequence), so it takes expected O(log nm) steps of O(n log m). The value
    /// returned is one of the differences, bit for bit what sorting them all would give.
    struct Differences {
        /// Head, ascending.
        var head: [Double]
        /// Base, descending, so that each row ascends.
        var base: [Double]

        init(head: [Double], base: [Double]) {
            self.head = head.sorted()
            self.base = base.sorted(by: >)
        }

        var count: Int { head.count * base.count }

        /// The median: the middle difference, or the mean of the middle two (NaN if none).
        var median: Double {
            guard count > 0 else { return .nan }
            if count % 2 == 1 { return smallest((count + 1) / 2) }
            return (smallest(count / 2) + smallest(count / 2 + 1)) / 2
        }

        /// The k-th smallest difference, k in 1…count.
        func smallest(_ k: Int) -> Double {
            precondition((1...count).contains(k), "order statistic \(k) of \(count) differences")
            let rows = head.count
            let columns = base.count
            var low = [Int](repeating: 0, count: rows)  // positions before low[i] are below the answer
            var high = [Int](repeating: columns, count: rows)  // positions from high[i] on are above it
            var random: UInt64 = 0x9E37_79B9_7F4A_7C15
            while true {
                var remaining = 0
                for i in 0..<rows { remaining += high[i] - low[i] }
                // A pivot uniformly among the remaining positions (xorshift64).
                random ^= random << 13
                random ^= random >> 7
                random ^= random << 17
                var offset = Int(random % UInt64(remaining))
                var row = 0
                while offset >= high[row] - low[row] {
                    offset -= high[row] - low[row]
                    row += 1
                }
                let pivot = head[row] - base[low[row] + offset]
                var below = low
                var atMost = low
                var countBelow = 0
                var countAtMost = 0
                for i in 0..<rows {
                    below[i] = firstPosition(in: i, from: low[i], to: high[i], pastOrAt: pivot)
                    atMost[i] = firstPosition(in: i, from: below[i], to: high[i], past: pivot)
                    countBelow += below[i]
                    countAtMost += atMost[i]
                }
                if k <= countBelow {
                    high = below
                } else if k <= countAtMost {
                    return pivot
                } else {
                    low = atMost
                }
            }
        }

        /// The first position in `from..<to` of row `row` whose difference is ≥ `pivot`, or `to`.
        private func firstPosition(in row: Int, from: Int, to: Int, pastOrAt pivot: Double) -> Int {
            var low = from
            var high = to
            while low < high {
                let middle = (low + high) / 2
                if head[row] - base[middle] >= pivot { high = middle } else { low = middle + 1 }
            }
            return low
        }

        /// The first position in `from..<to` of row `row` whose difference is > `pivot`, or `to`.
        private func firstPosition(in row: Int, from: Int, to: Int, past pivot: Double) -> Int {
            var low = from
            var high = to
            while low < high {
                let middle = (low + high) / 2
                if head[row] - base[middle] > pivot { high = middle } else { low = middle + 1 }
            }
            return low
        }
    }
}
