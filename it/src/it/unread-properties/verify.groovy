// Maven's own configuration of the run: the POM's <failOn> won over -Dte.failOn, and the goal said so; verify does not
// read outputTimestamp; te-runtime's te.native.* is none of the plugin's parameters and stays unmentioned.
def log = new File(basedir, 'build.log').text
assert log.contains('[WARNING] -Dte.failOn=warning is ignored by te:verify-wheel-lib: the POM sets <failOn>error</failOn>, which wins over a user property; remove <failOn> from the POM, or write <failOn>${te.failOn}</failOn>, for the property to count')
assert log.contains('[WARNING] -Dte.outputTimestamp has no effect: te:verify-wheel-lib does not read outputTimestamp (read by te:assemble-wheel-lib, te:jar-wheel-lib, te:pack-wheel)')
assert !log.contains('te.native.cudnn')
assert log.contains('failOn error)') // the POM's value held: 3 warnings pass
assert log.contains('BUILD SUCCESS')
true
