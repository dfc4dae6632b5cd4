#!/usr/bin/env bash
# Builds bench/runtime/target/benchmarks.jar from the reactor's target/ outputs, installing nothing (the local
# repository is shared; the bench POM would need te-runtime installed). Build the modules first:
#
#   ./mvnw -B -q -o -pl runtime -am package -DskipTests
#   JAVA=/path/to/jdk-22+/bin/java bench/runtime/build-jar.sh [OUTPUT_JAR]
#
# javac compiles bench/runtime's sources with JMH's annotation processor against te-runtime's, te-wheel-native's, JNA's
# and JMH's jars; every jar is then unpacked into one class path (as the POM's shade step does, without the module
# descriptors and signatures) with JMH's Main as the entry. JNA, JMH and their dependencies come from the local Maven
# repository (~/.m2, or M2_REPO); the versions are read from the POMs.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here/target/benchmarks.jar}
java=${JAVA:-java}
bin=$(dirname "$(readlink -f "$(command -v "$java")")")
repo=${M2_REPO:-$HOME/.m2/repository}

pom_property() { sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$2" | head -1; }
jmh=$(pom_property jmh.version "$root/pom.xml")
jna=$(pom_property jna.version "$here/pom.xml")
third_party=(
  "$repo/org/openjdk/jmh/jmh-core/$jmh/jmh-core-$jmh.jar"
  "$repo/net/java/dev/jna/jna/$jna/jna-$jna.jar"
  "$repo/net/sf/jopt-simple/jopt-simple/5.0.4/jopt-simple-5.0.4.jar"
  "$repo/org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1.jar"
)
processor="$repo/org/openjdk/jmh/jmh-generator-annprocess/$jmh/jmh-generator-annprocess-$jmh.jar"
modules=()
for module in json elf bundle loader runtime src/native; do
  jar=$(ls "$root/$module"/target/*-SNAPSHOT.jar 2>/dev/null | grep -v -e sources -e tests -e javadoc | head -1 || true)
  if [[ -z $jar ]]; then
    echo "build-jar.sh: no jar in $root/$module/target; build first: ./mvnw -B -q -o -pl runtime -am package" \
      "-DskipTests" >&2
    exit 2
  fi
  modules+=("$jar")
done
for jar in "${third_party[@]}" "$processor"; do
  [[ -f $jar ]] || { echo "build-jar.sh: $jar is missing; run the bench POM's build once to fetch it" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
classpath=$(IFS=:; echo "${modules[*]}:${third_party[*]}")
"$bin/javac" --release 22 -nowarn -d "$work/classes" -cp "$classpath" -processorpath "$processor:${third_party[0]}" \
  $(find "$here/src/main/java" -name '*.java')
mkdir -p "$work/classes/dev/tewheel/bench"
cp "$here"/src/main/c/* "$work/classes/dev/tewheel/bench/"

mkdir "$work/flat"
for jar in "${third_party[@]}" "${modules[@]}"; do
  (cd "$work/flat" && "$bin/jar" xf "$jar")
done
cp -r "$work/classes/." "$work/flat/"
find "$work/flat" -name module-info.class -delete
rm -f "$work/flat"/META-INF/*.SF "$work/flat"/META-INF/*.DSA "$work/flat"/META-INF/*.RSA "$work/flat/META-INF/MANIFEST.MF"
mkdir -p "$(dirname "$out")"
printf 'Main-Class: org.openjdk.jmh.Main\n' >"$work/manifest"
"$bin/jar" cfm "$out.tmp" "$work/manifest" -C "$work/flat" .
mv "$out.tmp" "$out"
echo "$out"
