#!/usr/bin/env bash
# The pip-installed te-wheel command beside `auditwheel show` on the same wheel, as whole processes, in alternating
# rounds whose order rotates so that this machine's drift spreads over every column (docs/performance.md, "te-wheel
# verify beside auditwheel show"). Each round runs once each:
#   verify            te-wheel verify <wheel>            (the console script pip installed: Python, then the bundled
#                                                        java with its class-data archive; every check, every RECORD
#                                                        entry hashed, the GPU code read)
#   verify-noarchive  the same java command with -Xshare:off in place of the archive
#   auditwheel        python3 -m auditwheel show <wheel>
#   version           the launcher's java command --version, with the archive (the bundled java's cold start;
#                     the console script adds Python's start, printed once before the rounds)
#   version-noarchive the same java command with -Xshare:off
#   inflate           unzip -p <wheel> >/dev/null           (inflating every entry: Info-ZIP's zlib)
#   inflate+hash      unzip -p <wheel> | sha256sum          (and hashing every byte: the floor of a gate that hashes)
# then prints each run's wall time and CPU, the medians, and te-wheel verify against auditwheel show.
#
# Usage: bench/cli-vs-auditwheel.sh <wheel.whl> [rounds]
#   TE_WHEEL_WHL  te-wheel's pip wheel (default: pip/target/pip-wheel/te_wheel-*.whl); installed with Debian's
#                 $PYTHON -m pip install --no-index --target into a temporary folder
#   PYTHON        the Python that installs te-wheel, runs its console script and auditwheel (default /usr/bin/python3)
#   AUDITWHEEL    auditwheel's src/ folder (pypa/auditwheel, run with Debian's python3-pyelftools and
#                 python3-packaging); or AUDITWHEEL_VENV, a venv whose bin/python has auditwheel installed
set -euo pipefail
wheel=$(realpath "${1:?usage: bench/cli-vs-auditwheel.sh <wheel.whl> [rounds]}")
rounds=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-/usr/bin/python3}
own=${TE_WHEEL_WHL:-$(ls "$here"/../pip/target/pip-wheel/te_wheel-*.whl 2>/dev/null | head -n 1)}
[[ -f $own ]] || { echo "cli-vs-auditwheel: no te-wheel pip wheel; build it: ./mvnw -B package -DskipTests" >&2; exit 2; }
if [[ -n ${AUDITWHEEL_VENV:-} ]]; then
  auditwheel=("$AUDITWHEEL_VENV/bin/python" -m auditwheel)
  auditwheel_dir=$PWD
elif [[ -n ${AUDITWHEEL:-} ]]; then
  auditwheel=("$python" -m auditwheel)
  auditwheel_dir=$AUDITWHEEL
else
  echo "cli-vs-auditwheel: set AUDITWHEEL (auditwheel's src/) or AUDITWHEEL_VENV" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" -m pip install --quiet --no-index --no-deps --disable-pip-version-check --target "$work/site" "$own"
export PYTHONPATH=$work/site
te_wheel=$work/site/bin/te-wheel
# The launcher's own java command line, one argument a line; its archive option swapped for -Xshare:off.
mapfile -t launch < <("$python" -c 'import sys, te_wheel.__main__ as m; print("\n".join(m.command([])))')
plain=()
for arg in "${launch[@]}"; do
  case $arg in
    -XX:AOTCache=* | -XX:SharedArchiveFile=*) plain+=(-Xshare:off) ;;
    *) plain+=("$arg") ;;
  esac
done
# Checks that both ways give the same verdict, and that the archive is used (its classes come from it).
"$te_wheel" verify "$wheel" >"$work/with.txt" 2>&1 || true
"${plain[@]}" verify "$wheel" >"$work/without.txt" 2>&1 || true
tail -n 1 "$work/with.txt"
[[ $(tail -n 1 "$work/with.txt") == $(tail -n 1 "$work/without.txt") ]] || { echo "the verdicts differ" >&2; exit 1; }
shared=$("${launch[@]:0:${#launch[@]}-2}" -Xlog:class+load=info:stdout -m dev.tewheel.cli --version \
  | grep -c 'source: shared objects file' || true)
echo "te-wheel: $own; class-data archive: ${launch[1]} ($shared classes loaded from it by --version)"
/usr/bin/time -f "Python's start (python3 -c pass): %e s (CPU %U s + %S s)" "$python" -c pass

kinds=(verify verify-noarchive auditwheel version version-noarchive inflate inflate+hash)
run() { # kind -> "wall_s peak_kb user_s sys_s"
  local out=$work/time.txt
  case $1 in
    verify) /usr/bin/time -o "$out" -f '%e %M %U %S' "$te_wheel" verify "$wheel" >/dev/null 2>&1 || true ;;
    verify-noarchive) /usr/bin/time -o "$out" -f '%e %M %U %S' "${plain[@]}" verify "$wheel" >/dev/null 2>&1 || true ;;
    auditwheel) (cd "$auditwheel_dir" && /usr/bin/time -o "$out" -f '%e %M %U %S' "${auditwheel[@]}" show "$wheel" \
      >/dev/null 2>&1) ;;
    version) /usr/bin/time -o "$out" -f '%e %M %U %S' "${launch[@]}" --version >/dev/null ;;
    version-noarchive) /usr/bin/time -o "$out" -f '%e %M %U %S' "${plain[@]}" --version >/dev/null ;;
    inflate) /usr/bin/time -o "$out" -f '%e %M %U %S' bash -c 'unzip -p "$0" >/dev/null' "$wheel" ;;
    inflate+hash) /usr/bin/time -o "$out" -f '%e %M %U %S' bash -c 'unzip -p "$0" | sha256sum >/dev/null' "$wheel" ;;
  esac
  tail -n 1 "$out"
}

echo "wheel: $wheel ($(stat -c %s "$wheel") bytes); $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A walls cpus
for ((r = 0; r < rounds; r++)); do
  line="round $((r + 1)):"
  for ((k = 0; k < ${#kinds[@]}; k++)); do
    kind=${kinds[$(((k + r) % ${#kinds[@]}))]}
    read -r wall peak user sys <<<"$(run "$kind")"
    walls[$kind]+="$wall "
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')
    cpus[$kind]+="$cpu "
    line+=" $kind ${wall} s (CPU ${cpu} s, ${peak} KB);"
  done
  echo "$line load $(cut -d' ' -f1 /proc/loadavg)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
for kind in "${kinds[@]}"; do
  printf '%-17s median %s s of: %s (CPU median %s s)\n' "$kind" "$(median "${walls[$kind]}")" "${walls[$kind]}" \
    "$(median "${cpus[$kind]}")"
done
v=$(median "${walls[verify]}"); n=$(median "${walls[verify-noarchive]}"); a=$(median "${walls[auditwheel]}")
awk -v v="$v" -v n="$n" -v a="$a" 'BEGIN {printf "te-wheel verify: %.2fx auditwheel show (without the archive %.2fx)\n", v / a, n / a}'
i=$(median "${walls[inflate]}"); h=$(median "${walls[inflate+hash]}")
awk -v v="$v" -v c="$(median "${walls[version]}")" -v i="$i" -v h="$h" -v a="$a" 'BEGIN {printf "where verify'"'"'s time goes: start %.2f s (--version), the rest %.2f s; inflate alone %.2f s, inflate and hash %.2f s (auditwheel show %.2f s)\n", c, v - c, i, h, a}'
c=$(median "${walls[version]}"); p=$(median "${walls[version-noarchive]}")
awk -v c="$c" -v p="$p" 'BEGIN {printf "cold start (--version): %.3f s with the archive, %.3f s without (%.0f%% less)\n", c, p, (p - c) / p * 100}'
