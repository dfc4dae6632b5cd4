// te.floorLibraries reaches SYMBOL-FLOOR in assemble and verify, comma-separated, as a user property.
def log = new File(basedir, 'build.log').text
assert log =~ /SYMBOL-FLOOR\s+INFO\s+.*found DT_NEEDED without a floor, not checked: libstdc\+\+\.so\.6/
assert log =~ /PASSED: 0 errors, 3 warnings, 0 suppressed; \d+ checks on wheel_lib /
def refused = '[ERROR SYMBOL-FLOOR] ' + standIns + '/defects/te-window/libtransformer_engine.so: found' +
    ' ncclCommWindowRegister (needed from libnccl.so.2), which the floor ' + standIns +
    '/nccl-oldest/lib/libnccl.so.2.21.5 (NCCL 2.21.5) does not define'
assert log.contains(refused) : "build.log lacks: $refused"
assert log.count('BUILD FAILURE') == 1
