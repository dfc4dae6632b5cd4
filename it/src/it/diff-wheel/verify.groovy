import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
// Fails on the removed export, in both runs, and reports the rest.
assert (log =~ /DIFF-EXPORTS\s+ERROR\s+.*libtransformer_engine\.so\s+found 1 exported symbol removed: nvte_set_tensor_param(?!_v2)/).size() == 2
assert (log =~ /DIFF-EXPORTS\s+INFO\s+.*found 1 exported symbol added: nvte_set_tensor_param_v2/).size() == 2
assert (log =~ /DIFF-NEEDED\s+WARNING\s+.*found a new DT_NEEDED libm\.so\.6/).size() == 2
assert (log =~ /DIFF-GPU-ARCHS\s+WARNING\s+.*found CUDA code dropped: sm_120/).size() == 2
assert (log =~ /DIFF-FILES\s+INFO\s+.*libtransformer_engine\.so\s+found changed content/).size() == 2
assert (log =~ /FAILED: 1 error, 2 warnings, 0 suppressed; 10 checks on wheel_lib transformer_engine_cu12-2\.10\.0-py3-none-manylinux_2_34_x86_64\.whl!transformer_engine\/wheel_lib against wheel_lib transformer[-_]engine[-_]cu12-2\.9\.0/).size() >= 2
// The second run resolved the baseline through Maven's repository system.
assert log.contains('transformer-engine-cu12-2.9.0.whl!transformer_engine/wheel_lib')

for (run in ['file', 'artifact']) {
  def report = new JsonSlurper().parse(new File(basedir, "target/${run}/report.json"))
  assert report.schema == 'te-wheel-diff-report/1'
  assert !report.passed
  assert report.counts.error == 1
  assert report.findings.find { it.id == 'DIFF-EXPORTS' && it.severity == 'error' }.found.contains('nvte_set_tensor_param')
  assert report.files.find { it.path == 'libtransformer_engine.so' }.change == 'changed'
  assert report.totalSize.baseline > 0
  def junit = new File(basedir, "target/${run}/TEST-te-diff-wheel.xml").text
  assert junit.contains('<testsuite name="te:diff-wheel"')
  assert junit.contains('<failure type="ERROR"')
}
true
