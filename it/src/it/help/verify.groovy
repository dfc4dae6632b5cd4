// te:help is generated from the plugin's descriptor: it must name the plugin and list its goals.
def log = new File(basedir, 'build.log').text
assert log.contains('te-wheel Maven plugin 0.1.0-SNAPSHOT')
assert log.contains('te:help')
assert log.contains('BUILD SUCCESS')
// Placeholders in parameter descriptions survive the javadoc-to-text conversion.
assert log.contains('machine (linux_<arch>).') // help wraps the line before it
assert !log.contains('(linux_ )')
