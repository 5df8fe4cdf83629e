#!/usr/bin/env python3
"""Reference values for LaunchAnalysis's rank statistics (RankStatistics).

Writes Tests/LaunchAnalysisTests/Fixtures/rank-statistics.json. Run it from the
package root, and commit the JSON it writes:

    python3 Tests/LaunchAnalysisTests/Fixtures/make-rank-statistics.py   (needs numpy and scipy)

Nothing runs this at test or run time; the Swift tests read the committed JSON.
Every value is computed here independently of the Swift code:

- U and the one-sided p-values by scipy.stats.mannwhitneyu(head, base,
  alternative="greater"/"less", method=M, use_continuity=True), where M is
  "exact" when the combined sample has no ties and (n + m <= 40 or
  min(n, m) <= 8), else "asymptotic". Where min(n, m) <= 8 this is SciPy's own
  method="auto" choice (scipy 1.17: exact unless both sides exceed 8 or there are
  ties), and the script asserts that auto gives the same p-values there.
- The shifted tests: the same call on head - shift (shift = ln 1.05, the gate's
  default minimum effect on log times), in both directions.
- The Hodges-Lehmann shift: numpy.median of the n*m differences head_i - base_j.
- The Moses interval at one-sided level a per bound (a = 0.025: 95 %; also
  a = 0.005 and 0.000417 = 0.01/24): the k-th smallest and k-th largest of those
  differences. Exact case: k = 1 + the largest c with P(U <= c) <= a under the
  exact null distribution of U (counted here with Python integers by the
  recursion N(n, m, u) = N(n-1, m, u-m) + N(n, m-1, u), and compared exactly as
  fractions). Otherwise the rank at which the shifted test itself rejects, with
  its continuity correction: c = floor(nm/2 + 0.5 + norm.ppf(1 - a) *
  sqrt(nm(n+m+1)/12)) + 1 and k = nm + 1 - c (so the printed bound is above the
  minimum effect exactly when the test at that effect is significant).
  When no k >= 1 qualifies the interval cannot reach the level: both bounds are
  null in the JSON (the Swift side reports -inf and +inf).
- Holm's adjusted p-values by the definition (statsmodels is not installed):
  sort ascending, multiply the i-th smallest (0-based) by (len - i), take the
  running maximum, clip at 1, and put back in the input's order.
"""

import json
import math
from fractions import Fraction
import os
import sys
from functools import lru_cache

import numpy as np
import scipy
from scipy import stats

SEED = 20240611
OUTPUT = os.path.join("Tests", "LaunchAnalysisTests", "Fixtures", "rank-statistics.json")


@lru_cache(maxsize=None)
def null_counts(n, m):
    """Counts of each U = 0 ... n*m over the C(n+m, n) arrangements, as Python ints."""
    if n == 0 or m == 0:
        return (1,)
    size = n * m + 1
    counts = [0] * size
    for u, c in enumerate(null_counts(n - 1, m)):  # largest value is a head value: beats all m base values
        counts[u + m] += c
    for u, c in enumerate(null_counts(n, m - 1)):  # largest value is a base value
        counts[u] += c
    return tuple(counts)


def has_ties(head, base):
    combined = list(head) + list(base)
    return len(set(combined)) < len(combined)


def method_for(head, base):
    n, m = len(head), len(base)
    return "exact" if not has_ties(head, base) and (n + m <= 40 or min(n, m) <= 8) else "asymptotic"


LEVELS = [0.025, 0.005, 0.01 / 24]
SHIFT = math.log(1.05)


def moses_k(n, m, method, level=0.025):
    """k, or None when no k >= 1 reaches the level."""
    if method == "exact":
        counts = null_counts(n, m)
        total = math.comb(n + m, n)
        assert sum(counts) == total
        limit = Fraction(1, 40) if level == 0.025 else Fraction(level)
        cumulative = 0
        k = None
        for c in range(n * m + 1):
            cumulative += counts[c]
            if Fraction(cumulative, total) <= limit:
                k = c + 1
            else:
                break
        return k
    c = math.floor(n * m / 2 + 0.5 + stats.norm.ppf(1 - level) * math.sqrt(n * m * (n + m + 1) / 12)) + 1
    bound = n * m + 1 - c
    return bound if bound >= 1 else None


def moses_bounds(ordered, n, m, method, level):
    k = moses_k(n, m, method, level)
    if k is None:
        return {"level": level, "k": None, "lower": None, "upper": None}
    return {"level": level, "k": k, "lower": float(ordered[k - 1]), "upper": float(ordered[n * m - k])}


def holm(p_values):
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    count = len(p)
    adjusted_sorted = np.maximum.accumulate(p[order] * (count - np.arange(count)))
    adjusted_sorted = np.minimum(adjusted_sorted, 1.0)
    adjusted = np.empty(count)
    adjusted[order] = adjusted_sorted
    return [float(x) for x in adjusted]


def case(name, head, base):
    head = [float(x) for x in head]
    base = [float(x) for x in base]
    n, m = len(head), len(base)
    method = method_for(head, base)
    greater = stats.mannwhitneyu(head, base, alternative="greater", method=method, use_continuity=True)
    less = stats.mannwhitneyu(head, base, alternative="less", method=method, use_continuity=True)
    differences = np.subtract.outer(np.asarray(head), np.asarray(base)).ravel()
    ordered = np.sort(differences)
    intervals = [moses_bounds(ordered, n, m, method, level) for level in LEVELS]
    shifted = [x - SHIFT for x in head]
    shifted_method = method_for(shifted, base)
    greater_shift = stats.mannwhitneyu(shifted, base, alternative="greater", method=shifted_method, use_continuity=True)
    less_shift = stats.mannwhitneyu(shifted, base, alternative="less", method=shifted_method, use_continuity=True)
    if min(n, m) <= 8:  # our rule is SciPy's auto here
        auto = stats.mannwhitneyu(head, base, alternative="greater", method="auto", use_continuity=True)
        assert auto.pvalue == greater.pvalue, name
    # Cross-check U by counting pairs (ties half).
    pairs = sum((h > b) + 0.5 * (h == b) for h in head for b in base)
    assert float(greater.statistic) == pairs, name
    if method == "exact":  # scipy's exact p against this script's own null distribution
        counts, total = null_counts(n, m), math.comb(n + m, n)
        u = int(pairs)
        assert math.isclose(sum(counts[u:]) / total, greater.pvalue, rel_tol=1e-12), name
        assert math.isclose(sum(counts[: u + 1]) / total, less.pvalue, rel_tol=1e-12), name
    return {
        "name": name,
        "head": head,
        "base": base,
        "method": method,
        "u": float(greater.statistic),
        "uBaseAgainstHead": float(stats.mannwhitneyu(base, head, method=method).statistic),
        "pGreater": float(greater.pvalue),
        "pLess": float(less.pvalue),
        "shift": float(np.median(differences)),
        "mosesK": intervals[0]["k"],
        "mosesLower": intervals[0]["lower"],
        "mosesUpper": intervals[0]["upper"],
        "intervals": intervals,
        "testedShift": SHIFT,
        "shiftedMethod": shifted_method,
        "pGreaterShifted": float(greater_shift.pvalue),
        "pLessShifted": float(less_shift.pvalue),
    }


def main():
    rng = np.random.default_rng(SEED)
    cases = []

    def draw(size, median=400.0, cv=0.05, factor=1.0):
        values = factor * np.exp(rng.normal(math.log(median), cv, size))
        return [round(float(v), 4) for v in values]

    # Tiny samples, every size from 1 to 5 on each side (no ties: exact).
    for n in range(1, 6):
        for m in range(1, 6):
            cases.append(case(f"tiny {n} vs {m}", draw(n, factor=1.02), draw(m)))
    # Hand-made small ones.
    cases.append(case("head all above", [5.0, 6.0, 7.0], [1.0, 2.0, 3.0, 4.0]))
    cases.append(case("head all below", [1.0, 2.0], [3.0, 4.0, 5.0, 6.0, 7.0]))
    cases.append(case("interleaved", [1.0, 3.0, 5.0, 7.0, 9.0], [2.0, 4.0, 6.0, 8.0, 10.0]))
    cases.append(case("one against one, equal", [3.0], [3.0]))
    # Ties (asymptotic, tie-corrected).
    cases.append(case("ties small", [1.0, 2.0, 2.0, 3.0, 4.0], [2.0, 3.0, 3.0, 5.0]))
    cases.append(case("ties across", [10.0, 11.0, 12.0, 12.0, 13.0, 15.0], [9.0, 10.0, 11.0, 11.0, 12.0]))
    cases.append(case("ties integers 12 vs 10", rng.integers(0, 6, 12).tolist(), rng.integers(0, 5, 10).tolist()))
    cases.append(case("ties integers 30 vs 30", rng.integers(95, 110, 30).tolist(), rng.integers(94, 108, 30).tolist()))
    cases.append(case("identical samples", [401.5, 398.25, 405.0, 399.75, 402.0], [401.5, 398.25, 405.0, 399.75, 402.0]))
    same = draw(20)
    cases.append(case("identical samples 20", same, same))
    cases.append(case("head all equal", [400.0] * 6, draw(7)))
    cases.append(case("base all equal", draw(9, factor=1.05), [400.0] * 9))
    cases.append(case("everything equal", [400.0] * 5, [400.0] * 4))
    # Larger exact samples, up to n + m = 40.
    for n, m, factor in [(8, 8, 1.03), (10, 12, 1.0), (15, 25, 1.04), (10, 30, 0.97), (20, 20, 1.02), (20, 20, 1.0), (20, 20, 1.15), (19, 21, 0.9)]:
        cases.append(case(f"exact {n} vs {m} x{factor}", draw(n, factor=factor), draw(m)))
    # Just past the exact limit, and large samples (asymptotic).
    for n, m, factor in [(21, 20, 1.02), (40, 40, 1.1), (60, 60, 1.0), (60, 60, 1.03), (150, 150, 1.01), (150, 150, 0.99), (200, 200, 1.0)]:
        cases.append(case(f"asymptotic {n} vs {m} x{factor}", draw(n, factor=factor), draw(m)))
    # Unequal sizes where min(n, m) <= 8 keeps the test exact (SciPy's auto rule).
    cases.append(case("59 vs 1, head above all", [500.0], [400.0 + i for i in range(59)]))
    cases.append(case("1 vs 59, head below all", [300.0 + i * 0.5 for i in range(59)][:1], [400.0 + i for i in range(59)]))
    for n, m, factor in [(1, 59, 1.0), (8, 60, 1.05), (100, 5, 1.1), (3, 200, 1.2), (9, 32, 1.05), (9, 40, 1.0)]:
        cases.append(case(f"unequal {n} vs {m} x{factor}", draw(n, factor=factor), draw(m)))
    # On log times, as the gate tests them (shift = ln 1.05 is the minimum effect).
    for n, factor in [(5, 1.0), (10, 1.1), (20, 1.05), (20, 1.2), (40, 1.08)]:
        cases.append(case(f"log times {n} x{factor}", [math.log(x) for x in draw(n, factor=factor)], [math.log(x) for x in draw(n)]))
    # Shifted log-normal launch times with a heavier spread.
    for n, factor in [(5, 1.5), (12, 1.1), (30, 1.1), (80, 1.05)]:
        cases.append(case(f"log-normal cv 0.2 {n} x{factor}", draw(n, cv=0.2, factor=factor), draw(n, cv=0.2)))

    for c in cases:
        assert c["method"] == method_for(c["head"], c["base"])

    holm_vectors = [
        [0.01, 0.04, 0.03, 0.005],
        [0.5],
        [0.001, 0.001, 0.2],
        [0.3, 0.2, 0.9, 0.04, 0.01],
        [0.6, 0.7, 0.8],
        [0.0, 1.0, 0.02],
        [float(x) for x in rng.uniform(0, 0.1, 8)],
    ]
    holm_cases = [{"p": v, "adjusted": holm(v)} for v in holm_vectors]

    document = {
        "generator": "Tests/LaunchAnalysisTests/Fixtures/make-rank-statistics.py",
        "seed": SEED,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "cases": cases,
        "holm": holm_cases,
    }
    with open(OUTPUT, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    exact = sum(c["method"] == "exact" for c in cases)
    print(f"wrote {OUTPUT}: {len(cases)} cases ({exact} exact), {len(holm_cases)} Holm vectors", file=sys.stderr)


if __name__ == "__main__":
    main()
