import java.nio.file.*
import java.util.zip.ZipFile

def log = new File(basedir, 'build.log').text
def whl = basedir.toPath().resolve('target/transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl')
assert Files.isRegularFile(whl)
assert log =~ /transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl: \d+ files, [\d,]+ bytes packed into [\d,]+/
assert log.contains('verify: PASSED: 0 errors, 3 warnings')
// pack names the tag its libraries allow too (the stand-ins need GLIBC_2.34), before its summary.
assert log =~ /:pack-wheel [\s\S]*suggested platform tag: manylinux_2_34_x86_64[\s\S]*verify: PASSED/
assert log =~ /:verify-wheel-lib \(gate\)[\s\S]*PASSED: 0 errors, 3 warnings, 0 suppressed; \d+ checks on wheel_lib transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl!transformer_engine\/wheel_lib/
def zip = new ZipFile(whl.toFile())
def names = zip.entries().collect { it.name }
assert names.contains('transformer_engine/__init__.py')
assert names.contains('transformer_engine/wheel_lib/libnccl_ep.so')
assert names[-3..-1] == ['transformer_engine_cu12-2.9.0.dist-info/METADATA', 'transformer_engine_cu12-2.9.0.dist-info/WHEEL',
                         'transformer_engine_cu12-2.9.0.dist-info/RECORD']
assert zip.getInputStream(zip.getEntry('transformer_engine_cu12-2.9.0.dist-info/METADATA')).text.contains('Name: transformer_engine_cu12\n')
assert !names.any { it.contains('te-wheel-state') } : 'assemble state never ships'
zip.close()

// attach=true: install published the wheel beside the POM, type whl.
def installed = new File(localRepositoryPath, 'dev/tewheel/it/pack-wheel/2.9.0/pack-wheel-2.9.0.whl')
assert installed.isFile() : "not installed: $installed"
assert installed.length() == Files.size(whl)
