# The platform tags pip accepts on a Linux system of each architecture and glibc 2.X: the oracle of
# PlatformTagSetTest. It asks the packaging that Debian's pip vendors (pip._vendor.packaging), the code pip itself
# calls for its supported tags, telling it the glibc and that the interpreter's ABI fits each architecture: only
# those two facts of the running machine are replaced.
# Usage: python3 pip-supported-platforms.py LOWEST_MINOR HIGHEST_MINOR ARCH...
# Prints one line per architecture and glibc: "<arch> 2.<minor> <tag> <tag> ...", the tags in pip's order.
import sys

from pip._vendor.packaging import _manylinux

low, high, archs = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
_manylinux._have_compatible_abi = lambda *args: True
for arch in archs:
    for minor in range(low, high + 1):
        _manylinux._get_glibc_version = lambda minor=minor: (2, minor)
        linux = "linux_" + arch
        try:
            tags = list(_manylinux.platform_tags(linux, arch))
        except TypeError:  # packaging 22 and later take the architectures only
            tags = list(_manylinux.platform_tags([arch]))
        # packaging.tags._linux_platforms: the manylinux tags, the musllinux ones (none on glibc), then linux_<arch>.
        print(arch, "2.%d" % minor, " ".join(tags + [linux]))
