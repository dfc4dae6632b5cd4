// Two releases of a TE wheel: the stand-ins' NCCL EP and headers, and a TE library nvcc builds per release
// (gate-fixtures.mk: release 2 removes nvte_set_tensor_param, adds nvte_set_tensor_param_v2, needs libm.so.6, drops sm_120).
import java.nio.file.*
import java.security.MessageDigest
import java.util.zip.*

def make = ['make', '-s', '-f', gateFixturesMakefile, "OUT=${gateFixturesRoot}".toString(), 'release'].execute()
def makeOutput = new StringBuilder()
make.consumeProcessOutput(makeOutput, makeOutput)
assert make.waitFor() == 0 : "gate-fixtures.mk could not build the releases (needs nvcc and gcc):\n${makeOutput}"

def digest = { byte[] b ->
  'sha256=' + Base64.urlEncoder.withoutPadding().encodeToString(MessageDigest.getInstance('SHA-256').digest(b))
}
def wheel = { Path target, String version, int release ->
  def prefix = 'transformer_engine/wheel_lib/'
  def files = [:] as LinkedHashMap
  files[prefix + 'libtransformer_engine.so'] = Files.readAllBytes(Paths.get(gateFixturesRoot, "release/v${release}/libtransformer_engine.so"))
  files[prefix + 'libnccl_ep.so'] = Files.readAllBytes(Paths.get(standIns, 'nccl_ep/lib/libnccl_ep.so.0.1.0'))
  def include = Paths.get(standIns, 'nccl_ep/include')
  Files.walk(include).filter { Files.isRegularFile(it) && !it.fileName.toString().startsWith('.') }.sorted().each {
    files[prefix + 'nccl_ep/include/' + include.relativize(it).toString()] = Files.readAllBytes(it)
  }
  def distInfo = "transformer_engine_cu12-${version}.dist-info/"
  files[distInfo + 'METADATA'] = "Metadata-Version: 2.1\nName: transformer_engine_cu12\nVersion: ${version}\n".toString().bytes
  files[distInfo + 'WHEEL'] = 'Wheel-Version: 1.0\nGenerator: it\nRoot-Is-Purelib: false\nTag: py3-none-manylinux_2_34_x86_64\n'.bytes
  def rows = files.collect { k, v -> "${k},${digest(v)},${v.length}" }
  rows << (distInfo + 'RECORD,,')
  files[distInfo + 'RECORD'] = (rows.join('\n') + '\n').bytes
  Files.createDirectories(target.parent)
  new ZipOutputStream(Files.newOutputStream(target)).withCloseable { zip ->
    files.each { k, v ->
      zip.putNextEntry(new ZipEntry(k))
      zip.write(v)
      zip.closeEntry()
    }
  }
  target
}
def dist = basedir.toPath().resolve('dist')
def v1 = wheel(dist.resolve('v1/transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl'), '2.9.0', 1)
wheel(dist.resolve('v2/transformer_engine_cu12-2.10.0-py3-none-manylinux_2_34_x86_64.whl'), '2.10.0', 2)

// Release 1 as its deploy would have left it: the whl attached to org.example.te:transformer-engine-cu12:2.9.0.
def repo = basedir.toPath().resolve('../../local-repo').normalize()
def folder = Files.createDirectories(repo.resolve('org/example/te/transformer-engine-cu12/2.9.0'))
Files.copy(v1, folder.resolve('transformer-engine-cu12-2.9.0.whl'), StandardCopyOption.REPLACE_EXISTING)
Files.writeString(folder.resolve('transformer-engine-cu12-2.9.0.pom'), '''<project><modelVersion>4.0.0</modelVersion>
<groupId>org.example.te</groupId><artifactId>transformer-engine-cu12</artifactId><version>2.9.0</version>
<packaging>pom</packaging></project>
''')
true
