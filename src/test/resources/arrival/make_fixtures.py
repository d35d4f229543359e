#!/usr/bin/env python3
"""Expected values for the arrival tests, computed independently of the Java code.

Regenerate with:  python3 src/test/resources/arrival/make_fixtures.py
(numpy 2.x, scipy 1.x). Writes fixtures.json next to this script.

- gamma_cdf: scipy's Gamma CDF, to check our regularized lower incomplete gamma.
- ks: scipy's one-sample Kolmogorov-Smirnov statistic for a fixed sample.
- ramps: per-request rates with Python float semantics, the formula vLLM's
  _get_current_request_rate uses, and the rps_change_events levels vLLM's loop
  would record (rps value + index of the request that crossed it).
"""
import json
import math
import os

import numpy as np
from scipy import special, stats


def ramp_rate(strategy, start, end, i, n):
    progress = i / max(n - 1, 1)
    if strategy == "linear":
        return start + (end - start) * progress
    return start * ((end / start) ** progress)


def ramp_case(strategy, start, end, n):
    rates = [ramp_rate(strategy, start, end, i, n) for i in range(n)]
    events = [{"rps": start, "request": None}]
    last = start
    for i, r in enumerate(rates):
        cur = int(r)
        if cur > last:
            for v in range(last + 1, cur + 1):
                events.append({"rps": v, "request": i})
            last = cur
    mid = (n - 1) // 2
    return {
        "strategy": strategy, "start": start, "end": end, "n": n,
        "first": rates[0], "middle_index": mid, "middle": rates[mid], "last": rates[-1],
        "events": events,
    }


gamma_cdf = []
for shape, scale, x in [
    (0.25, 4.0, 0.001), (0.25, 4.0, 0.5), (0.25, 4.0, 3.0), (0.25, 4.0, 40.0),
    (1.0, 1.0, 0.1), (1.0, 1.0, 2.0), (1.0, 0.02, 0.05),
    (4.0, 0.25, 0.3), (4.0, 0.25, 1.0), (4.0, 0.25, 2.5),
    (0.5, 2.0, 1.0), (10.0, 0.1, 0.7), (30.0, 1.0, 25.0), (100.0, 1.0, 120.0),
]:
    gamma_cdf.append({
        "shape": shape, "scale": scale, "x": x,
        "cdf": float(stats.gamma.cdf(x, a=shape, scale=scale)),
        "p": float(special.gammainc(shape, x / scale)),
    })

sample = [0.12, 3.4, 0.0021, 1.7, 0.88, 0.05, 2.2, 0.61, 0.33, 5.9,
          0.0007, 1.1, 0.27, 0.74, 4.4, 0.019, 0.95, 1.45, 0.41, 2.9]
ks = {
    "shape": 0.5, "scale": 2.0, "sample": sample,
    "statistic": float(stats.kstest(sample, stats.gamma(a=0.5, scale=2.0).cdf).statistic),
}

ramps = [
    ramp_case("linear", 2, 50, 101),
    ramp_case("exponential", 2, 50, 101),
    ramp_case("linear", 0, 7, 40),
    ramp_case("exponential", 3, 10, 12),
    ramp_case("linear", 5, 5, 10),
]

out = {"gamma_cdf": gamma_cdf, "ks": ks, "ramps": ramps,
       "ks_critical_0001": math.sqrt(-math.log(0.001 / 2) / 2)}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures.json")
with open(path, "w", encoding="utf-8") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print("wrote", path)
