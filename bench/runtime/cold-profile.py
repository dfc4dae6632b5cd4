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
        for method in {re.sub(r'\(.*', '', f) for f in frames
                       if f.startswith('dev.tewheel.') and not f.startswith('dev.tewheel.bench.')}:
            methods[method] += 1
    if total == 0:
        raise SystemExit('cold-profile.py: no sample under FirstCall in the input')
    print(f'{total} samples under FirstCall\n\nkind of work at the leaf:')
    for name, count in kinds.most_common():
        print(f'{count * 100 / total:5.1f} %  {name}')
    print('\nte-wheel methods, inclusive:')
    for name, count in methods.most_common(50):
        print(f'{count * 100 / total:5.1f} %  {name}')


if __name__ == '__main__':
    main()
