// work/: the folder the documented commands run in, as a release engineer's download folder would be: the stand-ins'
// TE wheel under the two names the docs use, nvdemo, a wheel that is not TE's, auditwheel's cffi wheel and
// te-wheel's own pip wheel; stage/, the
// stand-ins' TE package as a build stages it for te-wheel pack. bin/mvn: Maven with the invoker's isolated repository
// and the pluginGroup docs/goals/verify-wheel-lib.md asks for; bin/te-wheel: the te-wheel jar with java -cp on the
// Java that runs Maven.
import java.nio.file.*

def work = Files.createDirectories(basedir.toPath().resolve('work'))
def wheels = evaluate(Paths.get(projectRoot, 'it/src/it-lib/wheels.groovy').toFile())
def writeWheel = wheels.write

def te = Files.readAllBytes(Paths.get(standIns, 'te/libtransformer_engine.so'))
def release = wheels.teRelease(standIns)
['manylinux_2_34_x86_64', 'manylinux_2_28_x86_64'].each { platform ->
  writeWheel(work.resolve("transformer_engine_cu12-2.9.0-py3-none-${platform}.whl"),
      'transformer_engine_cu12-2.9.0.dist-info/', 'transformer_engine_cu12', '2.9.0', "py3-none-${platform}", release)
}
writeWheel(work.resolve('nvdemo-1.0-cp312-cp312-manylinux_2_34_x86_64.whl'), 'nvdemo-1.0.dist-info/', 'nvdemo',
    '1.0', 'cp312-cp312-manylinux_2_34_x86_64',
    ['nvdemo/__init__.py': 'from ._native import *\n'.bytes, 'nvdemo/_native.cpython-312-x86_64-linux-gnu.so': te])

release.each { name, bytes ->
  def file = work.resolve('stage').resolve(name)
  Files.createDirectories(file.parent)
  Files.write(file, bytes)
}

// te-wheel's own pip wheel, which the CI lines of docs/cli.md install with pip --find-links.
Files.list(Paths.get(pipWheelDirectory)).withCloseable { s ->
  s.filter { it.fileName.toString().startsWith('te_wheel-') && it.fileName.toString().endsWith('.whl') }
      .forEach { Files.copy(it, work.resolve(it.fileName)) }
}

// auditwheel's cffi test wheel, as core's differential test keeps it (origin in that folder's ORIGIN.md).
Files.copy(Paths.get(projectRoot, 'core/src/test/resources/auditwheel-bundled-wheels/cffi-1.5.0-cp27-none-linux_x86_64.whl'),
    work.resolve('cffi-1.5.0-cp27-none-linux_x86_64.whl'))

def url = Paths.get(buildRepository).toUri().toString()
def settings = basedir.toPath().resolve('docs-settings.xml')
Files.writeString(settings, """<settings><pluginGroups><pluginGroup>dev.tewheel</pluginGroup></pluginGroups>
<mirrors><mirror><id>local.build.repository</id><mirrorOf>*</mirrorOf><url>${url}</url></mirror></mirrors>
<profiles><profile><id>it-repo</id>
<repositories><repository><id>local.central</id><url>${url}</url></repository></repositories>
<pluginRepositories><pluginRepository><id>local.central</id><url>${url}</url></pluginRepository></pluginRepositories>
</profile></profiles><activeProfiles><activeProfile>it-repo</activeProfile></activeProfiles></settings>""")
def bin = Files.createDirectories(basedir.toPath().resolve('bin'))
def mvn = Paths.get(System.getProperty('maven.home'), 'bin', 'mvn').toString()
Files.writeString(bin.resolve('mvn'), "#!/bin/sh\nexec '${mvn}' -B -s '${settings}' -Dmaven.repo.local='${localRepositoryPath}' \"\$@\"\n")
bin.resolve('mvn').toFile().setExecutable(true)
def java = Paths.get(System.getProperty('java.home'), 'bin', 'java').toString()
Files.writeString(bin.resolve('te-wheel'), "#!/bin/sh\nexec '${java}' -cp '${teWheelJar}' dev.tewheel.cli.TeWheel \"\$@\"\n")
bin.resolve('te-wheel').toFile().setExecutable(true)
true
