#!/usr/bin/env python3
"""Reference values for LaunchAnalysis's stratified rank statistics (fleet comparisons).

Writes Tests/LaunchAnalysisTests/Fixtures/fleet-statistics.json. Run it from the
package root, and commit the JSON it writes:

    python3 Tests/LaunchAnalysisTests/Fixtures/make-fleet-statistics.py   (needs numpy and scipy)

Nothing runs this at test or run time; the Swift tests read the committed JSON.
Every value is computed here independently of the Swift code. Each case is a list
of strata (one per machine), each with head and base values:

- Van Elteren's test: within each stratum, midranks by scipy.stats.rankdata of
  the stratum's values; W = the head's rank sum; T = sum of W / (N + 1);
  E[T] = sum of n / 2; Var[T] = sum of n*m/12 * ((N+1) - sum(t^3 - t)/(N(N-1))) / (N+1)^2
  (tie groups counted with numpy.unique); z = (T - E[T]) / sqrt(Var[T]);
  p greater = scipy.stats.norm.sf(z), p less = scipy.stats.norm.cdf(z); p = 1
  when the variance is 0. Checked two ways: with one stratum, the p-values equal
  scipy.stats.mannwhitneyu(..., method="asymptotic", use_continuity=False); for
  small cases, E[T] and Var[T] equal the mean and variance of T over every
  assignment of values to head and base within each stratum (enumerated).
- The stratified shift: numpy.median of all within-stratum differences head - base.
- The bootstrap interval: the documented resampling (stratum by stratum in
  order, base indices then head indices, each SplitMix64 output modulo the count,
  the generator started at the seed), the median of the within-stratum
  differences of each resample, then numpy.quantile(medians, [0.025, 0.975]).
"""

import itertools
import json
import math
import os
import sys

import numpy as np
import scipy
from scipy import stats

SEED = 20261123
BOOTSTRAP_SEED = 20261123
RESAMPLES = 2000
OUTPUT = os.path.join("Tests", "LaunchAnalysisTests", "Fixtures", "fleet-statistics.json")
MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def usable(strata):
    return [(np.asarray(h, dtype=float), np.asarray(b, dtype=float)) for h, b in strata if len(h) and len(b)]


def van_elteren(strata):
    t = expected = variance = 0.0
    for head, base in usable(strata):
        n, m = len(head), len(base)
        count = n + m
        ranks = stats.rankdata(np.concatenate([head, base]))
        w = ranks[:n].sum()
        _, sizes = np.unique(np.concatenate([head, base]), return_counts=True)
        ties = float(np.sum(sizes.astype(float) ** 3 - sizes))
        t += w / (count + 1)
        expected += n / 2
        variance += n * m / 12 * ((count + 1) - ties / (count * (count - 1))) / (count + 1) ** 2
    if variance <= 0:
        return t, expected, variance, 0.0, 1.0, 1.0
    z = (t - expected) / math.sqrt(variance)
    return t, expected, variance, z, float(stats.norm.sf(z)), float(stats.norm.cdf(z))


def enumerated_moments(strata):
    """Mean and variance of T over every within-stratum assignment (small cases only)."""
    per_stratum = []
    for head, base in usable(strata):
        n = len(head)
        values = np.concatenate([head, base])
        ranks = stats.rankdata(values)
        count = len(values)
        ts = [sum(ranks[list(chosen)]) / (count + 1) for chosen in itertools.combinations(range(count), n)]
        per_stratum.append((np.mean(ts), np.var(ts)))
    # Strata are independent under the null: means and variances add.
    return sum(m for m, _ in per_stratum), sum(v for _, v in per_stratum)


def differences(strata, picks=None):
    parts = []
    for index, (head, base) in enumerate(usable(strata)):
        if picks is not None:
            head, base = head[picks[index][0]], base[picks[index][1]]
        parts.append(np.subtract.outer(head, base).ravel())
    return np.concatenate(parts) if parts else np.array([])


def bootstrap(strata, resamples, seed):
    strata_ = usable(strata)
    if not strata_:
        return float("nan"), float("nan")
    random = SplitMix64(seed)
    medians = []
    for _ in range(resamples):
        picks = []
        for head, base in strata_:
            base_picks = [random.next() % len(base) for _ in range(len(base))]
            head_picks = [random.next() % len(head) for _ in range(len(head))]
            picks.append((np.array(head_picks, dtype=int), np.array(base_picks, dtype=int)))
        medians.append(np.median(differences(strata, picks)))
    low, high = np.quantile(np.asarray(medians), [0.025, 0.975])
    return float(low), float(high)


def case(name, strata):
    strata = [([float(x) for x in h], [float(x) for x in b]) for h, b in strata]
    t, expected, variance, z, p_greater, p_less = van_elteren(strata)
    live = usable(strata)
    if len(live) == 1:  # one stratum: the Mann-Whitney normal approximation without continuity correction
        head, base = live[0]
        if variance > 0:
            for alternative, p in (("greater", p_greater), ("less", p_less)):
                reference = stats.mannwhitneyu(head, base, alternative=alternative, method="asymptotic", use_continuity=False)
                assert math.isclose(reference.pvalue, p, rel_tol=1e-9, abs_tol=1e-15), (name, alternative)
    if live and all(math.comb(len(h) + len(b), len(h)) <= 5000 for h, b in live):
        mean, var = enumerated_moments(strata)
        assert math.isclose(mean, expected, rel_tol=1e-12), name
        assert math.isclose(var, variance, rel_tol=1e-9, abs_tol=1e-15), name
    d = differences(strata)
    lower, upper = bootstrap(strata, RESAMPLES, BOOTSTRAP_SEED)
    return {
        "name": name,
        "strata": [{"head": h, "base": b} for h, b in strata],
        "statistic": float(t),
        "expected": float(expected),
        "variance": float(variance),
        "z": float(z),
        "pGreater": p_greater,
        "pLess": p_less,
        "shift": float(np.median(d)) if len(d) else float("nan"),
        "bootstrapLower": lower,
        "bootstrapUpper": upper,
    }


def main():
    rng = np.random.default_rng(SEED)
    cases = []

    def draw(size, speed=1.0, factor=1.0, cv=0.05):
        return [round(float(v), 4) for v in 400.0 * speed * factor * np.exp(rng.normal(0, cv, size))]

    def logs(values):
        return [float(math.log(v)) for v in values]

    cases.append(case("two strata, hand-made", [([5, 6, 7], [1, 2, 3]), ([15, 16], [11, 12, 13, 14])]))
    cases.append(case("one stratum", [([5, 6, 7, 8], [1, 2, 3, 4, 9])]))
    cases.append(case("one stratum, ties", [([1, 2, 2, 3, 4], [2, 3, 3, 5])]))
    cases.append(case("ties within strata", [([10, 11, 12, 12], [10, 11, 11]), ([3, 3, 4], [3, 4, 4, 5])]))
    cases.append(case("a stratum all equal", [([7, 7, 7], [7, 7]), ([2, 3, 4], [1, 2, 3])]))
    cases.append(case("everything equal", [([7, 7], [7, 7, 7]), ([3], [3, 3])]))
    cases.append(case("an empty side is skipped", [([5, 6], []), ([2, 3, 4], [1, 2, 3])]))
    cases.append(case("one against one in each", [([2], [1]), ([10], [11]), ([5], [4])]))
    # The simulation's design: speeds 1.0, 1.1, 1.3; base 20/10/5, head 5/10/20 launches (log times).
    for factor in (1.0, 1.1):
        strata = [(logs(draw(h, speed, factor)), logs(draw(b, speed))) for speed, b, h in ((1.0, 20, 5), (1.1, 10, 10), (1.3, 5, 20))]
        cases.append(case(f"fleet 20/10/5 vs 5/10/20 x{factor}", strata))
    # Many small strata, and a few larger ones.
    cases.append(case("eight small strata", [(draw(3, 1 + i / 10, 1.02), draw(4, 1 + i / 10)) for i in range(8)]))
    cases.append(case("large strata", [(draw(60, 1.0, 1.01), draw(50, 1.0)), (draw(40, 1.2, 1.01), draw(70, 1.2))]))
    cases.append(case("integers with ties", [(rng.integers(0, 6, 12).tolist(), rng.integers(0, 5, 10).tolist()),
                                             (rng.integers(3, 8, 7).tolist(), rng.integers(2, 7, 9).tolist())]))

    document = {
        "generator": "Tests/LaunchAnalysisTests/Fixtures/make-fleet-statistics.py",
        "seed": SEED,
        "bootstrapSeed": BOOTSTRAP_SEED,
        "resamples": RESAMPLES,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "cases": cases,
    }
    with open(OUTPUT, "w") as f:
        json.dump(document, f, indent=1, allow_nan=True)
        f.write("\n")
    print(f"wrote {OUTPUT}: {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
