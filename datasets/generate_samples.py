#!/usr/bin/env python3
"""Generates the small sample datasets shipped under datasets/.

All text is synthetic, assembled from word lists in this file with a fixed seed, so the
files are the project's own work and the same on every run:

    python3 datasets/generate_samples.py        # from the project folder

Writes:
    sharegpt/sharegpt_sample.json        ShareGPT format (list of {"id", "conversations"})
    sonnet/sonnet.txt                    poem lines, one per line
    burstgpt/burstgpt_sample.csv         BurstGPT trace format
    custom/custom_sample.jsonl           {"prompt"[, "output_len"]} per line
    hf/instructcoder_sample.jsonl        InstructCoder rows (input, instruction, output)
    hf/aimo_sample.jsonl                 AIMO rows (problem, solution)
    hf/mtbench_sample.jsonl              MT-Bench rows (question_id, category, turns)
    hf/blazedit_sample.jsonl             Blazedit rows (code, change_request, norm_distance)

The Parquet sample (hf/sharegpt_vicuna_sample.parquet) is written from the ShareGPT sample
by datasets/hf/make_parquet.sh, with the project's Java Parquet library.
Needs only the Python standard library and numpy.
"""

import csv
import json
import os
import random

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

TOPICS = [
    "a binary search tree", "HTTP caching", "a Kafka consumer group",
    "garbage collection in the JVM", "TCP congestion control", "a vector database",
    "load testing", "a REST API", "database indexes", "container orchestration",
    "speculative decoding", "a KV cache", "continuous batching", "prefix caching",
    "a message queue", "rate limiting", "consistent hashing", "a bloom filter",
    "event sourcing", "a circuit breaker", "tail latency", "connection pooling",
    "quantization of model weights", "a write-ahead log", "optimistic locking",
]
VERBS = [
    "keeps", "spreads", "limits", "reorders", "batches", "stores", "evicts", "retries",
    "measures", "splits", "merges", "compresses", "validates", "schedules", "tracks",
]
OBJECTS = [
    "the hot entries in memory", "requests across several workers", "the work per second",
    "the slowest operations", "partial results on disk", "tokens before they are sent",
    "the expensive lookups", "timeouts and failures", "the load on the primary node",
    "the order of incoming messages", "the memory used by each request",
    "the time spent waiting in the queue", "the number of open connections",
]
QUALIFIERS = [
    "in most real systems", "under heavy load", "when traffic is bursty",
    "as long as the data fits in memory", "at the cost of some extra latency",
    "without a global lock", "with a small amount of bookkeeping", "on every request",
    "once the warm-up is over", "even when a node fails",
]
QUESTIONS = [
    "Can you explain how {t} works?",
    "What are the trade-offs of {t} compared to {u}?",
    "Write a short summary of {t} for a new engineer on my team.",
    "How do I debug problems with {t} in production?",
    "Give me three practical tips for tuning {t}.",
    "Why would a team choose {t} over {u}?",
    "Describe a failure you might see with {t} and how to prevent it.",
    "Explain {t} to someone who already knows {u}.",
]
SHORT_PROMPTS = ["Hi", "Thanks!", "ok", "Why?"]
SHORT_REPLIES = ["Sure.", "Yes.", "Done!"]


def sentence(rng):
    t = rng.choice(TOPICS)
    return "{}{} {} {} {}.".format(t[0].upper(), t[1:], rng.choice(VERBS), rng.choice(OBJECTS),
                                   rng.choice(QUALIFIERS))


def paragraph(rng, sentences):
    return " ".join(sentence(rng) for _ in range(sentences))


def question(rng):
    t, u = rng.sample(TOPICS, 2)
    return rng.choice(QUESTIONS).format(t=t, u=u)


def sharegpt(rng):
    entries = []
    for i in range(240):
        kind = i % 40
        if kind == 0:      # prompt too short: pruned
            turns = [rng.choice(SHORT_PROMPTS), paragraph(rng, 3)]
        elif kind == 1:    # reply too short: pruned unless an output length is forced
            turns = [question(rng), rng.choice(SHORT_REPLIES)]
        elif kind == 2:    # prompt over 1024 tokens: pruned
            turns = ["Please review this design note:\n" + paragraph(rng, 70), paragraph(rng, 4)]
        elif kind == 3:    # prompt plus reply over 2048 tokens: pruned
            turns = [question(rng), paragraph(rng, 150)]
        elif kind == 4:    # a single turn: skipped
            turns = [question(rng)]
        else:
            turns = [question(rng), paragraph(rng, rng.randint(2, 25))]
            if rng.random() < 0.3:
                turns += [question(rng), paragraph(rng, rng.randint(1, 8))]
        conversations = [{"from": "human" if k % 2 == 0 else "gpt", "value": v}
                         for k, v in enumerate(turns)]
        entries.append({"id": "sample-{:04d}".format(i), "conversations": conversations})
    return entries


ADJ = ["silver", "quiet", "restless", "golden", "faded", "tender", "distant", "bitter",
       "gentle", "hollow", "patient", "burning", "winter", "summer", "ancient", "wandering"]
NOUN = ["river", "lantern", "harbour", "meadow", "candle", "sparrow", "mirror", "orchard",
        "compass", "ember", "willow", "tide", "garden", "letter", "bell", "shadow", "morning"]
VERB = ["remembers", "forgets", "carries", "outlasts", "betrays", "mends", "follows", "keeps",
        "warms", "wakes", "gathers", "measures"]
LINES = [
    "When {a} {n} {v} the {a2} {n2},",
    "And every {n} I loved {v} the {n2},",
    "So let the {a} {n} stay beside the {n2};",
    "No {a} {n} {v} what the {n2} once knew,",
    "Yet still my {n} {v} the {a} {n2}.",
    "Thus time, a {a} {n}, {v} all our {n2}s,",
    "For in thy {n} the {a} {n2} {v} light,",
    "But I, a {a} {n}, {v} the {a2} {n2}.",
    "Then shall the {n} {v} the {a} {n2} again,",
    "O {a} {n}, who {v} the {n2} of days,",
]


def sonnet(rng):
    lines = []
    for _ in range(140):
        lines.append(rng.choice(LINES).format(a=rng.choice(ADJ), a2=rng.choice(ADJ),
                                              n=rng.choice(NOUN), n2=rng.choice(NOUN),
                                              v=rng.choice(VERB)))
    return lines


def burstgpt(seed):
    g = np.random.default_rng(seed)
    rows, t = [], 0.0
    for _ in range(300):
        t += float(g.gamma(0.5, 2.0))
        model = "GPT-4" if g.random() < 0.4 else "ChatGPT"
        request = int(np.clip(g.lognormal(5.0, 0.9), 1, 1800))
        response = 0 if g.random() < 0.06 else int(np.clip(g.lognormal(4.8, 0.8), 1, 1500))
        if g.random() < 0.01:
            request = 0
        log_type = "Conversation log" if g.random() < 0.7 else "API log"
        rows.append([round(t, 3), model, request, response, request + response, log_type])
    return rows


CUSTOM = [
    "What is the capital of {c}?",
    "List three facts about {c}.",
    "Write a haiku about {c}.",
    "Translate 'good morning' into the main language of {c}.",
    "Plan a three-day trip to {c} on a small budget.",
]
COUNTRIES = ["India", "Iran", "China", "Chile", "Norway", "Kenya", "Peru", "Japan", "Ghana",
             "Spain", "Canada", "Vietnam"]


def custom(rng):
    out = []
    for i in range(40):
        rec = {"prompt": rng.choice(CUSTOM).format(c=rng.choice(COUNTRIES))}
        if i % 5 == 0:
            rec["output_len"] = rng.choice([32, 64, 128])
        out.append(rec)
    return out


CODE = '''def {name}(items):
    result = []
    for item in items:
        if item {op} {k}:
            result.append(item * {m})
    return result
'''
EDITS = ["Rename the function to {new}.", "Add type hints to the function.",
         "Return a tuple instead of a list.", "Skip items that are None.",
         "Use a list comprehension instead of the loop."]


def instructcoder(rng):
    rows = []
    for i in range(25):
        code = CODE.format(name="f{}".format(i), op=rng.choice(["<", ">", "=="]),
                           k=rng.randint(0, 9), m=rng.randint(2, 5))
        rows.append({"input": code, "instruction": rng.choice(EDITS).format(new="g{}".format(i)),
                     "output": code.replace("result", "out")})
    return rows


def aimo(rng):
    rows = []
    for i in range(25):
        a, b = rng.randint(2, 99), rng.randint(2, 99)
        problem = "Find the remainder when {}^{} is divided by {}.".format(a, b, rng.randint(3, 50))
        solution = " ".join("Step {}: {}".format(s + 1, sentence(rng))
                            for s in range(rng.randint(2, 30)))
        rows.append({"problem": problem, "solution": solution, "answer": str(rng.randint(0, 99))})
    return rows


def mtbench(rng):
    cats = ["writing", "roleplay", "reasoning", "math", "coding", "extraction", "stem",
            "humanities"]
    return [{"question_id": 81 + i, "category": rng.choice(cats),
             "turns": [question(rng), "Now rewrite your answer in two sentences."]}
            for i in range(20)]


def blazedit(rng):
    rows = []
    for i in range(25):
        code = CODE.format(name="h{}".format(i), op="<", k=i % 10, m=2)
        rows.append({"code": code, "change_request": rng.choice(EDITS).format(new="k{}".format(i)),
                     "norm_distance": round(rng.random(), 3)})
    return rows


SPEC_BENCH_CATEGORIES = ["writing", "roleplay", "reasoning", "math", "coding", "extraction",
                         "stem", "humanities", "translation", "summarization", "qa",
                         "math_reasoning", "rag"]


def spec_bench(rng):
    """Spec-Bench question.jsonl layout: question_id, category, turns (one or two)."""
    rows = []
    for i in range(39):
        category = SPEC_BENCH_CATEGORIES[i % len(SPEC_BENCH_CATEGORIES)]
        turns = [question(rng)]
        if category in ("writing", "roleplay", "reasoning", "math", "coding", "extraction",
                        "stem", "humanities"):
            turns.append("Now answer again in one short paragraph.")
        rows.append({"question_id": 81 + i, "category": category, "turns": turns})
    return rows


def mlperf(rng):
    """mgoin/mlperf-inference-llama*-data layout: system_prompt, question, output."""
    systems = ["You are a helpful assistant.", "Answer as briefly as you can.",
               "You are an expert who explains step by step."]
    return [{"system_prompt": rng.choice(systems), "question": question(rng),
             "output": paragraph(rng, rng.randint(1, 12))} for _ in range(20)]


def zeta(rng):
    """zed-industries/zeta layout: events, input, output (editable region markers)."""
    rows = []
    for i in range(15):
        name = rng.choice(["total", "count", "mean", "merge", "parse"])
        code = CODE.format(name=name, op=rng.choice([">", "<"]), k=rng.randint(0, 9),
                           m=rng.randint(2, 5))
        events = "User edited file: \"src/lib.py\":\n```diff\n-    x = 1\n+    x = 2\n```"
        region = "<|editable_region_start|>\n" + code + "<|editable_region_end|>"
        rows.append({"events": events,
                     "input": "```src/lib.py\n<|start_of_file|>\n" + region + "\n```",
                     "output": "```src/lib.py\n<|start_of_file|>\n"
                               + region.replace("items", "values") + "\n```"})
    return rows


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def main():
    rng = random.Random(20251121)
    for d in ("sharegpt", "sonnet", "burstgpt", "custom", "hf"):
        os.makedirs(os.path.join(HERE, d), exist_ok=True)
    with open(os.path.join(HERE, "sharegpt", "sharegpt_sample.json"), "w", encoding="utf-8") as f:
        json.dump(sharegpt(rng), f, ensure_ascii=False, indent=1)
        f.write("\n")
    with open(os.path.join(HERE, "sonnet", "sonnet.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(sonnet(rng)) + "\n")
    with open(os.path.join(HERE, "burstgpt", "burstgpt_sample.csv"), "w", newline="",
              encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["Timestamp", "Model", "Request tokens", "Response tokens", "Total tokens",
                    "Log Type"])
        w.writerows(burstgpt(20251121))
    write_jsonl(os.path.join(HERE, "custom", "custom_sample.jsonl"), custom(rng))
    write_jsonl(os.path.join(HERE, "hf", "instructcoder_sample.jsonl"), instructcoder(rng))
    write_jsonl(os.path.join(HERE, "hf", "aimo_sample.jsonl"), aimo(rng))
    write_jsonl(os.path.join(HERE, "hf", "mtbench_sample.jsonl"), mtbench(rng))
    write_jsonl(os.path.join(HERE, "hf", "blazedit_sample.jsonl"), blazedit(rng))
    # added later, with their own seed so the files above keep their bytes
    rng = random.Random(20261123)
    os.makedirs(os.path.join(HERE, "spec_bench"), exist_ok=True)
    write_jsonl(os.path.join(HERE, "spec_bench", "spec_bench_sample.jsonl"), spec_bench(rng))
    write_jsonl(os.path.join(HERE, "hf", "mlperf_sample.jsonl"), mlperf(rng))
    write_jsonl(os.path.join(HERE, "hf", "zeta_sample.jsonl"), zeta(rng))


if __name__ == "__main__":
    main()
