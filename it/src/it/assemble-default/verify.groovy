// The default layout, one real EP library, the headers, the manifest; a summary in the log.
import java.nio.file.*

def wheelLib = basedir.toPath().resolve('target/wheel/transformer_engine/wheel_lib')
def log = new File(basedir, 'build.log').text
['libtransformer_engine.so', 'libnccl_ep.so', 'nccl_ep/include/nccl_ep.h', 'nccl_ep/include/nccl_ep/config.h',
 'nccl_ep/include/nccl_ep/device/ll_ep.cuh', 'te-wheel-lib.json'].each {
  assert Files.isRegularFile(wheelLib.resolve(it)) : "missing $it"
}
assert !Files.isSymbolicLink(wheelLib.resolve('libnccl_ep.so'))
assert Files.size(wheelLib.resolve('libnccl_ep.so')) == Files.size(Paths.get(standIns, 'nccl_ep/lib/libnccl_ep.so.0.1.0'))
assert wheelLib.toFile().list().sort() == ['libnccl_ep.so', 'libtransformer_engine.so', 'nccl_ep', 'te-wheel-lib.json']
def manifest = wheelLib.resolve('te-wheel-lib.json').toFile().text
assert manifest.contains('"soname": "libnccl_ep.so.0"')
assert manifest.contains('"version": "0.1.0"')
assert log.contains('wheel_lib: ' + wheelLib)
assert log =~ /15 files: 15 copied \([\d,]+ bytes\), 0 up to date, 0 removed/
assert Files.getLastModifiedTime(wheelLib.resolve('libnccl_ep.so')).toInstant().toString() == '2026-01-01T00:00:00Z'
// The gate's reports, beside verify's convention (target/te-<kind>), never inside the wheel_lib they judge.
def reports = basedir.toPath().resolve('target/te-assemble')
def report = new groovy.json.JsonSlurper().parse(reports.resolve('report.json').toFile())
assert report.schema == 'te-wheel-assemble-report/1'
assert report.passed
['TEST-te-assemble-wheel-lib.xml', 'assemble.sarif'].each { assert Files.isRegularFile(reports.resolve(it)) : "missing $it" }
assert log.contains('reports: ' + reports.resolve('report.json'))
