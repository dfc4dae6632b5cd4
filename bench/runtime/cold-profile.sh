#!/usr/bin/env bash
# Where the cold first call's time goes: RUNS (default 30) FirstCall runs, each in a fresh JVM with Flight Recorder
# sampling every millisecond (jdk.ExecutionSample and jdk.NativeMethodSample), aggregated by cold-profile.py: the kind
# of work at each sample's leaf (class loading, lambda linkage, FFM, te-wheel's own code, the JDK code it calls) and
# every te-wheel method inclusive. The recorder slows the run; read the shares, not the milliseconds
# (cold-start.sh times it). See docs/performance.md.
#
#   bench/runtime/cold-profile.sh [teRuntime|availability|ffm]     (default teRuntime)
#
# CACHE=aot profiles the runs with an AOT cache (JEP 483/514), trained by one more run with the recorder on: a cache
# trained without it is not used by a JVM that records, and the profile would be of a plain run.
# JAVA=<JDK 25+ java with the jdk.jfr module and the jfr tool beside it>; WHEEL_LIB and NCCL as for cold-start.sh
# (default: te-wheel's stand-ins).
set -euo pipefail

method=${1:-teRuntime}
runs=${RUNS:-30}
java=${JAVA:-java}
jfr=$(dirname "$(readlink -f "$(command -v "$java")")")/jfr
here=$(cd "$(dirname "$0")" && pwd)
jar=$here/target/benchmarks.jar
[[ -f $jar ]] || { echo "cold-profile.sh: $jar is missing; build it as cold-start.sh says" >&2; exit 2; }
[[ -x $jfr ]] || { echo "cold-profile.sh: no jfr tool beside $java; use a JDK (or an image with jdk.jfr)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "cold-profile.sh: python3 is needed for the aggregation" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -n ${WHEEL_LIB:-} || -n ${NCCL:-} ]]; then
  wheel_lib=${WHEEL_LIB:?WHEEL_LIB and NCCL go together}
  nccl=${NCCL:?WHEEL_LIB and NCCL go together}
else
  "$java" -cp "$jar" dev.tewheel.bench.FirstCall standIns "$work" >"$work/stand-ins"
  { read -r wheel_lib; read -r nccl; read -r cuda; } <"$work/stand-ins"
  export LD_LIBRARY_PATH=$cuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
record="-XX:StartFlightRecording:jdk.ExecutionSample#period=1ms,jdk.NativeMethodSample#period=1ms,filename=$work/run.jfr"
cache=()
case ${CACHE:-plain} in
  plain) ;;
  aot)
    "$java" "-XX:AOTCacheOutput=$work/first-call.aot" --enable-native-access=ALL-UNNAMED "$record" -cp "$jar" \
      dev.tewheel.bench.FirstCall "$method" "$wheel_lib" "$nccl" >"$work/run.log" 2>&1 \
      || { echo "cold-profile.sh: training the AOT cache failed:" >&2; cat "$work/run.log" >&2; exit 1; }
    cache=("-XX:AOTCache=$work/first-call.aot") ;;
  *) echo "cold-profile.sh: CACHE is plain or aot, not ${CACHE}" >&2; exit 2 ;;
esac
for ((i = 1; i <= runs; i++)); do
  "$java" "${cache[@]}" --enable-native-access=ALL-UNNAMED "${record/run.jfr/$i.jfr}" \
    -cp "$jar" dev.tewheel.bench.FirstCall "$method" "$wheel_lib" "$nccl" >"$work/run.log" 2>&1 \
    || { echo "cold-profile.sh: FirstCall $method failed:" >&2; cat "$work/run.log" >&2; exit 1; }
  "$jfr" print --events jdk.ExecutionSample,jdk.NativeMethodSample --stack-depth 200 "$work/$i.jfr" >>"$work/samples.txt"
done
echo "FirstCall $method, $runs runs, ${CACHE:-plain} ($("$java" -version 2>&1 | head -1)), load average $(cut -d' ' -f1-3 /proc/loadavg):"
python3 "$here/cold-profile.py" "$work/samples.txt"
