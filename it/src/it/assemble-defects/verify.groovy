// Each defect is reported by its check, with the file, what was found, what was expected and the fix.
import java.nio.file.*

def log = new File(basedir, 'build.log').text
def expected = [
  '[ERROR TE-BIND-NOW] ' + standIns + '/defects/te-lazy/libtransformer_engine.so: found lazy binding',
  'link libtransformer_engine.so with -Wl,-z,now',
  '[ERROR TE-FORBIDDEN-NEEDED] ' + standIns + '/defects/te-needs-ep/libtransformer_engine.so: found DT_NEEDED libnccl_ep.so.0',
  '[ERROR TE-UNDEFINED-NCCL-EP] ' + standIns + '/defects/te-undefined-ep/libtransformer_engine.so: found undefined symbols ncclEpCombine, ncclEpCreateGroup, ncclEpDispatch, ncclEpGetVersion, ncclEpGroupDestroy, ncclEpHandleDestroy, ncclEpHandleMemSize, ncclEpInitHandle, ncclEpUpdateHandle',
  '[ERROR TE-FORBIDDEN-NEEDED] ' + standIns + '/defects/te-needs-cuda/libtransformer_engine.so: found DT_NEEDED libcuda.so.1',
  '[ERROR EP-SONAME] ' + standIns + '/defects/ep-major1/lib/libnccl_ep.so.1.0.0: found SONAME libnccl_ep.so.1; expected SONAME libnccl_ep.so.0',
  '[ERROR EP-NO-RUNPATH] ' + standIns + '/defects/ep-runpath/lib/libnccl_ep.so.0.1.0: found RUNPATH /opt/nccl/lib',
  '[ERROR HEADERS-SELF-CONTAINED] ' + standIns + '/defects/include-missing/include/nccl_ep/device/ll_ep.cuh:9: found #include "ll_ep_smem.cuh" that resolves nowhere',
  '[ERROR ELF-ONE-MACHINE] ' + standIns + '/nccl_ep/lib/libnccl_ep.so.0.1.0: found x86_64',
]
expected.each { assert log.contains(it) : "build.log lacks: $it" }
assert log.count('BUILD FAILURE') == 8
assert !Files.exists(basedir.toPath().resolve('target/wheel')) : 'a failed run left output'
// Each stopped run still wrote its reports (the last run's are there): the verdict that stopped it, in every form.
def reports = basedir.toPath().resolve('target/te-assemble')
def report = new groovy.json.JsonSlurper().parse(reports.resolve('report.json').toFile())
assert report.schema == 'te-wheel-assemble-report/1'
assert !report.passed
assert report.findings.find { it.id == 'ELF-ONE-MACHINE' && it.severity == 'error' }
assert reports.resolve('assemble.sarif').toFile().text.contains('"ruleId": "ELF-ONE-MACHINE"')
assert reports.resolve('TEST-te-assemble-wheel-lib.xml').toFile().text.contains('<testsuite name="te:assemble-wheel-lib"')
assert log.contains('reports: ' + reports.resolve('report.json'))
