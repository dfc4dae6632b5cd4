import java.nio.file.*

def log = new File(basedir, 'build.log').text
assert log.contains('symlink ' + basedir + '/ep-home/lib/libnccl_ep.so.0 -> libnccl_ep.so.0.1.0 dangles')
assert !Files.exists(basedir.toPath().resolve('target/wheel'))
