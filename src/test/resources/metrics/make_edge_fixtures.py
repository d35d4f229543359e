#!/usr/bin/env python3
"""Builds edge_cases.json: awkward inputs for PyFormat and Stats, with Python's answers.

Run from this directory:  python3 make_edge_fixtures.py

Expected values come from Python itself (repr, str.format) and from exact arithmetic
(math.fsum) and numpy's percentile, never from the Java code under test:
- repr / "{:.Nf}" of subnormals whose shortest form has one digit (including the ones
  where rounding carries, 9.9e-324 -> 1e-323), exponents around the positional /
  scientific switch (1e-4 / 1e-5, 1e15 / 1e16), two-digit exponents, negative zero,
  nan, and seeded random doubles over the whole exponent range;
- mean / std of samples whose naive left-to-right sum loses bits (so a broken
  compensation shows), std against the exactly rounded population std, and percentiles
  whose interpolation weight is exactly 0.5 or close to it (numpy's _lerp picks the
  nearer end, which changes the last bit).
"""

import json
import math
import random

import numpy as np


def repr_cases():
    tiny = 5e-324
    values = [k * tiny for k in range(1, 121)]
    exponents = list(range(-330, -300)) + list(range(-12, 22)) + [-101, -100, -99, 99, 100, 101, 308]
    for e in exponents:
        try:
            v = float("1e%d" % e)
        except OverflowError:
            continue
        if v == 0:
            continue
        values += [v, math.nextafter(v, 0), 9.5 * v]
    values += [0.0, -0.0, float("nan"), 1e-10, 1e+10, 1e15, 9.999999999999999e15,
               0.0001, 0.00009999999999999999, 123.456, -123.456, -1e-7, -2.5e+20]
    rnd = random.Random(20261123)
    for _ in range(200):
        values.append(rnd.uniform(-1, 1) * 10 ** rnd.uniform(-320, 308))
    out = []
    seen = set()
    for v in values:
        if math.isinf(v):
            continue
        key = float.hex(v)
        if key in seen:
            continue
        seen.add(key)
        case = {"hex": "nan" if math.isnan(v) else key, "repr": repr(v)}
        if math.isnan(v) or abs(v) < 1e20:
            case["fixed0"] = "{:.0f}".format(v)
            case["fixed3"] = "{:.3f}".format(v)
        out.append(case)
    return out


def naive_mean(xs):
    s = 0.0
    for x in sorted(xs):
        s += x
    return s / len(xs)


def compensated(values):
    """Only used to pick samples: the expected values below never come from it."""
    total = comp = 0.0
    for x in values:
        t = total + x
        comp += (total - t) + x if abs(total) >= abs(x) else (x - t) + total
        total = t
    return total + comp


def stats_cases():
    cases = []
    rnd = random.Random(7)
    # Samples (seconds, as Stats sorts them ascending) where summing naively loses bits.
    candidates = [
        [1e-9] * 7 + [1.0] * 3,
        [0.1] * 10,
        [1e-3, 1e-3, 1e-3, 1e8],
        [0.3, 0.1, 0.2, 0.7, 0.6],
    ]
    while len(candidates) < 3000:
        n = rnd.randint(3, 12)
        candidates.append([rnd.choice([1e-6, 1e-3, 0.1, 1.0, 1e3, 1e6]) * rnd.random()
                           for _ in range(n)])
    for xs in candidates:
        xs_sorted = sorted(xs)
        mean = math.fsum(xs) / len(xs)
        squares = [(x - mean) * (x - mean) for x in xs_sorted]
        if compensated(xs_sorted) != math.fsum(xs) or compensated(squares) != math.fsum(squares):
            continue  # a sample where even compensation loses a bit would test nothing stable
        if naive_mean(xs) == math.fsum(xs) / len(xs) and len(cases) >= 10:
            continue  # after ten plain samples, keep only those that need the compensation
        if len(cases) >= 40:
            break
        cases.append({
            "seconds": xs,
            "mean_ms": math.fsum(xs) / len(xs) * 1000,
            # population std from the correctly rounded mean and sum of squares
            "std_ms": math.sqrt(math.fsum(squares) / len(xs)) * 1000,
            "naive_differs": naive_mean(xs) != math.fsum(xs) / len(xs),
        })
    return cases


def percentile_cases():
    cases = []
    rnd = random.Random(11)
    for _ in range(60):
        n = rnd.choice([3, 5, 9, 11, 21])
        xs = sorted(rnd.random() * 10 ** rnd.randint(-3, 3) for _ in range(n))
        # weights exactly 0.5 (p = 100 * (k + 0.5) / (n - 1)) and a few others
        ps = [100.0 * (k + 0.5) / (n - 1) for k in range(n - 1)] + [12.5, 37.5, 62.5, 87.5, 99.9]
        ps = [p for p in ps if p <= 100]
        cases.append({"seconds": xs, "percentiles": ps,
                      "values_ms": [float(np.percentile(np.array(xs), p)) * 1000 for p in ps]})
    return cases


def main():
    with open("edge_cases.json", "w") as f:
        json.dump({"repr": repr_cases(), "stats": stats_cases(),
                   "percentiles": percentile_cases()}, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
