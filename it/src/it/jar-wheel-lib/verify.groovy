import java.nio.file.*
import java.util.zip.ZipFile

def log = new File(basedir, 'build.log').text
def jar = basedir.toPath().resolve('natives/target/te-natives-2.9.0-linux-x86_64-cu12.jar')
assert Files.isRegularFile(jar)
assert log =~ /te-natives-2.9.0-linux-x86_64-cu12.jar: \d+ files under META-INF\/te-wheel\/wheel_lib\/, classifier linux-x86_64-cu12/
def zip = new ZipFile(jar.toFile())
def names = zip.entries().collect { it.name }
assert names[0..1] == ['META-INF/', 'META-INF/MANIFEST.MF']
assert names.contains('META-INF/te-wheel/wheel_lib/te-wheel-lib.json')
assert names.contains('META-INF/te-wheel/wheel_lib/libtransformer_engine.so')
assert names.contains('META-INF/te-wheel/wheel_lib/libnccl_ep.so')
assert names.contains('META-INF/te-wheel/wheel_lib/nccl_ep/include/nccl_ep.h')
assert zip.entries().collect { it.timeLocal.toString() }.toSet() == ['2026-01-01T00:00'] as Set
zip.close()

// install published it with its classifier, and the application resolved it from there.
def installed = new File(localRepositoryPath, 'dev/tewheel/it/te-natives/2.9.0/te-natives-2.9.0-linux-x86_64-cu12.jar')
assert installed.isFile() : "not installed: $installed"

// The application found the bundle on the class path, extracted it and loaded TE and NCCL EP from it.
def cache = basedir.toPath().resolve('app/target/te-cache')
assert log =~ /app: bundle ${java.util.regex.Pattern.quote(cache.toString())}\/\S+/
assert log.contains('app: searched class path resource META-INF/te-wheel/wheel_lib: USED, extracted now')
assert log.contains('app: NCCL EP available: true (available)')
assert log =~ /app: loaded libtransformer_engine.so from ${java.util.regex.Pattern.quote(cache.toString())}/
assert log.contains('app: NCCL EP 0.1.0 from libnccl_ep.so')
