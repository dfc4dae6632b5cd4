// An empty folder to run Maven in, and a good wheel of the stand-ins beside it, as a download would leave it.
import java.nio.file.*
import java.security.MessageDigest
import java.util.zip.*

Files.createDirectories(basedir.toPath().resolve('release'))
def downloads = Files.createDirectories(basedir.toPath().resolve('downloads'))
def prefix = 'transformer_engine/wheel_lib/'
def files = [:] as LinkedHashMap
files['transformer_engine/__init__.py'] = ''.bytes
files[prefix + 'libtransformer_engine.so'] = Files.readAllBytes(Paths.get(standIns, 'te/libtransformer_engine.so'))
files[prefix + 'libnccl_ep.so'] = Files.readAllBytes(Paths.get(standIns, 'nccl_ep/lib/libnccl_ep.so.0.1.0'))
def include = Paths.get(standIns, 'nccl_ep/include')
Files.walk(include).filter { Files.isRegularFile(it) && !it.fileName.toString().startsWith('.') }.sorted().each {
  files[prefix + 'nccl_ep/include/' + include.relativize(it).toString()] = Files.readAllBytes(it)
}
def digest = { byte[] b ->
  'sha256=' + Base64.urlEncoder.withoutPadding().encodeToString(MessageDigest.getInstance('SHA-256').digest(b))
}
def distInfo = 'transformer_engine_cu12-2.9.0.dist-info/'
files[distInfo + 'METADATA'] = 'Metadata-Version: 2.1\nName: transformer_engine_cu12\nVersion: 2.9.0\n'.bytes
files[distInfo + 'WHEEL'] = 'Wheel-Version: 1.0\nGenerator: it\nRoot-Is-Purelib: false\nTag: py3-none-manylinux_2_34_x86_64\n'.bytes
def rows = files.collect { k, v -> "${k},${digest(v)},${v.length}" }
rows << (distInfo + 'RECORD,,')
files[distInfo + 'RECORD'] = (rows.join('\n') + '\n').bytes
def wheel = downloads.resolve('transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl')
new ZipOutputStream(Files.newOutputStream(wheel)).withCloseable { zip ->
  files.each { k, v ->
    zip.putNextEntry(new ZipEntry(k))
    zip.write(v)
    zip.closeEntry()
  }
}
true
