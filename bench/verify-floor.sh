#!/usr/bin/env bash
# te:verify-wheel-lib as a whole `mvn` process against the hash floor, in alternating rounds on one TE-shaped wheel
# (docs/performance.md, "te:verify-wheel-lib at the hash floor"). Each round runs, back to back and in a rotating
# order so that this machine's drift spreads over all of them:
#   verify     mvn te:verify-wheel-lib -Dte.wheel=<wheel>          (the whole gate)
#   skip       the same with -Dte.skip=true                        (Maven's start and plugin loading only)
#   unzip      unzip -p <wheel> | sha256sum                        (inflate and hash every byte: the floor)
#   auditwheel python3 -m auditwheel show <wheel>                  (from its source, with Debian's pyelftools)
# and prints each run's wall time and peak RSS, then the medians and the ratios the issue asks for: verify's own
# part (median verify - median skip) against the floor.
#
# Usage: bench/verify-floor.sh <sizeMb> [rounds]
#   MVN         the Maven command (default: mvn); the plugin must be in its local repository
#   WHEELS      where the wheels are made and kept (default: bench/target)
#   AUDITWHEEL  a checkout of pypa/auditwheel's src/ folder (default: none: that column is left out)
#   MAVEN_OPTS  passed on; e.g. -Xmx128m to hold every run to the heap bound
#   BASELINE    another Maven command whose local repository holds an earlier te-wheel: adds a column "baseline"
#               (te:verify-wheel-lib by that build), to compare a change in the same rounds
#   CLASS_CACHE a file: adds the columns "cached" and "skip-cached", the same two runs with the JDK's class cache for
#               Maven's JVM (JDK 25+: the AOT cache, -XX:AOTCache; older: a dynamic CDS archive), made first by one
#               training verify of the same wheel (docs/performance.md, "Running the gate faster")
set -euo pipefail
size=${1:?usage: bench/verify-floor.sh <sizeMb> [rounds]}
rounds=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
mvn=${MVN:-mvn}
wheels=${WHEELS:-$here/target}
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$here/../pom.xml" | head -n 1)
goal="dev.tewheel:te-maven-plugin:$version:verify-wheel-lib"

wheel=$(java -cp "$here/target/benchmarks.jar" dev.tewheel.bench.TeShapedWheel "$size" "$wheels")
project=$(mktemp -d)
trap 'rm -rf "$project"' EXIT
cat > "$project/pom.xml" <<'EOF'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>bench</groupId>
  <artifactId>verify-floor</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
</project>
EOF

kinds=(verify skip unzip)
if [[ -n ${AUDITWHEEL:-} ]]; then
  kinds+=(auditwheel)
fi
if [[ -n ${BASELINE:-} ]]; then
  kinds+=(baseline)
fi
if [[ -n ${CLASS_CACHE:-} ]]; then
  kinds+=(cached skip-cached)
  jdk=$(${JAVA_HOME:+$JAVA_HOME/bin/}java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
  if ((jdk >= 25)); then
    train=(-XX:AOTCacheOutput="$CLASS_CACHE") use=-XX:AOTCache="$CLASS_CACHE"
  else
    train=(-XX:ArchiveClassesAtExit="$CLASS_CACHE") use=-XX:SharedArchiveFile="$CLASS_CACHE"
  fi
  rm -f "$CLASS_CACHE"
  (cd "$project" && MAVEN_OPTS="${MAVEN_OPTS:-} ${train[*]}" $mvn -q "$goal" -Dte.wheel="$wheel" >/dev/null)
  [[ -s $CLASS_CACHE ]] || { echo "verify-floor: the training run made no class cache $CLASS_CACHE" >&2; exit 1; }
  echo "class cache: $CLASS_CACHE ($(stat -c %s "$CLASS_CACHE") bytes, Java $jdk: ${use%%=*})"
fi
run() { # kind -> "wall_s peak_kb user_s sys_s"
  local out="$project/time.txt"
  case $1 in
    verify) (cd "$project" && /usr/bin/time -o "$out" -f '%e %M %U %S' $mvn -q "$goal" -Dte.wheel="$wheel" >/dev/null) ;;
    skip) (cd "$project" && /usr/bin/time -o "$out" -f '%e %M %U %S' $mvn -q "$goal" -Dte.wheel="$wheel" -Dte.skip=true \
      >/dev/null) ;;
    cached) (cd "$project" && MAVEN_OPTS="${MAVEN_OPTS:-} $use" /usr/bin/time -o "$out" -f '%e %M %U %S' $mvn -q "$goal" \
      -Dte.wheel="$wheel" >/dev/null) ;;
    skip-cached) (cd "$project" && MAVEN_OPTS="${MAVEN_OPTS:-} $use" /usr/bin/time -o "$out" -f '%e %M %U %S' $mvn -q \
      "$goal" -Dte.wheel="$wheel" -Dte.skip=true >/dev/null) ;;
    baseline) (cd "$project" && /usr/bin/time -o "$out" -f '%e %M %U %S' $BASELINE -q "$goal" -Dte.wheel="$wheel" \
      >/dev/null) ;;
    unzip) /usr/bin/time -o "$out" -f '%e %M %U %S' bash -c 'unzip -p "$0" | sha256sum >/dev/null' "$wheel" ;;
    auditwheel) (cd "$AUDITWHEEL" && /usr/bin/time -o "$out" -f '%e %M %U %S' /usr/bin/python3 -m auditwheel show "$wheel" \
      >/dev/null) ;;
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
  printf '%-10s median %s s of: %s (CPU median %s s)\n' "$kind" "$(median "${walls[$kind]}")" "${walls[$kind]}" \
    "$(median "${cpus[$kind]}")"
done
v=$(median "${walls[verify]}"); s=$(median "${walls[skip]}"); u=$(median "${walls[unzip]}")
awk -v v="$v" -v s="$s" -v u="$u" 'BEGIN {printf "verify own part (verify - skip): %.2f s = %.2fx unzip -p | sha256sum\n", v - s, (v - s) / u}'
vc=$(median "${cpus[verify]}"); sc=$(median "${cpus[skip]}"); uc=$(median "${cpus[unzip]}")
awk -v v="$vc" -v s="$sc" -v u="$uc" 'BEGIN {printf "CPU: verify own part %.2f s = %.2fx the CPU of unzip -p | sha256sum\n", v - s, (v - s) / u}'
if [[ -n ${BASELINE:-} ]]; then
  b=$(median "${walls[baseline]}")
  awk -v b="$b" -v s="$s" -v u="$u" 'BEGIN {printf "baseline own part: %.2f s = %.2fx unzip -p | sha256sum\n", b - s, (b - s) / u}'
fi
if [[ -n ${CLASS_CACHE:-} ]]; then
  c=$(median "${walls[cached]}"); sk=$(median "${walls[skip-cached]}")
  awk -v v="$v" -v s="$s" -v c="$c" -v k="$sk" -v u="$u" 'BEGIN {printf "with the class cache: verify %.2f s (%.2f s less), skip %.2f s (%.2f s less), own part %.2f s = %.2fx unzip -p | sha256sum\n", c, v - c, k, s - k, c - k, (c - k) / u}'
fi
if [[ -n ${AUDITWHEEL:-} ]]; then
  a=$(median "${walls[auditwheel]}")
  awk -v v="$v" -v a="$a" 'BEGIN {printf "whole mvn verify: %.2fx auditwheel show\n", v / a}'
fi
