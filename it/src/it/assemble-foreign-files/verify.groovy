// The goal refused to replace the folder, named the file it would have removed, and the file is still there.
import java.nio.file.*

def log = new File(basedir, 'build.log').text
def wheelLib = basedir.toPath().resolve('target/wheel/transformer_engine/wheel_lib')
assert log.contains("outputDirectory ${wheelLib} holds 1 file and no manifest te-wheel-lib.json, so assemble did"
    + " not write them: notes/todo.md.") : log
assert Files.readString(wheelLib.resolve('notes/todo.md')) == 'mine\n'
assert wheelLib.toFile().list() as List == ['notes']
