import java.nio.file.*

def log = new File(basedir, 'build.log').text
assert log =~ /PASSED: 0 errors, 3 warnings, 0 suppressed; \d+ checks on wheel_lib transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl!transformer_engine\/wheel_lib \(platform manylinux_2_34_x86_64/
assert log.contains('WHEEL-PATHS')
assert log.contains('../../evil.so')
assert log.contains('/etc/evil.conf')
assert log.contains('WHEEL-RECORD')
assert log =~ /FAILED: \d+ errors/
// Nothing of the hostile wheel was written anywhere.
assert !Files.exists(basedir.toPath().resolve('../../evil.so').normalize())
assert !Files.exists(basedir.toPath().resolve('../evil.so').normalize())
assert !Files.exists(Paths.get('/etc/evil.conf'))
assert basedir.toPath().resolve('target/hostile/report.json').toFile().text.contains('"id": "WHEEL-PATHS"')
