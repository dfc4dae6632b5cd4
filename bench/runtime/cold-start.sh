#!/usr/bin/env bash
# The cold first call (RuntimeFirstCallBenchmark: te-runtime's availability() + loadNcclEp() + ncclEpGetVersion,
# beside JNA's preload + Native.load + call), each in a fresh JVM, plain and with the JDK's caches: an AOT cache
# (JEP 483/514) and a dynamic CDS archive, each trained by one JMH fork of the same benchmark method. Every round
# runs each configuration once, round-robin, so the machine's drift spreads over all of them; the medians are
# printed as a table. See docs/performance.md.
#
#   bench/runtime/cold-start.sh [rounds]        (default 15; JAVA=<JDK 25+ java> to choose the JDK)
set -euo pipefail

rounds=${1:-15}
java=${JAVA:-java}
here=$(cd "$(dirname "$0")" && pwd)
jar=$here/target/benchmarks.jar
if [[ ! -f $jar ]]; then
  echo "cold-start.sh: $jar is missing; build it: ./mvnw -B -q install -DskipTests -Dinvoker.skip &&" \
    "./mvnw -B -q -f bench/runtime/pom.xml package" >&2
  exit 2
fi
major=$("$java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ {print $2}')
if [[ -z $major || $major -lt 25 ]]; then
  echo "cold-start.sh: $java is Java ${major:-of unknown version}; the one-step AOT cache needs JDK 25 or later" \
    "(JEP 514). Run with JAVA=/path/to/jdk-25/bin/java" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
native_access=--enable-native-access=ALL-UNNAMED

# One JMH fork of one method; prints its single-shot time in ms.
shot() {
  local method=$1 extra=$2
  if ! "$java" -jar "$jar" "RuntimeFirstCallBenchmark\.$method\$" -f 1 -rf csv -rff "$work/shot.csv" \
      -jvmArgsAppend "$native_access $extra" >"$work/shot.log" 2>&1; then
    echo "cold-start.sh: the $method fork with '$extra' failed:" >&2
    cat "$work/shot.log" >&2
    exit 1
  fi
  tail -1 "$work/shot.csv" | cut -d, -f5
}

for method in teRuntime jna; do
  shot "$method" "-XX:AOTCacheOutput=$work/$method.aot" >/dev/null
  shot "$method" "-XX:ArchiveClassesAtExit=$work/$method.jsa" >/dev/null
done

configs=("teRuntime|plain|" "teRuntime|AOT cache|-XX:AOTCache=$work/teRuntime.aot"
  "teRuntime|CDS archive|-XX:SharedArchiveFile=$work/teRuntime.jsa"
  "jna|plain|" "jna|AOT cache|-XX:AOTCache=$work/jna.aot" "jna|CDS archive|-XX:SharedArchiveFile=$work/jna.jsa")
for ((round = 1; round <= rounds; round++)); do
  for i in "${!configs[@]}"; do
    IFS='|' read -r method label flags <<<"${configs[$i]}"
    shot "$method" "$flags" >>"$work/times.$i"
  done
  echo "round $round of $rounds done" >&2
done

median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
range() { sort -g "$1" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.1f-%.1f", lo, hi }'; }
jna_plain=$(median "$work/times.3")
echo
echo "Cold first call, median of $rounds forks per row ($("$java" -version 2>&1 | head -1)):"
echo
echo "| benchmark | cache | median (ms) | range (ms) | vs JNA plain | vs JNA, same cache |"
echo "|---|---|---|---|---|---|"
for i in "${!configs[@]}"; do
  IFS='|' read -r method label flags <<<"${configs[$i]}"
  m=$(median "$work/times.$i")
  peer=$(median "$work/times.$((3 + i % 3))")
  awk -v n="$method" -v l="$label" -v m="$m" -v r="$(range "$work/times.$i")" -v p="$jna_plain" -v s="$peer" \
    'BEGIN { printf "| %s | %s | %.1f | %s | %.2fx | %.2fx |\n", n, l, m, r, m / p, m / s }'
done
