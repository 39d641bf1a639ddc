#!/usr/bin/env python3
"""random_programs.py OPARI POMP_LOG_LIB INCLUDE_DIR [COUNT] [SEED]

Differential test: generates COUNT random OpenMP C programs (nested
constructs, braced and unbraced bodies, if/else, loops, _Pragma, multi-line
directives), builds each plain and instrumented, runs both with 3 threads
and requires the same output.  Programs are race free and deterministic
(shared updates are atomic, critical or reductions)."""
import os, random, subprocess, sys, tempfile

def directive(rng, text):
    if rng.random() < 0.15:
        return '_Pragma("omp %s")' % text
    if rng.random() < 0.15 and ' ' in text:
        head, tail = text.split(' ', 1)
        return '#pragma omp %s \\\n    %s' % (head, tail)
    return '#pragma omp ' + text

def team_stmt(rng, depth, compound=False):
    """A statement executed by every thread of a team (stand-alone
    directives only directly in a compound statement)."""
    k = rng.randrange(11)
    add = rng.randrange(1, 9)
    if k == 9:
        task = '%s\n{\n%s\nacc += %d;\n}' % (directive(rng, 'task'), directive(rng, 'atomic'), add)
        return '%s\n{\n%s\n%s\n%s\n}' % (directive(rng, 'single'), task, task, directive(rng, 'taskwait'))
    if k == 10:
        body = '%s\n{\n%s\nacc += i;\n}' % (directive(rng, 'ordered'), directive(rng, 'atomic'))
        return '%s\nfor (int i = 0; i < 5; i++) {\n%s\n}' % (directive(rng, 'for ordered'), body)
    if k == 0:
        loop = 'for (int i = 0; i < %d; i++) acc += i;' % rng.randrange(1, 40)
        return '%s\n%s' % (directive(rng, 'for reduction(+:acc)' + rng.choice(['', ' nowait', ' schedule(static, 2)'])), loop)
    if k == 1:
        return '%s\n{\n%s\nacc += %d;\n}' % (directive(rng, 'single'), directive(rng, 'atomic'), add)
    if k == 2:
        return '%s\nacc += %d;' % (directive(rng, rng.choice(['critical', 'critical(name%d)' % add])), add)
    if k == 3:
        return '%s\nacc += %d;' % (directive(rng, 'atomic'), add)
    if k == 4:
        return '%s\n{\n%s\nacc += %d;\n}' % (directive(rng, 'master'), directive(rng, 'atomic'), add)
    if k == 5 and compound:
        return directive(rng, rng.choice(['barrier', 'flush']))
    if k == 6:
        secs = ['%s\n%s\nacc += %d;' % (directive(rng, 'section'), directive(rng, 'atomic'), i + 1) for i in range(rng.randrange(1, 4))]
        if rng.random() < 0.5:
            secs[0] = secs[0].split('\n', 1)[1]  # implicit first section
        return '%s\n{\n%s\n}' % (directive(rng, 'sections'), '\n'.join(secs))
    if k == 7 and depth < 3:
        return 'if (acc >= 0)\n%s\nelse\nacc = -1000;' % team_stmt(rng, depth + 1)
    return '{\n%s\n%s\n}' % (team_stmt(rng, depth + 1, True), team_stmt(rng, depth + 1, True)) if depth < 3 else ';'

def top_stmt(rng, depth):
    k = rng.randrange(5)
    if k == 0:
        body = '{\n%s\n}' % '\n'.join(team_stmt(rng, 1, True) for _ in range(rng.randrange(1, 5)))
        return '%s\n%s' % (directive(rng, 'parallel num_threads(3)'), body)
    if k == 1:
        loop = 'for (int i = 0; i < %d; i++)\n  acc += i %% 7;' % rng.randrange(1, 50)
        return '%s\n%s' % (directive(rng, 'parallel for num_threads(3) reduction(+:acc) schedule(dynamic)'), loop)
    if k == 2 and depth < 3:
        return 'for (int r = 0; r < 2; r++)\n%s' % top_stmt(rng, depth + 1)
    if k == 3 and depth < 3:
        return 'if (acc %% 2)\n%s\nelse\n%s' % (top_stmt(rng, depth + 1), top_stmt(rng, depth + 1))
    if rng.random() < 0.3:
        return '%s\nacc += 5;' % directive(rng, 'parallel master num_threads(3)')
    return '%s\n%s\nacc += 1;' % (directive(rng, 'parallel num_threads(3)'), directive(rng, 'atomic'))

def program(rng):
    body = '\n'.join(top_stmt(rng, 0) for _ in range(rng.randrange(1, 5)))
    return '#include <stdio.h>\nint main(void) {\n  long acc = 0;\n%s\n  printf("%%ld\\n", acc);\n  return 0;\n}\n' % body

def main():
    opari, lib, include = sys.argv[1:4]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 3)
    env = dict(os.environ, OMP_NUM_THREADS='3', OMP_DYNAMIC='false', POMP_LOG='/dev/null')
    with tempfile.TemporaryDirectory() as work:
        for n in range(count):
            src = os.path.join(work, 'p.c')
            open(src, 'w').write(program(rng))
            def run(*cmd):
                r = subprocess.run(cmd, capture_output=True, text=True, env=env)
                if r.returncode:
                    print(open(src).read())
                    sys.exit('FAIL program %d: %s\n%s' % (n, ' '.join(cmd), r.stderr))
                return r.stdout
            run(opari, src, src + '.mod.c')
            run('cc', '-fopenmp', '-o', src + '.plain', src)
            run('cc', '-fopenmp', '-I' + work, '-I' + include, '-o', src + '.inst', src + '.mod.c', lib)
            if run(src + '.plain') != run(src + '.inst'):
                print(open(src).read())
                sys.exit('FAIL program %d: outputs differ' % n)
    print('%d random programs: instrumented output equals the original' % count)

main()
