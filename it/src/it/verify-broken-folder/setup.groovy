// A wheel_lib laid out by hand the way a plain recursive copy does it: NCCL EP's library once per symlink,
// a lazily bound TE library, a header missing, no manifest.
import java.nio.file.*

def out = Files.createDirectories(basedir.toPath().resolve('wheel_lib'))
Files.copy(Paths.get(standIns, 'defects/te-lazy/libtransformer_engine.so'), out.resolve('libtransformer_engine.so'))
['libnccl_ep.so', 'libnccl_ep.so.0', 'libnccl_ep.so.0.1.0'].each {
  Files.copy(Paths.get(standIns, 'nccl_ep/lib/libnccl_ep.so.0.1.0'), out.resolve(it))
}
def copy = ['cp', '-r', standIns + '/defects/include-missing/include', out.resolve('nccl_ep').toString()]
Files.createDirectories(out.resolve('nccl_ep'))
assert copy.execute().waitFor() == 0
// A pre-build script must answer true for the build to run.
true
