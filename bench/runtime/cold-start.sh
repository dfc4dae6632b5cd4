#!/usr/bin/env bash
# The cold first call (te-runtime's availability() + loadNcclEp() + ncclEpGetVersion, beside JNA's preload +
# Native.load + call), each in a fresh JVM, plain and with the JDK's caches: an AOT cache (JEP 483/514) and a dynamic
# CDS archive, each trained by one run of the same configuration. Every round runs each configuration once,
# round-robin, so the machine's drift spreads over all of them; the medians are printed as a table. Two more rows
# (--main only) split te-runtime's figure: `availability` (availability() alone: the search and every check, nothing loaded) and
# `ffm` (a bare FFM program doing JNA's loads and call, no checks: the JDK's share). See docs/performance.md.
#
#   bench/runtime/cold-start.sh [rounds]          JMH forks of RuntimeFirstCallBenchmark (default 15 rounds)
#   bench/runtime/cold-start.sh --main [rounds]   plain `java -cp benchmarks.jar dev.tewheel.bench.FirstCall` runs:
#                                                 no JMH host in the JVM. WHEEL_LIB and NCCL name the libraries
#                                                 (default: a wheel_lib laid out from te-wheel's stand-ins)
# JAVA=<JDK 25+ java> chooses the JDK. BEFORE=<another benchmarks.jar> (e.g. one built by build-jar.sh from an
# earlier commit) adds its te-runtime rows, each trained and run in the same rounds, so a change is measured against
# the code before it under the same load.
set -euo pipefail

mode=jmh
if [[ ${1:-} == --main ]]; then
  mode=main
  shift
fi
rounds=${1:-15}
java=${JAVA:-java}
here=$(cd "$(dirname "$0")" && pwd)
jar=$here/target/benchmarks.jar
if [[ ! -f $jar ]]; then
  echo "cold-start.sh: $jar is missing; build it: ./mvnw -B -q -o -pl runtime -am package -DskipTests &&" \
    "bench/runtime/build-jar.sh" >&2
  exit 2
fi
before=${BEFORE:-}
if [[ -n $before && ! -f $before ]]; then
  echo "cold-start.sh: BEFORE names $before, which is no file" >&2
  exit 2
fi
major=$("$java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ {print $2}')
if [[ -z $major || $major -lt 25 ]]; then
  echo "cold-start.sh: $java is Java ${major:-of unknown version}; the one-step AOT cache needs JDK 25 or later" \
    "(JEP 514). Run with JAVA=/path/to/jdk-25/bin/java" >&2
  exit 2
fi

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
native_access=--enable-native-access=ALL-UNNAMED

if [[ $mode == main ]]; then
  if [[ -n ${WHEEL_LIB:-} || -n ${NCCL:-} ]]; then
    wheel_lib=${WHEEL_LIB:?WHEEL_LIB and NCCL go together}
    nccl=${NCCL:?WHEEL_LIB and NCCL go together}
    libraries="$wheel_lib and $nccl"
  else
    # The benchmarks' own stand-in wheel_lib (RuntimeFixture's layout), and the stand-in CUDA driver NCCL EP NEEDS.
    if ! "$java" -cp "$jar" dev.tewheel.bench.FirstCall standIns "$work" >"$work/stand-ins" 2>"$work/shot.log"; then
      echo "cold-start.sh: could not lay out the stand-ins:" >&2
      cat "$work/shot.log" >&2
      exit 1
    fi
    { read -r wheel_lib; read -r nccl; read -r cuda; } <"$work/stand-ins"
    export LD_LIBRARY_PATH=$cuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    libraries="te-wheel's stand-ins"
  fi
fi

# One cold start of one method in a fresh JVM; prints its time in ms.
shot() {
  local method=$1 extra=$2 jar=${3:-$jar}
  if [[ $mode == main ]]; then
    # shellcheck disable=SC2086 # $extra is zero or one JVM flag
    if ! "$java" $native_access $extra -cp "$jar" dev.tewheel.bench.FirstCall "$method" "$wheel_lib" "$nccl" \
        >"$work/shot.log" 2>&1; then
      echo "cold-start.sh: FirstCall $method with '$extra' failed:" >&2
      cat "$work/shot.log" >&2
      exit 1
    fi
    sed -n 's/^.* first call \([0-9.]*\) ms.*/\1/p' "$work/shot.log" | tail -1
    return
  fi
  if ! "$java" -jar "$jar" "RuntimeFirstCallBenchmark\.$method\$" -f 1 -rf csv -rff "$work/shot.csv" \
      -jvmArgsAppend "$native_access $extra" >"$work/shot.log" 2>&1; then
    echo "cold-start.sh: the $method fork with '$extra' failed:" >&2
    cat "$work/shot.log" >&2
    exit 1
  fi
  tail -1 "$work/shot.csv" | cut -d, -f5
}

# JMH's forks compare te-runtime with JNA; the plain runs also split te-runtime's figure (FirstCall's other methods).
methods=(teRuntime jna)
[[ $mode == jmh ]] || methods+=(ffm availability)
for method in "${methods[@]}"; do
  shot "$method" "-XX:AOTCacheOutput=$work/$method.aot" >/dev/null
  shot "$method" "-XX:ArchiveClassesAtExit=$work/$method.jsa" >/dev/null
done
if [[ -n $before ]]; then
  shot teRuntime "-XX:AOTCacheOutput=$work/before.aot" "$before" >/dev/null
  shot teRuntime "-XX:ArchiveClassesAtExit=$work/before.jsa" "$before" >/dev/null
fi

# name|cache|flags|jar, three rows per method (plain, AOT cache, CDS archive); the JNA rows are 3 to 5, the peers
# of every other method's rows with the same cache (i % 3).
configs=()
for method in "${methods[@]}"; do
  configs+=("$method|plain||$jar" "$method|AOT cache|-XX:AOTCache=$work/$method.aot|$jar"
    "$method|CDS archive|-XX:SharedArchiveFile=$work/$method.jsa|$jar")
done
if [[ -n $before ]]; then
  configs+=("teRuntime (BEFORE)|plain||$before" "teRuntime (BEFORE)|AOT cache|-XX:AOTCache=$work/before.aot|$before"
    "teRuntime (BEFORE)|CDS archive|-XX:SharedArchiveFile=$work/before.jsa|$before")
fi
for ((round = 1; round <= rounds; round++)); do
  for i in "${!configs[@]}"; do
    IFS='|' read -r method label flags config_jar <<<"${configs[$i]}"
    shot "${method%% *}" "$flags" "$config_jar" >>"$work/times.$i"
  done
  echo "round $round of $rounds done" >&2
done

median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
range() { sort -g "$1" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.1f-%.1f", lo, hi }'; }
jna_plain=$(median "$work/times.3")
echo
what=$([[ $mode == main ]] && echo "FirstCall runs on $libraries" || echo "JMH forks on te-wheel's stand-ins")
echo "Cold first call, median of $rounds $what per row ($("$java" -version 2>&1 | head -1)); load average" \
  "$load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end:"
[[ -z $before ]] || echo "(BEFORE: $before)"
echo
echo "| benchmark | cache | median (ms) | range (ms) | vs JNA plain | vs JNA, same cache |"
echo "|---|---|---|---|---|---|"
for i in "${!configs[@]}"; do
  IFS='|' read -r method label flags config_jar <<<"${configs[$i]}"
  m=$(median "$work/times.$i")
  peer=$(median "$work/times.$((3 + i % 3))")
  awk -v n="$method" -v l="$label" -v m="$m" -v r="$(range "$work/times.$i")" -v p="$jna_plain" -v s="$peer" \
    'BEGIN { printf "| %s | %s | %.1f | %s | %.2fx | %.2fx |\n", n, l, m, r, m / p, m / s }'
done
