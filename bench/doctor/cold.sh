#!/usr/bin/env bash
# te-wheel doctor cold, whole process, as the pip-installed te-wheel (the console script, its bundled Java runtime
# and class-data archive), on an environment of 60 libraries and 3.4 GB (make_env.py); beside it, in alternating
# rounds, the same runtime's `java -version` (the JVM alone) and `te-wheel --version` (Python's launcher, the JVM and
# te-wheel's entry), each with the 1-minute load average when it ran. Then where doctor's time goes (the JVM's
# class-load log with its uptime stamps: when te-wheel's entry, the dist-info reading, the replay and ELF reading
# start) and the bytes it reads from the environment (strace). docs/performance.md, "te-wheel doctor", has the
# figures.
#
#   bench/doctor/cold.sh [ROUNDS]      (after ./mvnw -B -q -pl pip -am package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-10}
WHEEL=$(ls pip/target/pip-wheel/te_wheel-*.whl 2>/dev/null | head -1)
[ -n "$WHEEL" ] || { echo "no te-wheel wheel in pip/target/pip-wheel: ./mvnw -B -q -pl pip -am package -DskipTests" >&2; exit 2; }
PYTHON=${PYTHON:-/usr/bin/python3}   # the Python that installs and starts te-wheel
ENV=${TE_DOCTOR_BENCH_ENV:-/tmp/te-doctor-bench-env}
[ -d "$ENV/site-packages" ] || "$PYTHON" bench/doctor/make_env.py "$ENV" >&2
SITE=$ENV/site-packages
TW=$(mktemp -d)
trap 'rm -rf "$TW"' EXIT
"$PYTHON" -m pip install --quiet --no-index --disable-pip-version-check --target "$TW" "$WHEEL" 2>/dev/null
count=$(find "$SITE" -name '*.so*' -type f | wc -l)
bytes=$(find "$SITE" -name '*.so*' -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f", s }')
echo "environment: $count libraries, $bytes bytes ($SITE); te-wheel: $(basename "$WHEEL") installed with pip --target"
clean() { env -i PATH="$TW/bin:/usr/bin:/bin" PYTHONPATH="$TW" "$@"; }
JAVA=$TW/te_wheel/java/bin/java
java_version() { clean "$JAVA" -Xlog:disable -version >/dev/null 2>&1; }
tw_version() { clean te-wheel --version >/dev/null; }
doctor() { clean te-wheel doctor --site-packages "$SITE" >/dev/null || [ $? -le 2 ]; }
load() { cut -d' ' -f1 /proc/loadavg; }
ms() { local start end; start=$(date +%s%N); "$@"; end=$(date +%s%N); echo $(( (end - start) / 1000000 )); }
doctor; tw_version; java_version   # the page cache warm for the runtime and the jar; each JVM stays cold
results=$(mktemp)
for round in $(seq "$ROUNDS"); do
  for what in java_version tw_version doctor; do
    echo "$what $(load) $(ms "$what")" >> "$results"
  done
done
for what in java_version tw_version doctor; do
  awk -v w="$what" '$1 == w { print $3, $2 }' "$results" | sort -n | awk -v w="$what" '{ t[NR] = $1; l[NR] = $2 }
    END { lo = l[1]; hi = l[1]; for (i = 1; i <= NR; i++) { if (l[i] < lo) lo = l[i]; if (l[i] > hi) hi = l[i] }
      printf "%-13s %d runs: median %d ms (load %s), min %d ms (load %s), max %d ms (load %s); load %s-%s\n",
        w, NR, t[int((NR + 1) / 2)], l[int((NR + 1) / 2)], t[1], l[1], t[NR], l[NR], lo, hi }'
done
echo "each run, in order (what, 1-minute load, ms):"
tr '\n' ';' < "$results"; echo
rm -f "$results"
# Where doctor's time goes: the launcher's own java command with the class-load log (uptime stamps) in place of its
# -Xlog options; the first class of each phase marks when it starts.
log=$(mktemp)
mapfile -t cmd < <(clean "$PYTHON" -c 'import sys; from te_wheel.__main__ import command
print("\n".join(command(sys.argv[1:])))' doctor --site-packages "$SITE")
args=()
for a in "${cmd[@]}"; do case "$a" in -Xlog:*) ;; *) args+=("$a") ;; esac; done
start=$(date +%s%N)
clean "${args[0]}" "-Xlog:class+load=info:file=$log:uptimemillis" "${args[@]:1}" >/dev/null || true
end=$(date +%s%N)
echo "phases of one run at load $(load) (JVM uptime when the phase's first class loads; whole process $(( (end - start) / 1000000 )) ms):"
for mark in dev.tewheel.cli.TeWheel dev.tewheel.core.doctor.Doctor dev.tewheel.core.doctor.Distributions \
    dev.tewheel.core.doctor.ImportReplay dev.tewheel.loader.te.TeLoadSequence dev.tewheel.loader.LdSoCache \
    dev.tewheel.loader.te.TePythonImport dev.tewheel.loader.ElfFiles dev.tewheel.loader.LoadPredictor \
    dev.tewheel.core.doctor.NcclCheck \
    dev.tewheel.core.doctor.DoctorReport; do
  awk -v c="$mark" '$2 == c { gsub(/[\[\]ms]/, "", $1); printf "  %-40s %5d ms\n", c, $1; exit }' "$log"
done
awk '{ gsub(/[\[\]ms]/, "", $1); last = $1 } END { printf "  %-40s %5d ms (%d classes loaded, %d from the archive)\n",
  "last class loaded", last, NR, shared }  /shared objects file|AOT/ { shared++ }' "$log"
rm -f "$log"
# What it reads of the environment's libraries: every read and pread on a descriptor of a file under site-packages.
if command -v strace >/dev/null; then
  log=$(mktemp)
  strace -f -qq -e trace=read,pread64 -e signal=none -y -o "$log" env -i PATH="$TW/bin:/usr/bin:/bin" \
    PYTHONPATH="$TW" te-wheel doctor --site-packages "$SITE" >/dev/null || true
  awk -v site="$SITE" 'index($0, "<" site) && $NF ~ /^[0-9]+$/ { n++; s += $NF } END {
    printf "read from the environment: %d bytes in %d reads\n", s, n }' "$log"
  rm -f "$log"
fi
