// Two wheels made here, as a release pipeline would hand them over: a good one of the stand-ins, and a hostile one
// (zip-slip and absolute names, a RECORD that lies about a library).
import java.nio.file.*
import java.security.MessageDigest
import java.util.zip.*

def dist = Files.createDirectories(basedir.toPath().resolve('dist'))
def prefix = 'transformer_engine/wheel_lib/'
def files = [:] as LinkedHashMap
files[prefix + 'libtransformer_engine.so'] = Files.readAllBytes(Paths.get(standIns, 'te/libtransformer_engine.so'))
files[prefix + 'libnccl_ep.so'] = Files.readAllBytes(Paths.get(standIns, 'nccl_ep/lib/libnccl_ep.so.0.1.0'))
def include = Paths.get(standIns, 'nccl_ep/include')
Files.walk(include).filter { Files.isRegularFile(it) && !it.fileName.toString().startsWith('.') }.sorted().each {
  files[prefix + 'nccl_ep/include/' + include.relativize(it).toString()] = Files.readAllBytes(it)
}

def digest = { byte[] b ->
  'sha256=' + Base64.urlEncoder.withoutPadding().encodeToString(MessageDigest.getInstance('SHA-256').digest(b))
}
def write = { String name, Map entries, Closure<String> record ->
  def distInfo = 'transformer_engine_cu12-2.9.0.dist-info/'
  def all = new LinkedHashMap(entries)
  all[distInfo + 'METADATA'] = 'Metadata-Version: 2.1\nName: transformer_engine_cu12\nVersion: 2.9.0\n'.bytes
  all[distInfo + 'WHEEL'] = 'Wheel-Version: 1.0\nGenerator: it\nRoot-Is-Purelib: false\nTag: py3-none-manylinux_2_34_x86_64\n'.bytes
  def rows = all.collect { k, v -> "${k},${digest(v)},${v.length}" }
  rows << (distInfo + 'RECORD,,')
  all[distInfo + 'RECORD'] = record(rows.join('\n') + '\n').bytes
  new ZipOutputStream(Files.newOutputStream(dist.resolve(name))).withCloseable { zip ->
    all.each { k, v ->
      zip.putNextEntry(new ZipEntry(k))
      zip.write(v)
      zip.closeEntry()
    }
  }
}
write('transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl', files) { it }
def hostile = new LinkedHashMap(files)
hostile['../../evil.so'] = 'pwned'.bytes
hostile['/etc/evil.conf'] = 'pwned'.bytes
Files.createDirectories(dist.resolve('hostile'))
write('hostile/transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl', hostile) {
  it.replaceFirst(/(libnccl_ep\.so,sha256=)[^,]+/, '$1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
}
true
