// Every block of README.md and docs/**/*.md marked runnable runs here, and its key lines are found in its output.
// A runnable block is a ```console block right after the line <!-- docs-test --> (or <!-- docs-test exit=N -->):
// its '$ ' lines are the commands (a line ending in '\' continues on the next), the other lines the key lines,
// found in order, '…' standing for any text within a line. The commands run with bash in work/ (setup.groovy).
import java.nio.file.*
import java.util.concurrent.TimeUnit
import java.util.regex.Pattern

def root = Paths.get(projectRoot)
def pages = [root.resolve('README.md')]
Files.walk(root.resolve('docs')).withCloseable { s -> pages.addAll(s.filter { it.toString().endsWith('.md') }.sorted().toList()) }
def marker = Pattern.compile(/^<!-- docs-test(?: exit=(\d+))? -->$/)
def blocks = []
pages.each { page ->
  def lines = Files.readAllLines(page)
  for (int i = 0; i < lines.size(); i++) {
    def m = marker.matcher(lines[i].trim())
    if (!m.matches()) {
      continue
    }
    def where = "${root.relativize(page)}:${i + 1}"
    assert i + 1 < lines.size() && lines[i + 1].trim() == '```console' : "${where}: <!-- docs-test --> must be followed by a ```console block"
    def commands = []
    def expected = []
    int j = i + 2
    for (; j < lines.size() && lines[j].trim() != '```'; j++) {
      def line = lines[j]
      if (line.startsWith('$ ')) {
        def command = line.substring(2)
        while (command.endsWith('\\') && j + 1 < lines.size()) {
          command = command[0..-2] + ' ' + lines[++j].trim()
        }
        commands << command
      } else if (!line.isBlank()) {
        expected << line
      }
    }
    assert j < lines.size() : "${where}: the block is not closed"
    assert !commands.isEmpty() : "${where}: a runnable block without a '\$ ' command"
    blocks << [where: where, commands: commands, expected: expected, exit: m.group(1) == null ? 0 : m.group(1) as int]
  }
}
assert blocks.size() >= 7 : "only ${blocks.size()} runnable blocks found in README.md and docs/"

def work = basedir.toPath().resolve('work')
def report = []
def failures = []
blocks.eachWithIndex { block, n ->
  def log = basedir.toPath().resolve("block-${n}.log")
  def script = 'set -o pipefail\n' + block.commands.join('\n')
  def pb = new ProcessBuilder('bash', '-c', script).directory(work.toFile()).redirectErrorStream(true)
      .redirectOutput(log.toFile())
  pb.environment().put('PATH', basedir.toPath().resolve('bin').toString() + ':' + System.getenv('PATH'))
  pb.environment().put('STAND_INS', standIns) // the stand-in NCCL and CUDA driver, for te-wheel runtime
  def process = pb.start()
  assert process.waitFor(600, TimeUnit.SECONDS) : "${block.where}: still running after 10 minutes"
  def output = log.toFile().text
  def problems = []
  if (process.exitValue() != block.exit) {
    problems << "exit status ${process.exitValue()}, expected ${block.exit}"
  }
  int from = 0
  block.expected.each { line ->
    def regex = Pattern.compile('(?m)' + line.trim().split('…', -1).collect { Pattern.quote(it) }.join('[^\\n]*'))
    def found = regex.matcher(output)
    if (found.find(from)) {
      from = found.end()
    } else {
      problems << "no line '${line.trim()}' (after the previous key line)"
    }
  }
  report << "${block.where}: ${problems.isEmpty() ? 'ok' : problems.join('; ')} (${block.commands.join(' && ')})"
  if (!problems.isEmpty()) {
    failures << "${block.where}: ${problems.join('; ')}\n--- output of ${block.commands.join(' && ')} ---\n${output}"
  }
}
Files.writeString(basedir.toPath().resolve('docs-commands.txt'), report.join('\n') + '\n')
assert failures.isEmpty() : failures.join('\n')
true
