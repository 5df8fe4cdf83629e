#!/usr/bin/env python3
"""Reference values for LaunchAnalysis's StudentT and the sign test's binomial tail.

Writes Tests/LaunchAnalysisTests/Fixtures/student-t.json. Run it from the
repository's root:

    python3 Tests/LaunchAnalysisTests/Fixtures/make-student-t.py   (needs scipy)

- cdf: scipy.stats.t.cdf(t, nu)
- quantile: scipy.stats.t.ppf(p, nu)
- binomialUpperTail: P(X >= k) for X ~ Binomial(n, 1/2), scipy.stats.binom.sf(k - 1, n, 0.5)

Nothing runs this at test or run time; the Swift tests read the committed JSON.
"""
import json
from scipy import stats

OUTPUT = "Tests/LaunchAnalysisTests/Fixtures/student-t.json"
DEGREES = [1, 2, 3.5, 4, 9, 30, 250]


def main():
    cdf = [{"t": t, "nu": nu, "cdf": float(stats.t.cdf(t, nu))}
           for nu in DEGREES for t in [-3.1, -0.7, 0, 0.4, 1.8, 2.776, 6.2]]
    quantile = [{"p": p, "nu": nu, "quantile": float(stats.t.ppf(p, nu))}
                for nu in DEGREES for p in [0.5, 0.9, 0.975, 0.99, 0.999, 0.9996]]
    binomial = [{"n": n, "k": k, "upperTail": float(stats.binom.sf(k - 1, n, 0.5))}
                for n, k in [(10, 10), (10, 8), (7, 7), (20, 15), (100, 60), (1, 1), (5, 0)]]
    with open(OUTPUT, "w") as f:
        json.dump({"cdf": cdf, "quantile": quantile, "binomialUpperTail": binomial}, f, indent=1)
        f.write("\n")
    print(f"wrote {OUTPUT}: {len(cdf)} CDF values, {len(quantile)} quantiles, {len(binomial)} binomial tails")


if __name__ == "__main__":
    main()
