// An empty folder to run Maven in, and beside it a wheel that is not TE's: a Python package whose extension module
// (the TE stand-in, renamed) NEEDS libnccl.so.2 of the nvidia-nccl wheel, GLIBC_2.34 and GLIBCXX_3.4.29.
import java.nio.file.*

def wheels = evaluate(Paths.get(projectRoot, 'it/src/it-lib/wheels.groovy').toFile())
Files.createDirectories(basedir.toPath().resolve('release'))
def downloads = Files.createDirectories(basedir.toPath().resolve('downloads'))
wheels.write(downloads.resolve('nvdemo-1.0-cp312-cp312-manylinux_2_34_x86_64.whl'), 'nvdemo-1.0.dist-info/', 'nvdemo',
    '1.0', 'cp312-cp312-manylinux_2_34_x86_64', ['nvdemo/__init__.py': 'from ._native import *\n'.bytes,
    'nvdemo/_native.cpython-312-x86_64-linux-gnu.so': Files.readAllBytes(Paths.get(standIns, 'te/libtransformer_engine.so'))])
true
