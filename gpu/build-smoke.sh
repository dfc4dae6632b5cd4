#!/usr/bin/env bash
# Builds the GPU smoke program (gpu/smoke, dev.tewheel.gpu.GpuSmoke) and copies it with its class path into
# gpu/work/smoke/ (gpu-smoke.jar + lib/), the one folder a device run carries for it.
#
# Usage: gpu/build-smoke.sh
# It builds gpu/smoke in the reactor with the modules it needs (-pl gpu/smoke -am), so nothing is installed into
# the local repository and the jars are always this checkout's.
# Run it here with a JDK 22+ (java -jar gpu/work/smoke/gpu-smoke.jar --help), or on the GPU host with the image
# gpu/jlink.sh makes.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
echo "build-smoke: ./mvnw -B -q -pl gpu/smoke -am package -DskipTests"
./mvnw -B -q -pl gpu/smoke -am package -DskipTests
rm -rf "$here/work/smoke"
mkdir -p "$here/work/smoke"
cp "$here/smoke/target/gpu-smoke.jar" "$here/work/smoke/"
cp -r "$here/smoke/target/lib" "$here/work/smoke/"
echo "build-smoke: $(cd "$here/work/smoke" && find . -type f | sort | paste -sd' ') ($(du -sh "$here/work/smoke" | cut -f1))"
