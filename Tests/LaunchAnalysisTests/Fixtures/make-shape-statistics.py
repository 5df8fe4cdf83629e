#!/usr/bin/env python3
"""Reference values for LaunchAnalysis's two-sample Kolmogorov-Smirnov test
(RankStatistics.kolmogorovSmirnov, used by ShapeCheck).

Writes Tests/LaunchAnalysisTests/Fixtures/shape-statistics.json. Run it from the
package root, and commit the JSON it writes:

    python3 Tests/LaunchAnalysisTests/Fixtures/make-shape-statistics.py   (needs numpy and scipy)

Nothing runs this at test or run time; the Swift tests read the committed JSON.
Each case holds scipy.stats.ks_2samp(head, base, alternative="two-sided",
method="exact"): D and its p-value (SciPy's method="auto" is exact for every case
here: both sides at most 10,000 values). For "interleaved" SciPy's exact count
gives up and falls back to its asymptotic formula (it warns); the p-value there is
1 either way (D = 0.2 is the smallest D five against five can have).
"""

import json
import os
import sys

import numpy as np
import scipy
from scipy import stats

SEED = 20261125
OUTPUT = os.path.join("Tests", "LaunchAnalysisTests", "Fixtures", "shape-statistics.json")


def main():
    rng = np.random.default_rng(SEED)
    cases = []

    def add(name, head, base):
        head = [float(x) for x in head]
        base = [float(x) for x in base]
        result = stats.ks_2samp(head, base, alternative="two-sided", method="exact")
        auto = stats.ks_2samp(head, base, alternative="two-sided", method="auto")
        assert auto.pvalue == result.pvalue, name
        cases.append({"name": name, "head": head, "base": base, "statistic": float(result.statistic), "pValue": float(result.pvalue)})

    def lognormal(size, cv=0.05, factor=1.0):
        sigma = np.sqrt(np.log(1 + cv * cv))
        return [round(float(v), 4) for v in 400 * factor * np.exp(rng.normal(0, sigma, size))]

    add("head all above", [5, 6, 7], [1, 2, 3])
    add("interleaved", [1, 3, 5, 7, 9], [2, 4, 6, 8, 10])
    add("identical", [1, 2, 3, 4, 5], [1, 2, 3, 4, 5])
    add("ties", [1, 2, 2, 3, 4, 4, 5], [2, 3, 3, 4, 6])
    add("one value each", [2], [1])
    for n, m, factor in [(5, 5, 1.0), (10, 10, 1.1), (20, 20, 1.0), (20, 20, 1.05), (7, 13, 1.02), (40, 25, 1.0), (60, 60, 1.03), (200, 150, 1.01)]:
        add(f"log-normal {n} vs {m} x{factor}", lognormal(n, factor=factor), lognormal(m))
    for n in [10, 20, 40]:
        half = n // 2
        add(f"bimodal head {n}", lognormal(half) + lognormal(n - half, factor=1.4), lognormal(n))

    document = {
        "generator": "Tests/LaunchAnalysisTests/Fixtures/make-shape-statistics.py",
        "seed": SEED,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "cases": cases,
    }
    with open(OUTPUT, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    print(f"wrote {OUTPUT}: {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
