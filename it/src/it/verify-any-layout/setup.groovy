// An empty folder to run Maven in, and beside it a wheel that is not TE's: a Python package whose extension module
// (the TE stand-in, renamed) NEEDS libnccl.so.2 of the nvidia-nccl wheel, GLIBC_2.34 and GLIBCXX_3.4.29.
import java.nio.file.*
import java.security.MessageDigest
import java.util.zip.*

Files.createDirectories(basedir.toPath().resolve('release'))
def downloads = Files.createDirectories(basedir.toPath().resolve('downloads'))
def files = [:] as LinkedHashMap
files['nvdemo/__init__.py'] = 'from ._native import *\n'.bytes
files['nvdemo/_native.cpython-312-x86_64-linux-gnu.so'] = Files.readAllBytes(Paths.get(standIns, 'te/libtransformer_engine.so'))
def digest = { byte[] b ->
  'sha256=' + Base64.urlEncoder.withoutPadding().encodeToString(MessageDigest.getInstance('SHA-256').digest(b))
}
def distInfo = 'nvdemo-1.0.dist-info/'
files[distInfo + 'METADATA'] = 'Metadata-Version: 2.1\nName: nvdemo\nVersion: 1.0\n'.bytes
files[distInfo + 'WHEEL'] = 'Wheel-Version: 1.0\nGenerator: it\nRoot-Is-Purelib: false\nTag: cp312-cp312-manylinux_2_34_x86_64\n'.bytes
def rows = files.collect { k, v -> "${k},${digest(v)},${v.length}" }
rows << (distInfo + 'RECORD,,')
files[distInfo + 'RECORD'] = (rows.join('\n') + '\n').bytes
def wheel = downloads.resolve('nvdemo-1.0-cp312-cp312-manylinux_2_34_x86_64.whl')
new ZipOutputStream(Files.newOutputStream(wheel)).withCloseable { zip ->
  files.each { k, v ->
    zip.putNextEntry(new ZipEntry(k))
    zip.write(v)
    zip.closeEntry()
  }
}
true
