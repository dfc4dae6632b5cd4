#!/usr/bin/env bash
# te-wheel doctor cold, whole process (a fresh JVM each run), on an environment of 60 libraries and 3.4 GB
# (make_env.py), and the bytes it reads from the environment's libraries (strace). docs/performance.md, "te-wheel
# doctor", has the figures and the set-up.
#
#   bench/doctor/cold.sh [RUNS]      (after ./mvnw -B -q -pl cli -am package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-10}
JAR=cli/target/te-wheel-cli-0.1.0-SNAPSHOT.jar
[ -f "$JAR" ] || { echo "$JAR is missing: ./mvnw -B -q -pl cli -am package -DskipTests" >&2; exit 2; }
ENV=${TE_DOCTOR_BENCH_ENV:-/tmp/te-doctor-bench-env}
[ -d "$ENV/site-packages" ] || /usr/bin/python3 bench/doctor/make_env.py "$ENV" >&2
SITE=$ENV/site-packages
count=$(find "$SITE" -name '*.so*' -type f | wc -l)
bytes=$(find "$SITE" -name '*.so*' -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f", s }')
echo "environment: $count libraries, $bytes bytes ($SITE)"
run() { java -jar "$JAR" doctor --site-packages "$SITE" >/dev/null || [ $? -le 2 ]; }
run   # the page cache warm for the jar; the JVM stays cold (a new process each run)
times=()
for _ in $(seq "$RUNS"); do
  start=$(date +%s%N)
  run
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
done
printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1; s += $1 } END {
  printf "doctor cold, whole process, %d runs: median %d ms, min %d ms, max %d ms, mean %.0f ms\n", NR,
    t[int((NR + 1) / 2)], t[1], t[NR], s / NR }'
# What it reads of the environment's libraries: every read and pread on a descriptor of a file under site-packages.
log=$(mktemp)
strace -f -qq -e trace=read,pread64 -e signal=none -y -o "$log" java -jar "$JAR" doctor --site-packages "$SITE" \
  >/dev/null || true
awk -v site="$SITE" 'index($0, "<" site) && $NF ~ /^[0-9]+$/ { n++; s += $NF } END {
  printf "read from the environment: %d bytes in %d reads\n", s, n }' "$log"
rm -f "$log"
