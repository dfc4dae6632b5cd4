import java.nio.file.*

def log = new File(basedir, 'build.log').text
assert log.contains(':verify-wheel-lib (default) @ verify-folder ---')
assert log =~ /BAKED-BUILD-PATHS\s+WARNING\s+.*config.h:2\s+found the build machine's path/
assert log =~ /PASSED: 0 errors, 3 warnings, 0 suppressed; \d+ checks on wheel_lib .*wheel_lib \(platform linux_x86_64, failOn error\)/
def reports = basedir.toPath().resolve('target/te-verify')
assert reports.resolve('report.json').toFile().text.contains('"passed": true')
assert reports.resolve('TEST-te-verify-wheel-lib.xml').toFile().text.contains('failures="0"')
