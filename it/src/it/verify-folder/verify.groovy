import java.nio.file.*

def log = new File(basedir, 'build.log').text
assert log.contains(':verify-wheel-lib (default) @ verify-folder ---')
assert log =~ /BAKED-BUILD-PATHS\s+WARNING\s+.*config.h:2\s+found the build machine's path/
assert log =~ /PASSED: 0 errors, 3 warnings, 0 suppressed; \d+ checks on wheel_lib .*wheel_lib \(platform linux_x86_64, failOn error\)/
// GITHUB_ACTIONS=true (invoker.properties): one annotation per finding and build, at the start of a line, file and
// line apart. assemble annotates the three config.h lines and SYMBOL-FLOOR's info; verify, finding the same, refers.
assert log =~ /(?m)^::warning file=[^,]*\/nccl_ep\/include\/nccl_ep\/config\.h,line=2,title=BAKED-BUILD-PATHS::BAKED-BUILD-PATHS: found the build machine's path /
assert log =~ /(?m)^::notice file=[^,]*\/libtransformer_engine\.so,title=SYMBOL-FLOOR::/
assert (log =~ /(?m)^::(error|warning|notice) /).size() == 4
def reports = basedir.toPath().resolve('target/te-verify')
assert reports.resolve('report.json').toFile().text.contains('"passed": true')
assert reports.resolve('TEST-te-verify-wheel-lib.xml').toFile().text.contains('failures="0"')
assert reports.resolve('verify.sarif').toFile().text.contains('"version": "2.1.0"')
