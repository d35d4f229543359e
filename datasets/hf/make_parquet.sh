#!/usr/bin/env bash
# Writes datasets/hf/sharegpt_vicuna_sample.parquet (Snappy-compressed, the layout of the
# Aeala/ShareGPT_Vicuna_unfiltered hub export: id + conversations list<struct<from,value>>)
# from the ShareGPT sample, using the project's own Parquet code (no Python, no Hadoop).
set -euo pipefail
cd "$(dirname "$0")/../.."
./mvnw -B -q test-compile exec:java \
  -Dexec.mainClass=dev.gatlingllm.dataset.ParquetTestFiles \
  -Dexec.args="datasets/sharegpt/sharegpt_sample.json datasets/hf/sharegpt_vicuna_sample.parquet SNAPPY"
