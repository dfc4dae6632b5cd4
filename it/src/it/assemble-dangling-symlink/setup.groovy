// An NCCL EP prefix whose lib/libnccl_ep.so.0 names a file that is not there.
import java.nio.file.*

def home = basedir.toPath().resolve('ep-home')
Files.createDirectories(home.resolve('lib'))
def copy = ['cp', '-r', standIns + '/nccl_ep/include', home.toString()].execute()
assert copy.waitFor() == 0
Files.createSymbolicLink(home.resolve('lib/libnccl_ep.so'), Paths.get('libnccl_ep.so.0'))
Files.createSymbolicLink(home.resolve('lib/libnccl_ep.so.0'), Paths.get('libnccl_ep.so.0.1.0'))
// A pre-build script must answer true for the build to run.
true
