// An empty folder to run Maven in, and a good wheel of the stand-ins beside it, as a download would leave it.
import java.nio.file.*

def wheels = evaluate(Paths.get(projectRoot, 'it/src/it-lib/wheels.groovy').toFile())
Files.createDirectories(basedir.toPath().resolve('release'))
def downloads = Files.createDirectories(basedir.toPath().resolve('downloads'))
wheels.write(downloads.resolve('transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl'),
    'transformer_engine_cu12-2.9.0.dist-info/', 'transformer_engine_cu12', '2.9.0', 'py3-none-manylinux_2_34_x86_64',
    wheels.teRelease(standIns))
true
