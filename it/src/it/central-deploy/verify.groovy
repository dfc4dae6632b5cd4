// The release build of the copy in reactor/ (setup.groovy): `-Prelease deploy` of the published modules, as
// docs/release.md runs it, into the file repository repo/, signed with the throwaway key. Then, for each published
// module, every file Maven Central requires: the POM, the jar (or plugin jar), -sources.jar and -javadoc.jar (a POM
// alone for pom packaging), each with its .asc signature (checked with gpg) and .md5/.sha1 checksums (checked
// against the bytes); the POM's name, description, url, licenses, developers and scm, inherited from
// the parent as Central reads them; META-INF/LICENSE in the jars; no module that is not published. Last, each jar
// equals, byte for byte, the one the outer build made from the same sources in another folder at another time:
// the build is reproducible.
import java.nio.file.*
import java.security.MessageDigest
import java.util.concurrent.TimeUnit
import java.util.zip.ZipFile

def root = Paths.get(projectRoot)
def base = basedir.toPath()
def copy = base.resolve('reactor')
def repo = base.resolve('repo')
def gnupg = base.resolve('gnupg')
def modules = evaluate(new File(basedir, 'modules.groovy'))(root)
def published = modules.findAll { it.published }
def version = new groovy.xml.XmlSlurper().parse(root.resolve('pom.xml').toFile()).version.text()
assert published*.artifactId.containsAll(['te-wheel-parent', 'te-wheel-json', 'te-wheel-elf', 'te-wheel-bundle',
    'te-wheel-core', 'te-maven-plugin', 'te-runtime'])

def run = { List<String> command, Path log ->
  def pb = new ProcessBuilder(command).directory(base.toFile()).redirectErrorStream(true).redirectOutput(log.toFile())
  pb.environment().put('GNUPGHOME', gnupg.toString())
  def p = pb.start()
  if (!p.waitFor(600, TimeUnit.SECONDS)) {
    p.destroyForcibly()
    assert false : "${command[0]} ran past 10 minutes; its log: ${log}"
  }
  p.exitValue()
}

def mvn = Paths.get(System.getProperty('maven.home'), 'bin', 'mvn').toString()
def log = base.resolve('release-build.log')
def started = System.nanoTime()
// The release build resolves as a user's `-Prelease deploy` does, from the remote repositories of the user's settings
// (online unless the outer build is offline), with two local repositories: this IT's own, where the invoker
// installed te-wheel's modules (the unpublished ones among them, e.g. the stand-ins' jar) and where whatever is
// missing is downloaded, and, read-only behind it, the outer build's (Maven 3.9's maven.repo.local.tail). The
// release profile's plugins (sources, javadoc, gpg) are never needed by the outer build, so a mirror of its local
// repository alone would miss them when that repository starts empty (`-Dmaven.repo.local=<empty folder>`).
def command = [mvn, '-B', '-Dmaven.repo.local=' + localRepositoryPath, '-Dmaven.repo.local.tail=' + buildRepository,
    '-f', copy.resolve('pom.xml').toString(), '-pl', published.collect { ':' + it.artifactId }.join(','),
    '-Prelease', 'deploy', '-DaltDeploymentRepository=central-deploy-it::' + repo.toUri(),
    '-Dgpg.keyname=' + Files.readString(base.resolve('key.txt')).trim(),
    // The outer build ran the tests; nothing here is installed into the shared repository.
    '-Dmaven.test.skip=true', '-Dmaven.install.skip=true', '-Dte.standIns=' + standIns]
if (buildOffline == 'offline=true') {
  command.add(1, '-o')
}
def status = run(command, log)
println "central-deploy: the release build took ${(System.nanoTime() - started).intdiv(1_000_000_000)} s"
run(['gpgconf', '--kill', 'gpg-agent'], base.resolve('gpgconf.log'))
def logText = Files.readString(log)
assert status == 0 : "the release build failed (${log}):\n" + logText.readLines().takeRight(60).join('\n')
assert !(logText =~ /(?m)^\[WARNING\] .*\.java:\d+: warning/) : 'javadoc warned:\n' +
    logText.readLines().findAll { it =~ /\.java:\d+: warning/ }.join('\n')

def hex = { String algorithm, byte[] bytes -> MessageDigest.getInstance(algorithm).digest(bytes).encodeHex().toString() }
def problems = []
def pomOf = [:]
published.each { m ->
  def dir = repo.resolve("dev/tewheel/${m.artifactId}/${version}")
  if (!Files.isDirectory(dir)) {
    problems << "${m.artifactId}: nothing deployed (${dir})"
    return
  }
  def metadata = new groovy.xml.XmlSlurper().parse(dir.resolve('maven-metadata.xml').toFile())
  def stamp = version.replace('-SNAPSHOT', '') + '-' + metadata.versioning.snapshot.timestamp.text() + '-' +
      metadata.versioning.snapshot.buildNumber.text()
  def prefix = "${m.artifactId}-${version.endsWith('-SNAPSHOT') ? stamp : version}"
  def required = m.packaging == 'pom' ? ['.pom'] : ['.pom', '.jar', '-sources.jar', '-javadoc.jar']
  required.each { suffix ->
    def file = dir.resolve(prefix + suffix)
    [file, dir.resolve(prefix + suffix + '.asc')].each { f ->
      if (!Files.isRegularFile(f)) {
        problems << "${m.artifactId}: missing ${f.fileName}"
        return
      }
      if (f.fileName.toString().endsWith('.asc')) {
        return // Central wants no checksums of signatures (Maven's resolver writes none).
      }
      def bytes = Files.readAllBytes(f)
      ['md5': 'MD5', 'sha1': 'SHA-1'].each { ext, algorithm ->
        def sum = f.resolveSibling(f.fileName.toString() + '.' + ext)
        if (!Files.isRegularFile(sum)) {
          problems << "${m.artifactId}: missing ${sum.fileName}"
        } else if (Files.readString(sum).trim() != hex(algorithm, bytes)) {
          problems << "${m.artifactId}: ${sum.fileName} does not match ${f.fileName}"
        }
      }
    }
    if (Files.isRegularFile(file) && Files.isRegularFile(dir.resolve(prefix + suffix + '.asc'))) {
      def verify = run(['gpg', '--batch', '--verify', dir.resolve(prefix + suffix + '.asc').toString(), file.toString()],
          base.resolve('gpg-verify.log'))
      if (verify != 0) {
        problems << "${m.artifactId}: gpg --verify ${prefix}${suffix}.asc failed: " + Files.readString(base.resolve('gpg-verify.log'))
      }
    }
    if (suffix.endsWith('.jar') && Files.isRegularFile(file)) {
      new ZipFile(file.toFile()).withCloseable { zip ->
        if (suffix != '-javadoc.jar' && zip.getEntry('META-INF/LICENSE') == null) {
          problems << "${m.artifactId}: ${file.fileName} has no META-INF/LICENSE"
        }
        if (suffix == '-javadoc.jar' && zip.getEntry('index.html') == null) {
          problems << "${m.artifactId}: ${file.fileName} has no index.html"
        }
      }
    }
  }
  pomOf[m.artifactId] = dir.resolve(prefix + '.pom')
}

// The POM elements Central requires, each from the POM or else its parent's, as Maven inherits them: the parent
// keeps Maven from appending each artifactId to url and scm (child.*.inherit.append.path="false").
def parentPom = new groovy.xml.XmlSlurper().parse(pomOf['te-wheel-parent'].toFile())
assert parentPom.'@child.project.url.inherit.append.path'.text() == 'false'
['connection', 'developerConnection', 'url'].each { assert parentPom.scm."@child.scm.${it}.inherit.append.path".text() == 'false' }
pomOf.each { artifactId, path ->
  def pom = new groovy.xml.XmlSlurper().parse(path.toFile())
  def value = { String element -> pom."${element}".size() > 0 ? pom."${element}" : parentPom."${element}" }
  ['name', 'description', 'url'].each { e ->
    if (value(e).text().isBlank()) { problems << "${artifactId}: no <${e}>" }
  }
  if (pom.name.text().isBlank()) { problems << "${artifactId}: no <name> of its own" }
  if (pom.description.text().isBlank()) { problems << "${artifactId}: no <description> of its own" }
  def license = value('licenses').license
  if (license.size() == 0 || license.name.text().isBlank() || license.url.text().isBlank()) {
    problems << "${artifactId}: no license with a name and url"
  } else if (license.name.text() != 'Apache-2.0') {
    problems << "${artifactId}: license ${license.name.text()}, not Apache-2.0"
  }
  if (value('developers').developer.name.text().isBlank()) { problems << "${artifactId}: no developer with a name" }
  def scm = value('scm')
  if (scm.url.text().isBlank() || scm.connection.text().isBlank()) { problems << "${artifactId}: no scm url and connection" }
  if (value('issueManagement').url.text().isBlank()) { problems << "${artifactId}: no issueManagement url" }
}

// Nothing else is deployed (beside the artifact folders: the group's metadata, the plugin prefix te).
def deployed = Files.list(repo.resolve('dev/tewheel')).withCloseable { s ->
  s.filter { Files.isDirectory(it) }.map { it.fileName.toString() }.sorted().toList()
}
if (deployed != published*.artifactId.sort()) {
  problems << "deployed ${deployed}, but the published modules are ${published*.artifactId.sort()}"
}

// Reproducible: the outer build's jars, made in another folder earlier, are the same bytes.
published.findAll { it.packaging != 'pom' }.each { m ->
  def outer = root.resolve(m.dir).resolve("target/${m.artifactId}-${version}.jar")
  def released = pomOf[m.artifactId]?.resolveSibling(pomOf[m.artifactId].fileName.toString().replace('.pom', '.jar'))
  if (released != null && Files.isRegularFile(outer) && Files.mismatch(outer, released) != -1) {
    problems << "${m.artifactId}: the jar differs from the outer build's ${outer} (not reproducible)"
  }
  if (!Files.isRegularFile(outer)) { problems << "${m.artifactId}: no outer build jar ${outer} to compare" }
}

assert problems.isEmpty() : "not ready for Maven Central:\n" + problems.join('\n')
println "central-deploy: ${published.size()} published modules, every required file present, signed and summed; jars reproducible"
true
