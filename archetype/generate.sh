#!/usr/bin/env bash
# Generates a project from the archetype the way a user does, into the folder given
# (default: a new temporary folder), after installing the plugin and the archetype into the
# local Maven repository. Prints the generated project's path on its last line.
# Used by archetype/check.sh (CI) and by ClientTruthBenchmark's user-path rungs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mvn=("$root/mvnw" -B --no-transfer-progress)
# the plugin's version, the project's own <version> (two spaces in), which the archetype shares
version="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$root/pom.xml" | head -n 1)"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"

echo "archetype: installing the plugin ${version} (no tests)" >&2
"${mvn[@]}" -q -f "$root/pom.xml" install -DskipTests -Dfuzz.skip=true -DskipPitest >&2
echo "archetype: installing the archetype" >&2
"${mvn[@]}" -q -f "$root/archetype/pom.xml" install >&2
echo "archetype: generating a project in $work" >&2
rm -rf "$work/llm-bench"
(cd "$work" && "${mvn[@]}" -q org.apache.maven.plugins:maven-archetype-plugin:3.4.0:generate \
  -DarchetypeGroupId=dev.gatlingllm -DarchetypeArtifactId=gatling-llm-archetype \
  -DarchetypeVersion="$version" -DarchetypeCatalog=local \
  -DgroupId=com.example.bench -DartifactId=llm-bench -Dversion=1.0-SNAPSHOT >&2)
echo "$work/llm-bench"
