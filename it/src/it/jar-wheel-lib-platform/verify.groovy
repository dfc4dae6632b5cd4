import java.util.regex.Pattern
import java.util.zip.ZipFile

def log = new File(basedir, 'build.log').text
def standIns = new File(basedir, 'app/pom.xml').text =~ /<standIns>([^<]+)<\/standIns>/
def stand = standIns[0][1]
def q = { Pattern.quote(it.toString()) }

// Two classifier jars, each recording its CUDA variant, and one -platform POM that depends on both.
['12', '13'].each { n ->
  def jar = new File(basedir, "natives/target/te-wheel-lib-2.9.0-linux-x86_64-cu${n}.jar")
  assert jar.isFile() : "no $jar"
  def zip = new ZipFile(jar)
  def mf = new java.util.jar.Manifest(zip.getInputStream(zip.getEntry('META-INF/MANIFEST.MF')))
  assert mf.mainAttributes.getValue('TE-Wheel-Lib-CUDA-Major') == n
  zip.close()
  assert new File(localRepositoryPath, "dev/tewheel/it/te-wheel-lib/2.9.0/te-wheel-lib-2.9.0-linux-x86_64-cu${n}.jar").isFile()
}
def platform = new File(localRepositoryPath,
    'dev/tewheel/it/te-wheel-lib-platform/2.9.0/te-wheel-lib-platform-2.9.0.pom').text
assert platform.contains('<packaging>pom</packaging>')
assert (platform =~ /<artifactId>(te-wheel-lib)<\/artifactId>\s*<version>[^<]+<\/version>\s*<classifier>([^<]+)<\/classifier>/)
    .collect { it[1] + ':' + it[2] } == ['te-wheel-lib:linux-x86_64-cu12', 'te-wheel-lib:linux-x86_64-cu13']
assert !new File(localRepositoryPath, 'dev/tewheel/it/te-wheel-lib-platform/2.9.0/te-wheel-lib-platform-2.9.0.jar').exists()

def jar = { n -> /\S*te-wheel-lib-2\.9\.0-linux-x86_64-cu${n}\.jar/ }
def bundles = /; bundles: ${jar(12)} \(cu12, the jar's TE-Wheel-Lib-CUDA-Major\); ${jar(13)} \(cu13, the jar's TE-Wheel-Lib-CUDA-Major\)/

// The stand-in driver says CUDA 12.9: a cu13 runtime cannot run on it.
assert log =~ /app\[driver\]: CUDA variant of 2 class-path bundles: USED ${jar(12)}\n/
assert log =~ /app\[driver\]: because cu12: the driver supports CUDA 12\.9 \(cuDriverGetVersion of ${q(stand)}\/cuda\/libcuda\.so\.1\), the newest variant it runs; (no libcudart\.so\.N of a bundle's variant is found|libcudart\.so\.13 is found at \S+)${bundles}\n/
assert log =~ /app\[driver\]: loaded libtransformer_engine\.so from ${q(new File(basedir, 'app/target/te-cache'))}\/\S+/

// No driver, the stand-in libcudart.so.13 found: cu13.
assert log =~ /app\[cudart\]: CUDA variant of 2 class-path bundles: USED ${jar(13)}\n/
assert log =~ /app\[cudart\]: because cu13: libcudart\.so\.13 is found at ${q(stand)}\/cudart\/libcudart\.so\.13 and no CUDA driver answered \(libcuda\.so\.1 not found\)${bundles}\n/

// The property over the driver.
assert log =~ /app\[property\]: CUDA variant of 2 class-path bundles: USED ${jar(13)}\n/
assert log =~ /app\[property\]: because cu13: system property te\.cudaVariant${bundles}\n/

// Without the stand-ins: the machine's own CUDA decides. ldconfig's cache is where the loader search finds a
// libcudart.so.N outside LD_LIBRARY_PATH; with none there, nothing decides and te-runtime warns.
def cached = ['ldconfig', '-p'].execute().text.readLines().collect { it =~ /^\s*libcudart\.so\.(\d+) \(libc6,x86-64\) => (\S+)/ }
    .findAll { it.find() }.collectEntries { [(it.group(1) as int): it.group(2)] }.findAll { it.key in [12, 13] }
if (cached) {
  def newest = cached.keySet().max()
  assert log =~ /app\[none\]: CUDA variant of 2 class-path bundles: USED ${jar(newest)}\n/
  assert log =~ /app\[none\]: because cu${newest}: libcudart\.so\.${newest} is found at ${q(cached[newest])} and no CUDA driver answered \(libcuda\.so\.1 not found\)${bundles}\n/
} else {
  assert log =~ /app\[none\]: CUDA variant of 2 class-path bundles: USED ${jar(12)}\n/
  assert log =~ /app\[none\]: because the first on the class path; nothing says which CUDA runtime would load${bundles}; warning: nothing says which CUDA runtime would load \(no CUDA driver answered \(libcuda\.so\.1 not found\); no libcudart\.so\.N of a bundle's variant is found\), so the first class-path bundle is used, ${jar(12)}\. Set -Dte\.cudaVariant=<major> to choose\n/
}
