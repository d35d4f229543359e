#!/usr/bin/env python3
"""Golden files for the report tests: our transcription of what vLLM's `bench serve` prints
and writes, from reading vllm/benchmarks/serve.py (not output of a vLLM run).

Run from this directory after ../metrics/make_fixtures.py:  python3 make_golden.py
Takes the numpy-computed expectations of ../metrics/metrics_cases.json and renders them
with vLLM's formats (console lines "{:<40} {:<10.2f}", banners of width 50, the result
JSON's key order and types, the pytorch benchmark records, Python's json.dump text).
"""

import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DATE = "20250102-030405"
MODEL = "meta-llama/Llama-3.1-8B-Instruct"

# Each golden: which fixture case, and the run / result options the Java test mirrors.
GOLDENS = {
    "mixed": dict(case="mixed", backend="openai", label=None, request_rate=10.0,
                  burstiness=1.0, max_concurrency=8, num_prompts=9,
                  metadata=[("tp", "1"), ("version", "0.9.2")],
                  percentile_metrics="ttft,tpot,itl,e2el"),
    "no-slo": dict(case="no-slo", backend="openai-chat", label="nightly",
                   request_rate=float("inf"), burstiness=0.5, max_concurrency=None,
                   num_prompts=9, metadata=[], percentile_metrics=None),
    "all-failed": dict(case="all-failed", backend="openai", label=None, request_rate=2.0,
                       burstiness=1.0, max_concurrency=None, num_prompts=2, metadata=[],
                       percentile_metrics=None),
    "embedding": dict(case="embedding", backend="openai-embeddings", label=None,
                      request_rate=float("inf"), burstiness=1.0, max_concurrency=4,
                      num_prompts=4, metadata=[], percentile_metrics=None),
}

METRICS = [("ttft", "TTFT", "Time to First Token"),
           ("tpot", "TPOT", "Time per Output Token (excl. 1st token)"),
           ("itl", "ITL", "Inter-token Latency"),
           ("e2el", "E2EL", "End-to-end Latency")]


def p_word(p):
    return str(int(p)) if int(p) == p else str(p)


def selected(g, case):
    default = "e2el" if case["task"] == "embedding" else "ttft,tpot,itl"
    return (g["percentile_metrics"] or default).split(",")


def summary(g, case):
    e = case["expected"]
    gen = case["task"] == "generation"
    lines = []
    errors = [r["error"] for r in sorted(case["records"], key=lambda r: r["start_ns"])
              if not r["success"]]
    if errors:
        lines.append("Failed requests during benchmark run detected (capping to 10):")
        for i, err in enumerate(errors[:10]):
            lines.append(f"Error {i}: {err}")
    lines.append("{s:{c}^{n}}".format(s=" Serving Benchmark Result ", n=50, c="="))
    lines.append("{:<40} {:<10}".format("Successful requests:", e["completed"]))
    lines.append("{:<40} {:<10}".format("Failed requests:", e["failed"]))
    if g["max_concurrency"] is not None:
        lines.append("{:<40} {:<10}".format("Maximum request concurrency:", g["max_concurrency"]))
    if g["request_rate"] != float("inf"):
        lines.append("{:<40} {:<10.2f}".format("Request rate configured (RPS):", g["request_rate"]))
    lines.append("{:<40} {:<10.2f}".format("Benchmark duration (s):", case["duration_s"]))
    lines.append("{:<40} {:<10}".format("Total input tokens:", e["total_input_tokens"]))
    if gen:
        lines.append("{:<40} {:<10}".format("Total generated tokens:", e["total_output_tokens"]))
    lines.append("{:<40} {:<10.2f}".format("Request throughput (req/s):", e["request_throughput"]))
    if gen and case["goodput"]:
        lines.append("{:<40} {:<10.2f}".format("Request goodput (req/s):", e["request_goodput"]))
    if gen:
        lines.append("{:<40} {:<10.2f}".format("Output token throughput (tok/s):", e["output_throughput"]))
        lines.append("{:<40} {:<10.2f}".format("Peak output token throughput (tok/s):",
                                               e["max_output_tokens_per_s"]))
        lines.append("{:<40} {:<10.2f}".format("Peak concurrent requests:", e["max_concurrent_requests"]))
    lines.append("{:<40} {:<10.2f}".format("Total Token throughput (tok/s):", e["total_token_throughput"]))
    for key, name, header in METRICS:
        if key not in selected(g, case) or (not gen and key != "e2el"):
            continue
        lines.append("{s:{c}^{n}}".format(s=header, n=50, c="-"))
        lines.append("{:<40} {:<10.2f}".format(f"Mean {name} (ms):", e[f"mean_{key}_ms"]))
        lines.append("{:<40} {:<10.2f}".format(f"Median {name} (ms):", e[f"median_{key}_ms"]))
        for p in case["percentiles"]:
            lines.append("{:<40} {:<10.2f}".format(f"P{p_word(p)} {name} (ms):",
                                                   e[f"p{p_word(p)}_{key}_ms"]))
    lines.append("=" * 50)
    return "\n".join(lines) + "\n"


def result(g, case):
    """The non-detailed result JSON, built in the order vLLM's main_async builds it."""
    e = case["expected"]
    gen = case["task"] == "generation"
    out = {"date": DATE, "endpoint_type": g["backend"], "backend": g["backend"],
           "label": g["label"], "model_id": MODEL, "tokenizer_id": MODEL,
           "num_prompts": g["num_prompts"]}
    for k, v in g["metadata"]:
        out[k] = v
    out["request_rate"] = g["request_rate"] if g["request_rate"] < float("inf") else "inf"
    out["burstiness"] = g["burstiness"]
    out["max_concurrency"] = g["max_concurrency"]
    bench = {"duration": case["duration_s"], "completed": e["completed"], "failed": e["failed"],
             "total_input_tokens": e["total_input_tokens"]}
    if gen:
        bench["total_output_tokens"] = e["total_output_tokens"]
    bench["request_throughput"] = e["request_throughput"]
    if gen:
        bench["request_goodput"] = e["request_goodput"] if case["goodput"] else None
        bench["output_throughput"] = e["output_throughput"]
    bench["total_token_throughput"] = e["total_token_throughput"]
    if gen:
        bench["max_output_tokens_per_s"] = e["max_output_tokens_per_s"]
        bench["max_concurrent_requests"] = e["max_concurrent_requests"]
    for key, _, _ in METRICS:
        if key not in selected(g, case) or (not gen and key != "e2el"):
            continue
        for stat in ("mean", "median", "std"):
            bench[f"{stat}_{key}_ms"] = e[f"{stat}_{key}_ms"]
        for p in case["percentiles"]:
            bench[f"p{p_word(p)}_{key}_ms"] = e[f"p{p_word(p)}_{key}_ms"]
    return {**out, **bench}


def pytorch(g, case, res):
    metrics = ["median_ttft_ms", "mean_ttft_ms", "std_ttft_ms", "p99_ttft_ms",
               "mean_tpot_ms", "median_tpot_ms", "std_tpot_ms", "p99_tpot_ms",
               "median_itl_ms", "mean_itl_ms", "std_itl_ms", "p99_itl_ms"]
    ignored = ["ttfts", "itls", "generated_texts", "errors"]
    default = "e2el" if case["task"] == "embedding" else "ttft,tpot,itl"
    args = {"backend": g["backend"], "label": g["label"], "model": MODEL, "tokenizer": MODEL,
            "num_prompts": g["num_prompts"], "request_rate": g["request_rate"],
            "burstiness": g["burstiness"], "max_concurrency": g["max_concurrency"], "seed": 0,
            "ramp_up_strategy": None, "ramp_up_start_rps": None, "ramp_up_end_rps": None,
            "percentile_metrics": g["percentile_metrics"] or default,
            "metric_percentiles": ",".join(p_word(p) for p in case["percentiles"]),
            "goodput": [f"{k}:{float(v)!r}" for k, v in case["goodput"].items()] if case["goodput"] else None,
            "save_result": True, "save_detailed": False, "append_result": False,
            "metadata": [f"{k}={v}" for k, v in g["metadata"]] or None,
            "result_dir": None, "result_filename": None}
    extra = {k: v for k, v in res.items() if k not in metrics and k not in ignored}
    if not args.get("tensor_parallel_size") and "tensor_parallel_size" in extra:
        args["tensor_parallel_size"] = extra["tensor_parallel_size"]
    records = []
    for name in metrics:
        if name in res:
            records.append({"benchmark": {"name": "vLLM benchmark", "extra_info": {"args": args}},
                            "model": {"name": MODEL},
                            "metric": {"name": name, "benchmark_values": [res[name]],
                                       "extra_info": extra}})
    return records


def clear_inf(o):
    if isinstance(o, dict):
        return {k: clear_inf(v) for k, v in o.items()}
    if isinstance(o, list):
        return [clear_inf(v) for v in o]
    if isinstance(o, float) and math.isinf(o):
        return "inf"
    return o


def main():
    with open(os.path.join(HERE, "..", "metrics", "metrics_cases.json")) as f:
        cases = {c["name"]: c for c in json.load(f)["cases"]}
    for name, g in GOLDENS.items():
        case = cases[g["case"]]
        with open(os.path.join(HERE, f"summary-{name}.txt"), "w") as f:
            f.write(summary(g, case))
        res = result(g, case)
        with open(os.path.join(HERE, f"result-{name}.json"), "w") as f:
            json.dump(res, f)
        records = pytorch(g, case, res)
        if records:
            with open(os.path.join(HERE, f"pytorch-{name}.json"), "w") as f:
                json.dump(clear_inf(records), f)
    sample = {"a": 1, "b": 1.5, "c": "inf", "d": None, "e": [1e-05, 10.0, 1e+16, 0.1, -2.5e-07],
              "f": {"x": True, "y": False, "z": []}, "g": "h\u00e9llo \U0001F600 \"q\" \\ /\n\t",
              "h": 123456789012345680.0, "i": -7, "j": {}}
    with open(os.path.join(HERE, "pyjson-sample.json"), "w") as f:
        json.dump(sample, f)


if __name__ == "__main__":
    main()
