// The whole wheel was the subject, the layout checks stepped aside, the library checks judged the extension, and the
// suggested tag is the one its symbol versions allow: libnccl.so.2 is an allowed NVIDIA wheel library, not external.
import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log =~ /PASSED: 0 errors, \d+ warnings?, 0 suppressed; 17 checks on wheel nvdemo-1\.0-cp312-cp312-manylinux_2_34_x86_64\.whl \(layout any\) \(platform manylinux_2_34_x86_64, failOn error\)/
assert log.contains('suggested platform tag: manylinux_2_34_x86_64')
assert log.contains('limited by symbol versions ')
assert !log.contains('LAYOUT-REQUIRED')
def report = new JsonSlurper().parse(new File(basedir, 'release/target/te-verify/report.json'))
assert report.passed == true
assert report.suggestedPlatformTag == 'manylinux_2_34_x86_64'
assert report.libraries*.path == ['nvdemo/_native.cpython-312-x86_64-linux-gnu.so']
def ran = report.checks*.id as Set
assert ran.containsAll(['PLATFORM', 'DEPS-RESOLVE', 'EXEC-STACK', 'ISA-LEVEL', 'GPU-ARCHS', 'SYMBOL-FLOOR', 'CUDA-VARIANT', 'WHEEL-RECORD', 'WHEEL-SIZE'])
assert !ran.contains('LAYOUT-REQUIRED') && !ran.contains('TE-BIND-NOW') && !ran.contains('MANIFEST-DIGESTS')
true
