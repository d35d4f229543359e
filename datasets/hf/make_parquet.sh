#!/usr/bin/env bash
# Writes the Parquet samples under datasets/hf with the project's own Parquet code (no Python,
# no Hadoop):
# - sharegpt_vicuna_sample.parquet (Snappy; the layout of the Aeala/ShareGPT_Vicuna_unfiltered
#   hub export: id + conversations list<struct<from,value>>) from the ShareGPT sample;
# - visionarena, mmvu, mmstar and asr samples (drawn images, sine-tone WAVs, seeded), and the
#   Parquet forms of mlperf_sample.jsonl and zeta_sample.jsonl (see HfSamples).
set -euo pipefail
cd "$(dirname "$0")/../.."
./mvnw -B -q test-compile exec:java \
  -Dexec.mainClass=dev.gatlingllm.dataset.ParquetTestFiles \
  -Dexec.args="datasets/sharegpt/sharegpt_sample.json datasets/hf/sharegpt_vicuna_sample.parquet SNAPPY"
./mvnw -B -q exec:java -Dexec.mainClass=dev.gatlingllm.dataset.HfSamples
