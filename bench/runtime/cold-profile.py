#!/usr/bin/env python3
"""Where te-runtime's cold first call spends its time: JFR execution and native-method samples of FirstCall runs
(`jfr print` text on standard input or in the files named), each sample counted once for every te-wheel method on
its stack (inclusive) and once for the kind of work at its leaf. Written by bench/runtime/cold-profile.sh."""
import collections
import fileinput
import re

KINDS = (  # first match wins, looked for in the 40 innermost frames
    ('class loading', ('ClassLoader.defineClass', 'ClassLoader.loadClass', 'BuiltinClassLoader', 'Class.forName')),
    ('lambda and invokedynamic linkage', ('LambdaMetafactory', 'MethodHandleNatives.linkCallSite',
                                          'BootstrapMethodInvoker')),
    ('FFM and method handles', ('jdk.internal.foreign', 'java.lang.invoke')),
)


STEPS = (  # te-runtime's steps by method prefix; a sample goes to the innermost step on its stack, else to the rest
    ('FFM start: the linker and Libc\'s downcall shape', ('runtime.internal.ffm.Libc.<clinit>',
                                                        'runtime.internal.ffm.Libc$Call.<clinit>')),
    ('the version getters\' downcall shape (NCCL gate, NCCL EP version)', ('runtime.internal.ffm.VersionGetter.',)),
    ('dlopen and dlsym of NCCL and NCCL EP', ('runtime.internal.ffm.Libc.dlopen', 'runtime.internal.ffm.Libc.dlsym')),
    ('ELF files read (headers, dynamic section, versions, symbols)', ('elf.ElfFile.read', 'loader.ElfFiles.')),
    ('load prediction (symbol lookups in the scope)', ('loader.LoadPredictor.', 'elf.SymbolScope')),
    ('glibc\'s search and DT_NEEDED closure', ('loader.LoaderSearch.', 'loader.NeededClosure.',
                                               'loader.SearchPaths.', 'loader.LdSoCache.')),
    ('the live host (glibc version, hwcaps, executable, mapped objects)', ('runtime.internal.host.LinkerHost',)),
    ('folder and file checks (trust, pinning, stamps)', ('runtime.internal.host.TrustedFolder',
                                                         'runtime.internal.host.PinnedLibrary',
                                                         'runtime.internal.search.Digests', 'loader.FileStamp')),
    ('NCCL EP JIT preflight', ('runtime.internal.search.JitCheck', 'loader.te.NcclEpJit')),
    ('NCCL gate', ('runtime.internal.search.NcclGate',)),
    ('TE\'s loading sequence and provider', ('loader.te.', 'runtime.internal.search.TeProvider',
                                            'bundle.ncclep.NcclEpSelection')),
    ('loadNcclEp: the load sequence', ('runtime.internal.load.',)),
    ('availability: the resolver, discovery and the report', ('runtime.internal.search.', 'runtime.report.',
                                                              'runtime.TeRuntime.availability')),
)


NOLOAD = 'ld.so\'s own answers: dlopen(RTLD_NOLOAD) of a name, is it loaded already?'


def step(frames):
    for i, frame in enumerate(frames):
        if (frame.startswith('dev.tewheel.runtime.internal.ffm.Libc.dlopen') and i + 1 < len(frames)
                and frames[i + 1].startswith('dev.tewheel.runtime.internal.host.LinkerHost.askedByName')):
            return NOLOAD  # glibc searches the disk for a name not loaded, so these are not the loads themselves
        if frame.startswith('dev.tewheel.') and not frame.startswith('dev.tewheel.bench.'):
            for name, prefixes in STEPS:
                if any(frame.startswith('dev.tewheel.' + p) for p in prefixes):
                    return name
    if any(f.startswith('dev.tewheel.') and not f.startswith('dev.tewheel.bench.') for f in frames):
        return 'the rest of te-runtime'
    return 'outside te-runtime (FirstCall itself)'


def kind(frames):
    inner = ' '.join(frames[:40])
    for name, needles in KINDS:
        if any(n in inner for n in needles):
            return name
    return 'te-wheel code' if frames[0].startswith('dev.tewheel.') else 'JDK code te-wheel calls'


def main():
    text = ''.join(fileinput.input())
    total = 0
    kinds = collections.Counter()
    methods = collections.Counter()
    steps = collections.Counter()
    step_kinds = collections.Counter()
    for event in re.split(r'\njdk\.(?:ExecutionSample|NativeMethodSample) \{', text)[1:]:
        stack = re.search(r'stackTrace = \[(.*?)\n\s*\]', event, re.S)
        if not stack:
            continue
        frames = [re.sub(r'\s+line:.*', '', f.strip()) for f in stack.group(1).strip().split('\n')
                  if f.strip() and not f.strip().startswith('...')]
        if not any('dev.tewheel.bench.FirstCall.' in f for f in frames):
            continue  # the JVM's own start, JFR's threads
        total += 1
        kinds[kind(frames)] += 1
        steps[step(frames)] += 1
        step_kinds[(step(frames), kind(frames))] += 1
        for method in {re.sub(r'\(.*', '', f) for f in frames
                       if f.startswith('dev.tewheel.') and not f.startswith('dev.tewheel.bench.')}:
            methods[method] += 1
    if total == 0:
        raise SystemExit('cold-profile.py: no sample under FirstCall in the input')
    print(f'{total} samples under FirstCall\n\nkind of work at the leaf:')
    for name, count in kinds.most_common():
        print(f'{count * 100 / total:5.1f} %  {name}')
    print('\nby step (each sample to the innermost step on its stack), and the kinds of work in it:')
    for name, count in steps.most_common():
        split = ', '.join(f'{k} {n * 100 / count:.0f} %' for (s, k), n in step_kinds.most_common() if s == name)
        print(f'{count * 100 / total:5.1f} %  {name}  [{split}]')
    print('\nte-wheel methods, inclusive:')
    for name, count in methods.most_common(50):
        print(f'{count * 100 / total:5.1f} %  {name}')


if __name__ == '__main__':
    main()
