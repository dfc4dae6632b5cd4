// The run after the kill removed what the killed run left, and left a complete tree.
import java.nio.file.*

def base = basedir.toPath()
def wheelLib = base.resolve('target/wheel/transformer_engine/wheel_lib')
def leftover = base.resolve('partial.txt').toFile().text
def log = new File(basedir, 'build.log').text
assert log.contains("removed ${wheelLib.parent.resolve(leftover)}, left by an interrupted run") : log
assert !wheelLib.parent.toFile().list().any { it.startsWith('.wheel_lib.') } : wheelLib.parent.toFile().list()
assert wheelLib.toFile().list().sort() == ['libnccl_ep.so', 'libtransformer_engine.so', 'nccl_ep', 'te-wheel-lib.json']
assert Files.size(wheelLib.resolve('libtransformer_engine.so')) == Files.size(Paths.get(standIns, 'te/libtransformer_engine.so'))
// Only the killed run's inputs changed nothing: the next run with the original inputs has nothing to copy.
assert log =~ /15 files: 0 copied \(0 bytes\), 15 up to date, 0 removed/ : log
