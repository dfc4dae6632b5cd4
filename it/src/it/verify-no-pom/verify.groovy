// verify and diff ran without a project: the te: prefix resolved, the wheel passed, the reports went to ./target.
def log = new File(basedir, 'build.log').text
assert !log.contains('Goal requires a project')
assert log =~ /te:[^:]+:verify-wheel-lib \(default-cli\) @ standalone-pom/
assert !log.contains('${project.basedir}')
assert log =~ /PASSED: 0 errors, 3 warnings, 0 suppressed; \d+ checks on wheel_lib .*transformer_engine_cu12-2\.9\.0-py3-none-manylinux_2_34_x86_64\.whl!transformer_engine\/wheel_lib \(platform manylinux_2_34_x86_64, failOn error\)/
assert log.contains('BUILD SUCCESS')
def report = new File(basedir, 'release/target/te-verify/report.json')
assert report.isFile()
assert report.text.contains('"passed": true')
assert !new File(basedir, 'release/pom.xml').exists()
assert log =~ /te:[^:]+:diff-wheel \(default-cli\) @ standalone-pom/
assert new File(basedir, 'release/target/te-diff/report.json').text.contains('"passed": true')
assert !log.contains('has no effect')
true
