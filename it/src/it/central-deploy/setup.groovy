// reactor/: this reactor as a release engineer's checkout has it, without build outputs and tests: the root files,
// every module's POM (Maven reads them all), and all but src/test of each published module. gnupg/: a throwaway
// signing key, made with gpg (which the release needs, so a machine without it fails here, saying so).
import java.nio.file.*
import java.util.concurrent.TimeUnit

def root = Paths.get(projectRoot)
def copy = basedir.toPath().resolve('reactor')
def modules = evaluate(new File(basedir, 'modules.groovy'))(root)

def copyTree = { Path from, Path to, Closure skip ->
  Files.walk(from).withCloseable { walk ->
    walk.filter { !skip(from.relativize(it)) }.forEach { p ->
      def target = to.resolve(from.relativize(p).toString())
      if (Files.isDirectory(p)) {
        Files.createDirectories(target)
      } else {
        Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING)
      }
    }
  }
}
Files.createDirectories(copy)
['pom.xml', 'LICENSE'].each { Files.copy(root.resolve(it), copy.resolve(it)) }
// .mvn marks the copy as the multi-module root (maven.multiModuleProjectDirectory); core and plugin ship parts of docs/.
copyTree(root.resolve('.mvn'), copy.resolve('.mvn')) { false }
copyTree(root.resolve('docs'), copy.resolve('docs')) { false }
modules.findAll { it.dir != '.' }.each { m ->
  def to = Files.createDirectories(copy.resolve(m.dir))
  if (m.published) {
    copyTree(root.resolve(m.dir), to) { Path rel -> rel.startsWith('target') || rel.startsWith('src/test') }
  } else {
    Files.copy(root.resolve(m.dir).resolve('pom.xml'), to.resolve('pom.xml'))
  }
}

def gnupg = basedir.toPath().resolve('gnupg')
Files.createDirectories(gnupg)
gnupg.toFile().setReadable(false, false); gnupg.toFile().setReadable(true, true)
gnupg.toFile().setExecutable(false, false); gnupg.toFile().setExecutable(true, true)
gnupg.toFile().setWritable(false, false); gnupg.toFile().setWritable(true, true)
def gpg = { List<String> args ->
  def pb = new ProcessBuilder(['gpg', '--batch', '--homedir', gnupg.toString()] + args).redirectErrorStream(true)
  def p
  try {
    p = pb.start()
  } catch (IOException e) {
    throw new AssertionError("gpg is not installed: the release profile signs with it (docs/release.md). " +
        "Install Debian's gpg and gpg-agent.", e)
  }
  def out = p.inputStream.text
  assert p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0 : "gpg ${args}: ${out}"
  out
}
gpg(['--passphrase', '', '--pinentry-mode', 'loopback', '--quick-generate-key',
     'te-wheel central-deploy IT <it@tewheel.invalid>', 'ed25519', 'sign', '1d'])
def fingerprint = gpg(['--with-colons', '--list-secret-keys']).readLines().find { it.startsWith('fpr:') }.split(':')[9]
Files.writeString(basedir.toPath().resolve('key.txt'), fingerprint)
true
