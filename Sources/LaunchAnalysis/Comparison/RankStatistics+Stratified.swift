// Rank statistics over strata (machines): van Elteren's test, the pooled
// within-stratum shift, and its bootstrap interval.

extension RankStatistics {
    /// One stratum's two samples: the launches of one machine on each side.
    ///
    /// ```swift
    /// let stratum = RankStatistics.Stratum(head: [5.99, 6.01], base: [5.98, 6.00, 5.97])
    /// ```
    public struct Stratum: Sendable, Equatable {
        /// The head's values on this stratum.
        public var head: [Double]
        /// The base's values on this stratum.
        public var base: [Double]

        /// A stratum of `head` and `base` values.
        public init(head: [Double], base: [Double]) {
            self.head = head
            self.base = base
        }
    }

    /// The result of van Elteren's stratified test.
    ///
    /// `statistic` is T = Σₛ Wₛ / (Nₛ + 1), with Wₛ the sum of the head's
    /// midranks within stratum s and Nₛ its number of values; `expected` and
    /// `variance` are T's mean and tie-corrected variance under the null.
    ///
    /// ```swift
    /// let test = RankStatistics.vanElteren(strata, alternative: .greater)
    /// print(test.statistic, test.z, test.pValue)
    /// ```
    public struct VanElteren: Sendable, Equatable {
        /// T = Σₛ Wₛ / (Nₛ + 1).
        public var statistic: Double
        /// E[T] = Σₛ nₛ / 2 under the null (nₛ the head's count).
        public var expected: Double
        /// Var[T] under the null, tie-corrected.
        public var variance: Double
        /// (T − E[T]) / √Var[T]; 0 when the variance is 0.
        public var z: Double
        /// The one-sided p-value in the direction asked for, from the normal approximation.
        public var pValue: Double
    }

    /// Van Elteren's test: the stratified form of the Mann–Whitney test, which
    /// compares head with base within each stratum and combines the strata.
    ///
    /// Each stratum's head rank sum Wₛ (midranks within the stratum) is weighted by
    /// 1/(Nₛ + 1), which gives each stratum a weight near-optimal against a shift
    /// common to all strata, whatever their sizes. With nₛ head and mₛ base values,
    /// E[Wₛ] = nₛ(Nₛ + 1)/2 and Var[Wₛ] = nₛmₛ/12 · ((Nₛ + 1) − Σ(t³ − t)/(Nₛ(Nₛ − 1))),
    /// the sum over groups of t tied values. z = (T − E[T])/√Var[T], no continuity
    /// correction; `.greater` gives P(Z ≥ z), `.less` P(Z ≤ z). A stratum with an
    /// empty side adds nothing; when the variance is 0 the p-value is 1. With one
    /// stratum this is the Mann–Whitney test's normal approximation without
    /// continuity correction. O(Σ Nₛ log Nₛ).
    ///
    /// ```swift
    /// let strata = [RankStatistics.Stratum(head: [5, 6, 7], base: [1, 2, 3]),
    ///               RankStatistics.Stratum(head: [15, 16], base: [11, 12, 13, 14])]
    /// RankStatistics.vanElteren(strata, alternative: .greater).pValue  // ≈ 0.00348 (T ≈ 3.714)
    /// ```
    public static func vanElteren(_ strata: [Stratum], alternative: Alternative) -> VanElteren {
        var statistic = 0.0
        var expected = 0.0
        var variance = 0.0
        for stratum in strata where !stratum.head.isEmpty && !stratum.base.isEmpty {
            let n = Double(stratum.head.count)
            let m = Double(stratum.base.count)
            let count = n + m
            let ranked = RankedSample(headAscending: stratum.head.sorted(), baseDescending: stratum.base.sorted(by: >))
            let rankSum = ranked.u + n * (n + 1) / 2
            statistic += rankSum / (count + 1)
            expected += n / 2
            variance +=
                n * m / 12 * ((count + 1) - ranked.tieTerm / (count * (count - 1))) / ((count + 1) * (count + 1))
        }
        guard variance > 0 else {
            return VanElteren(statistic: statistic, expected: expected, variance: variance, z: 0, pValue: 1)
        }
        let z = (statistic - expected) / variance.squareRoot()
        let p = alternative == .greater ? normalCDF(-z) : normalCDF(z)
        return VanElteren(statistic: statistic, expected: expected, variance: variance, z: z, pValue: min(max(p, 0), 1))
    }

    /// Van Elteren's test of head − `shift` against base in every stratum: does
    /// the common shift exceed `shift` (`.greater`) or fall short of it (`.less`)?
    ///
    /// ```swift
    /// RankStatistics.vanElteren(strata, alternative: .greater, shift: 0.049).pValue  // "more than +5 %" on log times
    /// ```
    public static func vanElteren(_ strata: [Stratum], alternative: Alternative, shift: Double) -> VanElteren {
        guard shift != 0 else { return vanElteren(strata, alternative: alternative) }
        return vanElteren(
            strata.map { Stratum(head: $0.head.map { $0 - shift }, base: $0.base) }, alternative: alternative)
    }

    /// The confidence interval of the common shift obtained by inverting van
    /// Elteren's test, each bound at one-sided level `alpha`.
    ///
    /// The interval is the closure of every shift s that neither one-sided test of
    /// head − s (``vanElteren(_:alternative:shift:)``) rejects at `alpha`: the
    /// statistic only changes where s crosses a within-stratum difference, so each
    /// bound is found by bisection over the sorted distinct differences, testing at
    /// the midpoint of each gap. A bound that no shift can reach (the test cannot
    /// reject with so few launches) is −∞ or +∞. Coverage is the test's: at least
    /// 1 − 2·`alpha` as far as its normal approximation holds, which
    /// `GateAuditTests.fleetCoverage` checks at 5 launches per machine and side. NaN when no
    /// stratum has both sides. O(log(Σ nₛmₛ) · Σ Nₛ log Nₛ) after sorting the differences.
    ///
    /// ```swift
    /// let (lower, upper) = RankStatistics.vanElterenInterval(strata, alpha: 0.005)  // 99 %
    /// ```
    public static func vanElterenInterval(_ strata: [Stratum], alpha: Double) -> (lower: Double, upper: Double) {
        var points = PooledDifferences.sortedValues(strata)
        guard !points.isEmpty else { return (.nan, .nan) }
        points = points.reduce(into: [Double]()) { unique, value in if unique.last != value { unique.append(value) } }
        // Gap j is the open interval (points[j − 1], points[j]), gaps 0 and points.count unbounded.
        func probe(_ gap: Int) -> Double {
            if gap == 0 { return points[0] - max(1, abs(points[0])) }
            if gap == points.count { return points[points.count - 1] + max(1, abs(points[points.count - 1])) }
            return points[gap - 1] + (points[gap] - points[gap - 1]) / 2
        }
        // The first gap whose shift the "greater" test no longer rejects (it rejects below).
        var low = 0
        var high = points.count + 1
        while low < high {
            let middle = (low + high) / 2
            if vanElteren(strata, alternative: .greater, shift: probe(middle)).pValue < alpha {
                low = middle + 1
            } else {
                high = middle
            }
        }
        let lower = low == 0 ? -Double.infinity : low > points.count ? Double.infinity : points[low - 1]
        // The last gap whose shift the "less" test does not reject (it rejects above).
        low = -1
        high = points.count
        while low < high {
            let middle = (low + high + 1) / 2
            if vanElteren(strata, alternative: .less, shift: probe(middle)).pValue < alpha {
                high = middle - 1
            } else {
                low = middle
            }
        }
        let upper = low == points.count ? Double.infinity : low < 0 ? -Double.infinity : points[low]
        return (lower, upper)
    }

    /// The median of every within-stratum difference head_i − base_j, all strata
    /// pooled (the mean of the middle two when their number is even, as `numpy.median`).
    ///
    /// A stratum with Nₛ = nₛ·mₛ differences counts Nₛ times; differences across
    /// strata are never formed. NaN when no stratum has both sides.
    ///
    /// ```swift
    /// RankStatistics.stratifiedShift([.init(head: [11, 12], base: [1, 2]), .init(head: [105], base: [100])])  // 10
    /// ```
    public static func stratifiedShift(_ strata: [Stratum]) -> Double {
        let values = PooledDifferences.sortedValues(strata)
        let count = values.count
        guard count > 0 else { return .nan }
        return count % 2 == 1 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2
    }

    /// The percentile bootstrap 95 % interval of ``stratifiedShift(_:)``.
    ///
    /// Each of `resamples` resamples draws, stratum by stratum in the order given,
    /// mₛ base values and then nₛ head values with replacement from that stratum
    /// (index = SplitMix64 output modulo the count, the generator started at
    /// `seed`), and takes the median of the pooled within-stratum differences of
    /// what was drawn; the bounds are the 2.5 % and 97.5 % quantiles of those
    /// medians (linear interpolation, as `numpy.quantile`). Launches are resampled
    /// within their machine, never across. Both bounds are NaN when no stratum has
    /// both sides. The differences are sorted once; each resample then walks them
    /// with the resample's multiplicities, O(R · Σ nₛmₛ) in all.
    ///
    /// ```swift
    /// let (lower, upper) = RankStatistics.bootstrapInterval(strata, resamples: 2_000, seed: RankStatistics.bootstrapSeed)
    /// ```
    public static func bootstrapInterval(
        _ strata: [Stratum], resamples: Int = bootstrapResamples, seed: UInt64 = bootstrapSeed
    )
        -> (lower: Double, upper: Double)
    {
        let differences = PooledDifferences(strata)
        guard differences.count > 0, resamples > 0 else { return (.nan, .nan) }
        var medians = differences.bootstrapMedians(resamples: resamples, seed: seed)
        medians.sort()
        return (Summary.quantile(sorted: medians, 0.025), Summary.quantile(sorted: medians, 0.975))
    }

    /// How many resamples ``bootstrapInterval(_:resamples:seed:)`` draws by default.
    public static let bootstrapResamples = 2_000
    /// The seed ``bootstrapInterval(_:resamples:seed:)`` starts from by default, so
    /// that a comparison gives the same interval every time it is computed.
    public static let bootstrapSeed: UInt64 = 20_261_123
}

// MARK: - Pieces (internal)

extension RankStatistics {
    /// Every within-stratum difference, sorted once, with the positions of the
    /// head and base value it came from (positions run on across strata).
    struct PooledDifferences {
        struct Span {
            var headStart: Int
            var headCount: Int
            var baseStart: Int
            var baseCount: Int
        }

        var strata: [Span] = []
        var headCount = 0
        var baseCount = 0
        /// The differences ascending, with their head and base positions.
        var values: [Double] = []
        var heads: [Int32] = []
        var bases: [Int32] = []

        var count: Int { values.count }

        /// The differences alone, ascending: what a median or an interval over them needs,
        /// without the positions the bootstrap weighs them by (a plain sort of doubles
        /// rather than of the differences with their positions).
        static func sortedValues(_ strata: [Stratum]) -> [Double] {
            var values: [Double] = []
            values.reserveCapacity(strata.reduce(0) { $0 + $1.head.count * $1.base.count })
            for stratum in strata {
                for h in stratum.head {
                    for b in stratum.base { values.append(h - b) }
                }
            }
            values.sort()
            return values
        }

        init(_ given: [Stratum]) {
            var all: [(value: Double, head: Int32, base: Int32)] = []
            for stratum in given where !stratum.head.isEmpty && !stratum.base.isEmpty {
                strata.append(
                    Span(
                        headStart: headCount, headCount: stratum.head.count, baseStart: baseCount,
                        baseCount: stratum.base.count))
                for (i, h) in stratum.head.enumerated() {
                    for (j, b) in stratum.base.enumerated() {
                        all.append((h - b, Int32(headCount + i), Int32(baseCount + j)))
                    }
                }
                headCount += stratum.head.count
                baseCount += stratum.base.count
            }
            all.sort { $0.value < $1.value }
            values = all.map(\.value)
            heads = all.map(\.head)
            bases = all.map(\.base)
        }

        /// The median of each of `resamples` bootstrap resamples (see
        /// ``RankStatistics/bootstrapInterval(_:resamples:seed:)``): each difference
        /// counts (head multiplicity × base multiplicity) times, and every stratum's
        /// multiplicities sum to its counts, so the total is always ``count``. One
        /// pass over the sorted differences per resample, stopping at the middle.
        func bootstrapMedians(resamples: Int, seed: UInt64) -> [Double] {
            var random = SplitMix64(seed: seed)
            var medians = [Double](repeating: .nan, count: resamples)
            var headWeights = [Int](repeating: 0, count: headCount)
            var baseWeights = [Int](repeating: 0, count: baseCount)
            let total = count
            let lowRank = (total + 1) / 2
            let highRank = total / 2 + 1
            values.withUnsafeBufferPointer { values in
                heads.withUnsafeBufferPointer { heads in
                    bases.withUnsafeBufferPointer { bases in
                        headWeights.withUnsafeMutableBufferPointer { headWeights in
                            baseWeights.withUnsafeMutableBufferPointer { baseWeights in
                                for resample in 0..<resamples {
                                    headWeights.update(repeating: 0)
                                    baseWeights.update(repeating: 0)
                                    for stratum in strata {
                                        let b = UInt64(stratum.baseCount)
                                        let h = UInt64(stratum.headCount)
                                        for _ in 0..<stratum.baseCount {
                                            baseWeights[stratum.baseStart + Int(random.next() % b)] += 1
                                        }
                                        for _ in 0..<stratum.headCount {
                                            headWeights[stratum.headStart + Int(random.next() % h)] += 1
                                        }
                                    }
                                    var seen = 0
                                    var low = Double.nan
                                    var position = 0
                                    while position < total {
                                        seen += headWeights[Int(heads[position])] * baseWeights[Int(bases[position])]
                                        if seen >= lowRank {
                                            if low.isNaN { low = values[position] }
                                            if seen >= highRank { break }
                                        }
                                        position += 1
                                    }
                                    medians[resample] = (low + values[position]) / 2
                                }
                            }
                        }
                    }
                }
            }
            return medians
        }
    }

    /// SplitMix64 (Steele, Lea and Flood): a small, fast generator whose whole
    /// sequence follows from its seed.
    struct SplitMix64 {
        var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
