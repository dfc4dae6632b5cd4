import java.nio.file.*

def wheelLib = basedir.toPath().resolve('target/wheel/transformer_engine/wheel_lib')
def log = new File(basedir, 'build.log').text
assert log.contains('ncclEpHome is not set: wheel_lib ships no NCCL EP (a build with NVTE_WITH_NCCL_EP=OFF)')
assert wheelLib.toFile().list().sort() == ['libtransformer_engine.so', 'te-wheel-lib.json']
assert wheelLib.resolve('te-wheel-lib.json').toFile().text.contains('"ncclEpHome": null')
