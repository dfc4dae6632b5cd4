// Assemble once, then start a second assemble of a 1 GiB library in a Maven of its own and SIGKILL it mid-copy:
// no finally block or shutdown hook runs. The previous tree must be untouched; the invoker's own build is the next run.
import java.nio.file.*
import java.util.concurrent.TimeUnit

def base = basedir.toPath()
def wheelLib = base.resolve('target/wheel/transformer_engine/wheel_lib')
def mvn = Paths.get(System.getProperty('maven.home'), 'bin', 'mvn').toString()

// The invoker's own settings: the isolated repository, filled only from the build's local repository.
def settings = base.resolve('child-settings.xml')
def url = Paths.get(buildRepository).toUri().toString()
Files.writeString(settings, """<settings><mirrors><mirror><id>local.build.repository</id><mirrorOf>*</mirrorOf>
<url>${url}</url></mirror></mirrors><profiles><profile><id>it-repo</id>
<repositories><repository><id>local.central</id><url>${url}</url></repository></repositories>
<pluginRepositories><pluginRepository><id>local.central</id><url>${url}</url></pluginRepository></pluginRepositories>
</profile></profiles><activeProfiles><activeProfile>it-repo</activeProfile></activeProfiles></settings>""")

def maven = { List<String> args, String logName ->
  def command = [mvn, '-B', '-s', settings.toString(), '-Dmaven.repo.local=' + localRepositoryPath] + args
  new ProcessBuilder(command).directory(basedir).redirectErrorStream(true)
      .redirectOutput(base.resolve(logName).toFile()).start()
}

def first = maven(['te:assemble-wheel-lib'], 'first.log')
assert first.waitFor(300, TimeUnit.SECONDS) && first.exitValue() == 0 : base.resolve('first.log').toFile().text
def manifest = Files.readAllBytes(wheelLib.resolve('te-wheel-lib.json'))
def te = Files.readAllBytes(wheelLib.resolve('libtransformer_engine.so'))

def big = Files.createDirectories(base.resolve('big')).resolve('libtransformer_engine.so')
Files.copy(Paths.get(standIns, 'te/libtransformer_engine.so'), big)
new RandomAccessFile(big.toFile(), 'rw').withCloseable { it.setLength(1L << 30) }

def killed = maven(['-Pbig-te', 'te:assemble-wheel-lib'], 'killed.log')
def parent = wheelLib.parent
Path partial = null
for (int i = 0; i < 1200 && partial == null && killed.isAlive(); i++) {
  def staging = parent.toFile().listFiles().find { it.name.startsWith('.wheel_lib.staging-') }
  def file = staging == null ? null : new File(staging, 'libtransformer_engine.so')
  if (file != null && file.length() > 0) {
    partial = file.toPath()
  } else {
    Thread.sleep(50)
  }
}
assert partial != null : 'the second run never started copying: ' + base.resolve('killed.log').toFile().text
killed.destroyForcibly() // SIGKILL to the JVM (bin/mvn execs java)
assert killed.waitFor(60, TimeUnit.SECONDS)
assert Files.size(partial) < (1L << 30) : 'killed before the copy finished'

assert Arrays.equals(manifest, Files.readAllBytes(wheelLib.resolve('te-wheel-lib.json'))) : 'previous manifest survives'
assert Arrays.equals(te, Files.readAllBytes(wheelLib.resolve('libtransformer_engine.so'))) : 'previous library survives'
Files.writeString(base.resolve('partial.txt'), partial.parent.fileName.toString())
// A pre-build script must answer true for the build to run.
true
