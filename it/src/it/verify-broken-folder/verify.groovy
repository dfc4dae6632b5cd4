import java.nio.file.*

def log = new File(basedir, 'build.log').text
['TE-BIND-NOW', 'DUPLICATE-CONTENT', 'HEADERS-SELF-CONTAINED', 'PLATFORM', 'LAYOUT-UNEXPECTED'].each {
  assert log.contains(it) : "no $it in build.log"
}
assert log.contains('found GLIBC_2.34 from libc.so.6; expected GLIBC_2.28 or older for manylinux_2_28_x86_64')
assert log =~ /FAILED: \d+ errors, \d+ warnings, 0 suppressed/
def json = basedir.toPath().resolve('target/te-verify/report.json').toFile().text
assert json.contains('"passed": false')
assert json.contains('"id": "DUPLICATE-CONTENT"')
assert basedir.toPath().resolve('target/te-verify/TEST-te-verify-wheel-lib.xml').toFile().text.contains('<failure type="ERROR"')
