// The reactor's modules as the root POM lists them (profiles aside), each with its artifactId, packaging and
// whether it is published: a module is unless its POM sets maven.deploy.skip to true (docs/release.md).
// The root POM itself, te-wheel-parent, is published: every module's POM names it as parent.
import java.nio.file.*

return { Path root ->
  def read = { Path pom -> new groovy.xml.XmlSlurper().parse(pom.toFile()) }
  def describe = { String dir, pom ->
    [dir: dir, artifactId: pom.artifactId.text(), packaging: pom.packaging.text() ?: 'jar',
     published: pom.getProperty('properties').getProperty('maven.deploy.skip').text() != 'true']
  }
  def top = read(root.resolve('pom.xml'))
  def modules = [describe('.', top)]
  top.modules.module.each { m -> modules << describe(m.text(), read(root.resolve(m.text()).resolve('pom.xml'))) }
  modules
}
