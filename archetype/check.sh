#!/usr/bin/env bash
# Checks the archetype the way a user meets it: installs the plugin and the archetype into the
# local Maven repository, generates a project from the archetype in a temporary folder and
# runs its simulation with `mvn gatling:test` (against the plugin's embedded simulator, about
# 10 s of load). Called from .ci/run after the tests; run it by hand from anywhere.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mvn=("$root/mvnw" -B --no-transfer-progress)

work="$(mktemp -d)"
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
project="$("$root/archetype/generate.sh" "$work" | tail -n 1)"
cd "$project"
echo "archetype check: running its simulation (mvn gatling:test)"
log="$work/gatling-test.log"
if ! "${mvn[@]}" gatling:test > "$log" 2>&1; then
  tail -n 60 "$log"
  echo "archetype check: FAILED: the generated project's gatling:test did not pass"
  exit 1
fi
# The run must have gone through the plugin and written vLLM's summary and result file.
for expected in "Serving Benchmark Result" "wrote the benchmark result to" \
    "completions: percentage of failed events is less than 1.0 : true" \
    "JVM settings:                            ok"; do
  if ! grep -qi -- "$expected" "$log"; then
    tail -n 60 "$log"
    echo "archetype check: FAILED: no \"$expected\" in the generated project's output"
    exit 1
  fi
done
# The logging set-up: the plugin's lines shown, DJL's GPU probe and logback's chatter not.
for unexpected in "Failed to detect GPU count" "|-INFO in ch.qos.logback"; do
  if grep -q -- "$unexpected" "$log"; then
    grep -- "$unexpected" "$log" | head -3
    echo "archetype check: FAILED: \"$unexpected\" in the generated project's output"
    exit 1
  fi
done
ls target/gatling/*/benchmark-*.json > /dev/null
# The plugin's check of its own JVM, before the run: the archetype's <jvmArgs> are the ones
grep -q "^JVM settings: .*: ok$" "$log" || { echo "archetype check: FAILED: no JVM settings ok line"; exit 1; }
echo "archetype check: passed (generated project ran its simulation; result JSON written)"
