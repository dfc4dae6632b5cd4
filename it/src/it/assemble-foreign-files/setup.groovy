// A wheel_lib folder that holds the user's own files and no manifest: assemble did not write it.
import java.nio.file.*

def wheelLib = Files.createDirectories(basedir.toPath().resolve('target/wheel/transformer_engine/wheel_lib/notes'))
Files.writeString(wheelLib.resolve('todo.md'), 'mine\n')
// A pre-build script must answer true for the build to run.
true
