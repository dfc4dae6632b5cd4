// Shared by the ITs' setup scripts (loaded with evaluate, outside src/it so the invoker never runs it as a project):
// the one way they write a wheel, with a RECORD that hashes every entry, and the stand-ins' TE release content.
// Returns [write: { Path wheel, String distInfo, String name, String version, String tag, Map content -> },
//          teRelease: { String standIns -> Map of entry name to bytes }].
import java.nio.file.*
import java.security.MessageDigest
import java.util.zip.*

def digest = { byte[] b ->
  'sha256=' + Base64.urlEncoder.withoutPadding().encodeToString(MessageDigest.getInstance('SHA-256').digest(b))
}
def write = { Path wheel, String distInfo, String name, String version, String tag, Map<String, byte[]> content ->
  def files = new LinkedHashMap(content)
  files[distInfo + 'METADATA'] = "Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n".bytes
  files[distInfo + 'WHEEL'] = "Wheel-Version: 1.0\nGenerator: it\nRoot-Is-Purelib: false\nTag: ${tag}\n".bytes
  def rows = files.collect { k, v -> "${k},${digest(v)},${v.length}" }
  rows << (distInfo + 'RECORD,,')
  files[distInfo + 'RECORD'] = (rows.join('\n') + '\n').bytes
  new ZipOutputStream(Files.newOutputStream(wheel)).withCloseable { zip ->
    files.each { k, v ->
      zip.putNextEntry(new ZipEntry(k))
      zip.write(v)
      zip.closeEntry()
    }
  }
  wheel
}
def teRelease = { String standIns ->
  def prefix = 'transformer_engine/wheel_lib/'
  def files = [:] as LinkedHashMap
  files['transformer_engine/__init__.py'] = ''.bytes
  files[prefix + 'libtransformer_engine.so'] = Files.readAllBytes(Paths.get(standIns, 'te/libtransformer_engine.so'))
  files[prefix + 'libnccl_ep.so'] = Files.readAllBytes(Paths.get(standIns, 'nccl_ep/lib/libnccl_ep.so.0.1.0'))
  def include = Paths.get(standIns, 'nccl_ep/include')
  Files.walk(include).withCloseable { s ->
    s.filter { Files.isRegularFile(it) && !it.fileName.toString().startsWith('.') }.sorted().each {
      files[prefix + 'nccl_ep/include/' + include.relativize(it).toString()] = Files.readAllBytes(it)
    }
  }
  files
}
[write: write, teRelease: teRelease]
