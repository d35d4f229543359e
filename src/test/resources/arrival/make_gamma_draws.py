#!/usr/bin/env python3
"""Writes gamma_draws.json: the draws GammaSampler must produce, from an independent
implementation of the algorithm its javadoc promises (so a seed gives the same schedule on
every JDK): java.util.SplittableRandom's nextDouble (its algorithm is specified), uniforms on
(0, 1] as 1 - u, Box-Muller normals (one per call), Marsaglia-Tsang for shape >= 1, the
U^(1/a) boost for shape < 1, and exact inversion for shape 1.

Run from this directory:  python3 make_gamma_draws.py
"""

import json
import math

MASK = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


class SplittableRandom:
    def __init__(self, seed):
        self.seed = seed & MASK

    def next_long(self):
        self.seed = (self.seed + GOLDEN_GAMMA) & MASK
        z = self.seed
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def next_double(self):
        return (self.next_long() >> 11) * 2.0 ** -53


class Gamma:
    def __init__(self, seed):
        self.random = SplittableRandom(seed)

    def uniform_open_zero(self):
        return 1.0 - self.random.next_double()

    def normal(self):
        radius = math.sqrt(-2.0 * math.log(self.uniform_open_zero()))
        return radius * math.cos(2.0 * math.pi * self.random.next_double())

    def standard_gamma(self, shape):
        d = shape - 1.0 / 3.0
        c = 1.0 / math.sqrt(9.0 * d)
        while True:
            x = self.normal()
            t = 1.0 + c * x
            if t <= 0.0:
                continue
            v = t * t * t
            u = self.uniform_open_zero()
            x2 = x * x
            if u < 1.0 - 0.0331 * x2 * x2 or math.log(u) < 0.5 * x2 + d * (1.0 - v + math.log(v)):
                return d * v

    def next(self, shape, scale):
        if shape == 1.0:
            return -math.log(self.uniform_open_zero()) * scale
        if shape < 1.0:
            return self.standard_gamma(shape + 1.0) * self.uniform_open_zero() ** (1.0 / shape) * scale
        return self.standard_gamma(shape) * scale


def main():
    cases = []
    for seed, shape, scale in [(0, 1.0, 0.1), (42, 0.5, 2.0), (7, 2.5, 0.04), (-3, 1.0001, 1.0),
                               (123456789, 0.05, 20.0), (1, 9.0, 1 / 90.0)]:
        g = Gamma(seed)
        cases.append({"seed": seed, "shape": shape, "scale": scale,
                      "draws": [g.next(shape, scale) for _ in range(400)]})
    with open("gamma_draws.json", "w") as f:
        json.dump(cases, f)
        f.write("\n")


if __name__ == "__main__":
    main()
