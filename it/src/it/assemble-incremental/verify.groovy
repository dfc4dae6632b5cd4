def log = new File(basedir, 'build.log').text
assert log =~ /15 files: 15 copied \([\d,]+ bytes\), 0 up to date, 0 removed/
assert log =~ /15 files: 0 copied \(0 bytes\), 15 up to date, 0 removed, in \d+ ms \(nothing to do\)/
assert log =~ /15 files: 1 copied \([\d,]+ bytes\), 14 up to date, 0 removed/
