#!/usr/bin/env python3
"""Builds the metric fixtures the Java tests compare against.

Run from this directory:  python3 make_fixtures.py
Writes metrics_cases.json (hand-built record sets + the values vLLM's
`calculate_metrics` semantics give for them) and pyformat_cases.json
(Python's float repr and "{:.2f}" output for awkward numbers).

The expected values are computed here with numpy, independently of the Java
code: per-request seconds exactly as vLLM's RequestFuncOutput holds them,
numpy's default (linear) percentiles, population std, empty lists giving 0.
"""

import json
import math

import numpy as np

MS = 1000.0


def word_count(text):
    """The fake tokenizer the Java tests inject: whitespace-separated words."""
    return len(text.split()) if text else 0


def rec(start_ms, ttft_ms=None, chunk_gaps_ms=(), output_tokens=-1, prompt=-1,
        usage_prompt=-1, success=True, status=200, error=None, text="",
        scheduled_ms=None, end_ms=None):
    """One record in the Java RequestRecord's units (nanos, chunk micros)."""
    start_ns = round(start_ms * 1e6)
    if ttft_ms is None:
        chunks = []
        ttft_ns = -1
        latency_ns = -1
    else:
        first_us = round(ttft_ms * 1000)
        chunks = [first_us]
        for gap in chunk_gaps_ms:
            chunks.append(chunks[-1] + round(gap * 1000))
        # TTFT and latency carry sub-microsecond nanos, as the client's do.
        ttft_ns = first_us * 1000 + 123
        latency_ns = chunks[-1] * 1000 + (123 if len(chunks) == 1 else 456)
    last_ns = start_ns + max(latency_ns, 0)
    return {
        "scheduled_ns": round((scheduled_ms if scheduled_ms is not None else start_ms) * 1e6),
        "start_ns": start_ns,
        "ttft_ns": ttft_ns,
        "latency_ns": latency_ns,
        "end_ns": round(end_ms * 1e6) if end_ms is not None else last_ns + 50_000,
        "chunk_us": chunks,
        "prompt_tokens": prompt,
        "usage_prompt_tokens": usage_prompt,
        "output_tokens": output_tokens,
        "http_status": status,
        "success": success,
        "error": error,
        "text": text,
    }


def as_outputs(records, origin_ns, task):
    """The records as vLLM's RequestFuncOutput fields, in seconds."""
    outs = []
    for r in records:
        c = r["chunk_us"]
        if task == "embedding":
            prompt_len = r["usage_prompt_tokens"] if r["usage_prompt_tokens"] >= 0 else r["prompt_tokens"]
            latency_ns = r["latency_ns"] if r["latency_ns"] >= 0 else r["end_ns"] - r["start_ns"]
        else:
            prompt_len = r["prompt_tokens"] if r["prompt_tokens"] >= 0 else r["usage_prompt_tokens"]
            latency_ns = max(r["latency_ns"], 0)
        outs.append({
            "start_time": (r["start_ns"] - origin_ns) / 1e9,
            "ttft": max(r["ttft_ns"], 0) / 1e9,
            "latency": latency_ns / 1e9,
            "itl": [(b - a) / 1e6 for a, b in zip(c, c[1:])],
            "prompt_len": max(prompt_len, 0),
            "output_tokens": r["output_tokens"] if r["output_tokens"] > 0 else None,
            "generated_text": r["text"] or "",
            "success": r["success"],
        })
    return outs


def stats(name, values, percentiles, out):
    data = values or 0
    out[f"mean_{name}_ms"] = float(np.mean(data) * MS)
    out[f"median_{name}_ms"] = float(np.median(data) * MS)
    out[f"std_{name}_ms"] = float(np.std(data) * MS)
    for p in percentiles:
        word = str(int(p)) if int(p) == p else str(p)
        out[f"p{word}_{name}_ms"] = float(np.percentile(data, p) * MS)


def generation(outputs, dur, percentiles, slo):
    out_lens, ttfts, tpots, all_tpots, itls, e2els = [], [], [], [], [], []
    total_input = completed = 0
    for o in outputs:
        if not o["success"]:
            out_lens.append(0)
            continue
        n = o["output_tokens"] or word_count(o["generated_text"])
        out_lens.append(n)
        total_input += o["prompt_len"]
        tpot = 0.0
        if n > 1:
            tpot = (o["latency"] - o["ttft"]) / (n - 1)
            tpots.append(tpot)
        all_tpots.append(tpot)
        itls += o["itl"]
        ttfts.append(o["ttft"])
        e2els.append(o["latency"])
        completed += 1

    good = 0
    if slo:
        for ttft, tpot, e2el in zip(ttfts, all_tpots, e2els):
            checks = []
            if "ttft" in slo:
                checks.append(slo["ttft"] / MS >= ttft)
            if "tpot" in slo:
                checks.append(slo["tpot"] / MS >= tpot)
            if "e2el" in slo:
                checks.append(slo["e2el"] / MS >= e2el)
            good += all(checks)

    peak_tokens, peak_requests = 0.0, 0
    ok = [o for o in outputs if o["success"]]
    if ok:
        t0 = min(o["start_time"] for o in ok)
        t1 = max(o["start_time"] + o["latency"] for o in ok)
        buckets = int(np.ceil(t1 - t0)) + 1
        tokens = np.zeros(buckets)
        running = np.zeros(buckets)
        for o in ok:
            t = o["start_time"] + o["ttft"]
            times = [t]
            for gap in o["itl"]:
                t += gap
                times.append(t)
            for t in times:
                b = int(t - t0)
                if 0 <= b < buckets:
                    tokens[b] += 1
            for b in range(int(o["start_time"] - t0), int(o["start_time"] + o["latency"] - t0) + 1):
                running[b] += 1
        peak_tokens = float(tokens.max())
        peak_requests = int(running.max())

    total_output = sum(out_lens)
    rate = (lambda x: x / dur) if dur > 0 else (lambda x: 0.0)
    exp = {
        "completed": completed,
        "failed": len(outputs) - completed,
        "total_input_tokens": total_input,
        "total_output_tokens": total_output,
        "request_throughput": rate(completed),
        "request_goodput": rate(good) if slo else None,
        "output_throughput": rate(total_output),
        "total_token_throughput": rate(total_input + total_output),
        "max_output_tokens_per_s": peak_tokens,
        "max_concurrent_requests": peak_requests,
    }
    for name, values in (("ttft", ttfts), ("tpot", tpots), ("itl", itls), ("e2el", e2els)):
        stats(name, values, percentiles, exp)
    exp["output_lens"] = out_lens
    exp["good_completed"] = good
    return exp


def embedding(outputs, dur, percentiles):
    e2els = [o["latency"] for o in outputs if o["success"]]
    total_input = sum(o["prompt_len"] for o in outputs if o["success"])
    rate = (lambda x: x / dur) if dur > 0 else (lambda x: 0.0)
    exp = {
        "completed": len(e2els),
        "failed": len(outputs) - len(e2els),
        "total_input_tokens": total_input,
        "request_throughput": rate(len(e2els)),
        "total_token_throughput": rate(total_input),
    }
    stats("e2el", e2els, percentiles, exp)
    return exp


def mixed_records():
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split()
    return [
        # completion order, not start order: the calculator must not care
        rec(300, 120, [20, 22, 25, 30], output_tokens=5, prompt=11, text="one two three four five"),
        rec(0, 80, [15] * 9, output_tokens=10, prompt=32, text=" ".join(words)),
        # failed: HTTP 500, nothing streamed
        rec(50, None, status=500, success=False, error="HTTP 500: boom", prompt=17, end_ms=70),
        # single token output: no TPOT sample, tpot = 0 for goodput
        rec(120, 95, [], output_tokens=1, prompt=9, text="hi"),
        # no usage at all: tokenizer fallback on the text (7 words, 4 chunks)
        rec(400, 150, [40, 35, 45], output_tokens=-1, prompt=20, text="a b c d e f g"),
        # usage says 0: vLLM also falls back to the tokenizer
        rec(410, 60, [10, 10], output_tokens=0, prompt=-1, usage_prompt=13, text="x y z"),
        # failed mid-stream: streamed chunks, still contributes nothing
        rec(200, 70, [30, 30], output_tokens=-1, prompt=25, success=False,
            error="connection reset mid-stream", text="partial text"),
        # spans three bucket boundaries: starts at 0.9 s, ends at 3.2 s
        rec(900, 400, [300, 350, 450, 500, 300], output_tokens=6, prompt=40, text="s p a n n ing"),
        # failed: timeout before the first byte
        rec(950, None, status=0, success=False, error="request timeout after 2s", prompt=8, end_ms=2950),
    ]


def random_records(seed, n):
    rng = np.random.default_rng(seed)
    out = []
    t = 0.0
    for i in range(n):
        t += float(rng.exponential(25.0))
        if rng.random() < 0.06:
            out.append(rec(round(t, 3), None, status=503, success=False, error="HTTP 503",
                           prompt=int(rng.integers(5, 400)), end_ms=t + 5))
            continue
        chunks = int(rng.integers(1, 48))
        gaps = [round(float(rng.gamma(2.0, 6.0)), 3) for _ in range(chunks - 1)]
        usage = chunks + int(rng.integers(0, 3)) if rng.random() > 0.15 else -1
        text = " ".join(f"w{k}" for k in range(chunks + int(rng.integers(0, 2))))
        out.append(rec(round(t, 3), round(float(rng.gamma(3.0, 40.0)), 3), gaps, output_tokens=usage,
                       prompt=int(rng.integers(5, 400)), text=text))
    rng.shuffle(out)
    return out


def cases():
    p4 = [50, 90, 99, 99.9]
    mixed = mixed_records()
    yield dict(name="mixed", task="generation", duration_s=3.5, origin_ns=0, percentiles=p4,
               goodput={"ttft": 200, "tpot": 30, "e2el": 1000}, records=mixed)
    yield dict(name="goodput-ttft", task="generation", duration_s=3.5, origin_ns=0, percentiles=[99],
               goodput={"ttft": 100}, records=mixed)
    yield dict(name="goodput-tpot-zero", task="generation", duration_s=3.5, origin_ns=0, percentiles=[99],
               goodput={"tpot": 0}, records=mixed)
    yield dict(name="goodput-tpot", task="generation", duration_s=3.5, origin_ns=0, percentiles=[99],
               goodput={"tpot": 25}, records=mixed)
    yield dict(name="goodput-e2el", task="generation", duration_s=3.5, origin_ns=0, percentiles=[99],
               goodput={"e2el": 300}, records=mixed)
    yield dict(name="no-slo", task="generation", duration_s=3.5, origin_ns=-5_000_000, percentiles=[25, 75, 100, 0],
               goodput=None, records=mixed)
    yield dict(name="all-failed", task="generation", duration_s=2.0, origin_ns=0, percentiles=p4,
               goodput={"ttft": 100},
               records=[rec(0, None, status=500, success=False, error="HTTP 500", prompt=5, end_ms=10),
                        rec(5, 30, [10], success=False, error="in-band error event", prompt=6, text="a b")])
    yield dict(name="empty", task="generation", duration_s=0.0, origin_ns=0, percentiles=[99],
               goodput=None, records=[])
    yield dict(name="random-200", task="generation", duration_s=5.25, origin_ns=0, percentiles=p4,
               goodput={"ttft": 150, "tpot": 14, "e2el": 600}, records=random_records(7, 200))
    yield dict(name="embedding", task="embedding", duration_s=1.5, origin_ns=0, percentiles=[50, 99],
               goodput=None,
               records=[rec(0, None, usage_prompt=12, prompt=10, end_ms=40),
                        rec(10, 25, [], usage_prompt=7, end_ms=40),
                        rec(20, None, prompt=9, end_ms=95),
                        rec(30, None, status=400, success=False, error="HTTP 400", usage_prompt=3, end_ms=31)])


def pyformat_cases():
    values = [0.0, 1.0, -1.0, 0.1, 0.5, 2.675, 0.125, 0.375, 1.005, 99.9, 99.99, 12.5, 1e-05, 0.0001,
              0.00012345, 123456789.0, 1e16, 1.5e16, 1e15, 123456789012345680.0, 1 / 3, 2 / 3,
              1e-300, 5e-324, 1.7976931348623157e308, 1234.5678, 0.045, 10.0, 1e22, 9.995, -0.001,
              float("inf"), float("-inf"), 3.0000000000000004, 0.30000000000000004]
    # the value travels as float.hex so no JSON reader has to parse inf
    return [{"hex": float.hex(v), "repr": repr(v), "fixed2": "{:.2f}".format(v)} for v in values]


def main():
    out = []
    for case in cases():
        outputs = as_outputs(case["records"], case["origin_ns"], case["task"])
        if case["task"] == "embedding":
            case["expected"] = embedding(outputs, case["duration_s"], case["percentiles"])
        else:
            case["expected"] = generation(outputs, case["duration_s"], case["percentiles"], case["goodput"])
        out.append(case)
    with open("metrics_cases.json", "w") as f:
        json.dump({"generated_by": "make_fixtures.py", "cases": out}, f, indent=1)
        f.write("\n")
    with open("pyformat_cases.json", "w") as f:
        json.dump(pyformat_cases(), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
