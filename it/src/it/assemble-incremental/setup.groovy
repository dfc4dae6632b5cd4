// A second build of the TE library: same bytes, newer file, as a rebuild would leave it.
import java.nio.file.*
import java.nio.file.attribute.FileTime

def v2 = Files.createDirectories(basedir.toPath().resolve('te-v2'))
def copy = v2.resolve('libtransformer_engine.so')
Files.copy(Paths.get(standIns, 'te/libtransformer_engine.so'), copy)
Files.setLastModifiedTime(copy, FileTime.fromMillis(System.currentTimeMillis() + 60_000))
// A pre-build script must answer true for the build to run.
true
