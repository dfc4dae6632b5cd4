#!/bin/sh
# The built te-wheel, run as TE's CI would run it: java -cp <jar> dev.tewheel.cli.TeWheel on the java given ($1, the
# one running Maven: Java 17 here), on the stand-ins ($3), in a fresh folder ($4). Each command's exit status, its
# key output lines and the files it writes are checked; any difference fails the build with the command's output.
set -u
java=$1 jar=$2 standIns=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
major=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')
failures=0

# run EXPECTED_STATUS PATTERN ARGS...: te-wheel ARGS must exit EXPECTED_STATUS and print a line matching PATTERN.
run() {
  expected=$1 pattern=$2; shift 2
  out=$("$java" -cp "$jar" dev.tewheel.cli.TeWheel "$@" 2>&1); status=$?
  if [ "$status" -ne "$expected" ]; then
    echo "te-wheel $*: exit $status, expected $expected:" >&2; echo "$out" >&2; failures=$((failures + 1)); return
  fi
  if ! printf '%s\n' "$out" | grep -q -e "$pattern"; then
    echo "te-wheel $*: no line matching '$pattern':" >&2; echo "$out" >&2; failures=$((failures + 1)); return
  fi
  echo "ok: te-wheel $* (exit $status)"
}
# exists FILE: a file the commands above must have written.
exists() {
  [ -f "$1" ] || { echo "missing $1" >&2; failures=$((failures + 1)); }
}

# TE's staged tree from the stand-ins, as TE's build leaves it before packing.
lib=stage/transformer_engine/wheel_lib
mkdir -p "$lib/nccl_ep" && : > stage/transformer_engine/__init__.py
cp "$standIns/te/libtransformer_engine.so" "$lib/" && cp "$standIns/nccl_ep/lib/libnccl_ep.so.0.1.0" "$lib/libnccl_ep.so" \
  && cp -R "$standIns/nccl_ep/include" "$lib/nccl_ep/" || exit 1
floors="$standIns/nccl/lib,$standIns/cuda"
good=transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl

run 0 "^te-wheel [0-9]" --version
# pack: TE's per-CUDA-major repack as one command, verified before it takes its place.
run 0 "^verify: PASSED: 0 errors, 3 warnings" pack --staging-directory stage --version 2.9.0 --cuda-major 12 \
  --platform-tag manylinux_2_34_x86_64 --output-timestamp 2026-01-01T00:00:00Z --wheel-directory dist \
  --floor-libraries "$floors" --report-dir reports/pack
exists "dist/$good"; exists reports/pack/report.json
# A tag the libraries do not fit: exit 1, the wheel kept beside as .rejected.
run 1 "^FAILED: 2 errors.*kept as .*manylinux_2_28_x86_64.whl.rejected" pack --staging-directory stage --version 2.9.0 \
  --cuda-major 12 --platform-tag manylinux_2_28_x86_64 --wheel-directory rejected
exists rejected/transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl.rejected
# verify: the wheel, the folder of wheels, the staged wheel_lib; every report form.
run 0 "^PASSED: 0 errors, 3 warnings, 0 suppressed; 34 checks on wheel_lib $good" verify "dist/$good" \
  --floor-libraries "$floors" --report-dir reports/verify
exists reports/verify/report.json; exists reports/verify/TEST-te-verify-wheel-lib.xml; exists reports/verify/verify.sarif
run 0 "^2 verified: 2 passed, 0 failed" verify dist stage/transformer_engine/wheel_lib --report-dir reports/both
exists "reports/both/${good%.whl}/report.json"; exists reports/both/wheel_lib/report.json
run 1 "^FAILED: 0 errors, 3 warnings" verify "dist/$good" --fail-on warning
run 0 '"schema": "te-wheel-verify-report/1"' verify --format json "dist/$good"
run 0 '"version": "2.1.0"' verify --format sarif "dist/$good"
export GITHUB_ACTIONS=true
run 0 "^::warning file=.*title=BAKED-BUILD-PATHS::" verify "dist/$good" --floor-libraries "$floors"
unset GITHUB_ACTIONS
# verify-release: the release as one set; a release of the cu12 wheel alone lacks its expected cu13 wheel.
run 1 "found no cu13 wheel for x86_64" verify-release dist --expect-cuda-majors 12,13 --expect-platforms x86_64 \
  --report-dir reports/release
exists reports/release/report.json; exists "reports/release/${good%.whl}/report.json"
# diff: the release against itself passes; against a wheel_lib of another TE it reports the change.
run 0 "^PASSED: 0 errors, 0 warnings, 0 suppressed; 10 checks" diff "dist/$good" "dist/$good" --report-dir reports/diff
exists reports/diff/report.json
# inspect: the ELF reader.
run 0 "soname:.*libnccl_ep.so.0" inspect "$standIns/nccl_ep/lib/libnccl_ep.so.0.1.0"
# Usage and I/O errors: exit 2, naming the option, the value and what was expected.
run 2 "^te-wheel verify: --fail-on 'fatal': severity 'fatal' is none of error, warning, info" verify --fail-on fatal "dist/$good"
run 2 "did you mean --platform-tag?" verify --platfrom-tag manylinux_2_34_x86_64 "dist/$good"
run 2 "no such file or folder" verify missing.whl
run 2 "^te-wheel pack: --staging-directory is required" pack --version 2.9.0
# runtime: below Java 22 it names the Java it needs; from 22 on it is te-runtime's report.
if [ "$major" -lt 22 ]; then
  run 2 "^te-wheel runtime needs Java 22 or newer.*this is Java $major" runtime --help
else
  run 0 "^Usage: te-wheel runtime" runtime --help
fi
[ "$failures" -eq 0 ] || { echo "check-te-wheel: $failures failures on Java $major" >&2; exit 1; }
echo "check-te-wheel: te-wheel on Java $major: verify, verify-release, diff, pack, inspect and runtime as expected"
