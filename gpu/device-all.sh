#!/usr/bin/env bash
# Every GPU proof in one command on a one-GPU host (through the device tool: `bash gpu/device-all.sh`), on one NCCL
# build, carrying what device-smoke.sh, device-ep.sh and device-cold.sh carry:
#   gpu/work/jre.tar.xz gpu/work/nccl.tar.xz gpu/work/nccl-extensions.tar.xz gpu/work/wheel_lib
#   gpu/work/wheel_lib-ep-home gpu/work/smoke bench/runtime/target/benchmarks.jar
# It runs, each into its own folder of $OUT and its own $WORK:
#   1. device-smoke.sh  (builds NCCL into /tmp/te-gpu/out/nccl; cases A-E must pass),
#   2. device-ep.sh     with RANKS=1 (or $RANKS) on that NCCL: EpRank's every case, cold and warm,
#   3. device-cold.sh   on that NCCL, with $ROUNDS (default 5) rounds: the cold-start table and the ep-home run.
# Each step gets what is left of $END_BY_S (default 575) seconds, so the command ends inside the tool's 10 minutes.
# The last line is ALL PASS or ALL FAIL (every step must pass), also the exit status.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${OUT:?OUT must name the folder that comes back}"
end_by="${END_BY_S:-575}"
nccl=/tmp/te-gpu/out/nccl
verdicts=()

step() {
  local name="$1" script="$2"; shift 2
  local left=$(( end_by - SECONDS ))
  printf '\n##### %s (t=%ds, %ds left)\n' "$name" "$SECONDS" "$left"
  env "$@" OUT="$OUT/$name" END_BY_S="$left" bash "$here/$script"
  local rc=$?
  verdicts+=("$([[ $rc == 0 ]] && echo PASS || echo FAIL) $name (exit $rc)")
}

step smoke device-smoke.sh WORK=/tmp/te-gpu
step ep device-ep.sh WORK=/tmp/te-ep NCCL_PREBUILT="$nccl" RANKS="${RANKS:-1}"
step cold device-cold.sh WORK=/tmp/te-cold NCCL_PREBUILT="$nccl" ROUNDS="${ROUNDS:-5}"

printf '\n##### verdicts (t=%ds)\n' "$SECONDS"
failed=0
for v in "${verdicts[@]}"; do echo "$v"; [[ $v == FAIL* ]] && failed=1; done
if [[ $failed == 0 ]]; then echo "ALL PASS"; else echo "ALL FAIL"; fi
exit $failed
