#!/usr/bin/env python3
"""Check what the installed libraries and tools export, link and carry.

usage: check-symbols.py BUILD_DIR SOURCE_DIR x11|nox11

Installs the build into a temporary directory and checks, for each of
libutouch-frame, libutouch-grail and libutouch-geis:

* the public functions it exports are exactly the functions its installed
  headers declare with the library's export macro (FRAME_PUBLIC,
  GRAIL_PUBLIC, GEIS_API): any extra or missing one fails;
* frame's private version node (UTOUCH_FRAME_PRIVATE_<version>) holds
  exactly the functions the source tree's internal headers declare with
  UT_FRAME_PRIVATE, and the other libraries have no private node;
* the symbols of the original libraries keep their original version nodes
  (FRAME_2.x, GRAIL_3.1, GEIS_x.y), our additions are in UTOUCH_<LIB>_0.1;
* grail links libutouch-frame and geis links both (DT_NEEDED), and no
  library defines a function another one exports (no second copy);
* the installed tools link the shared libraries they use and define none
  of the functions the libraries export.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

build, src, x11 = sys.argv[1], sys.argv[2], sys.argv[3]
errors = []


def fail(msg):
    errors.append(msg)


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def project_version():
    out = run('meson', 'introspect', '--projectinfo', build)
    return re.search(r'"version":\s*"([^"]+)"', out).group(1)


def strip_c(text):
    """Drop comments and preprocessor lines (with their continuations)."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    text = re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', ' ', text, flags=re.M)
    return text


def declared(paths, macro):
    """Names of the functions declared with MACRO in the given headers."""
    names = set()
    pat = re.compile(r'\b' + macro + r'\b([^;{}()]*?)\b([A-Za-z_]\w*)\s*\(')
    for path in paths:
        for m in pat.finditer(strip_c(open(path).read())):
            names.add(m.group(2))
    return names


def dyn_exports(lib):
    """{name: version node} of the functions and objects LIB defines."""
    out = {}
    for line in run('readelf', '-W', '--dyn-syms', lib).splitlines():
        f = line.split()
        if len(f) < 8 or not f[0].endswith(':'):
            continue
        typ, bind, ndx, name = f[3], f[4], f[6], f[7]
        if ndx in ('UND', 'ABS') or bind not in ('GLOBAL', 'WEAK'):
            continue
        if typ not in ('FUNC', 'OBJECT', 'IFUNC'):
            continue
        base, _, ver = name.partition('@')
        out[base] = ver.lstrip('@')
    return out


def needed(path):
    return set(re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]',
                          run('readelf', '-d', path)))


def defined_functions(path):
    """Every function PATH defines, hidden ones included (static symtab)."""
    names = set()
    for line in run('nm', '--defined-only', path).splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'Tt':
            names.add(f[2])
    if not names:
        fail(f'{path}: no symbol table (stripped?); cannot check for copies')
    return names


def original_nodes():
    """Version node of each symbol of the original libraries (from their
    version scripts in the tree, which mirror libframe.so.6, libgrail.so.6
    and libgeis.so.1)."""
    nodes = {}
    for sym in glob.glob(os.path.join(src, 'src', '*', 'libutouch-*.sym*')):
        node = None
        for line in open(sym):
            line = line.split('#')[0].strip()
            m = re.match(r'^([A-Z][A-Z0-9_.@]*)\s*\{', line)
            if m:
                node = m.group(1)
                continue
            m = re.match(r'^([A-Za-z_]\w*);$', line)
            if m and node:
                nodes[m.group(1)] = node
    return nodes


with tempfile.TemporaryDirectory() as tmp:
    root = os.path.join(tmp, 'root')
    r = subprocess.run(['meson', 'install', '-C', build, '--no-rebuild', '--destdir', root],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit('meson install failed:\n' + r.stdout + r.stderr)

    def one(pattern):
        found = sorted(glob.glob(os.path.join(root, '**', pattern), recursive=True))
        if not found:
            sys.exit(f'not installed: {pattern}')
        return found[0]

    incdir = os.path.dirname(os.path.dirname(one('grail.h')))
    version = project_version()
    private_node = 'UTOUCH_FRAME_PRIVATE_' + version

    headers = {
        'frame': ['oif/frame.h', 'oif/frame_backend.h', 'oif/frame_internal.h',
                  'utouch/frame_handle.h'] + (['oif/frame_x11.h'] if x11 == 'x11' else []),
        'grail': ['oif/grail.h'],
        'geis': ['geis/geis.h', 'utouch/geis.h'],
        'compositor': ['utouch/compositor.h'],
    }
    macro = {'frame': 'FRAME_PUBLIC', 'grail': 'GRAIL_PUBLIC', 'geis': 'GEIS_API',
             'compositor': 'UTOUCH_COMP_PUBLIC'}
    origin = {'frame': r'FRAME_2\.[245]', 'grail': r'GRAIL_3\.1', 'geis': r'GEIS_[12]\.[0-3]',
              'compositor': r'(?!)'}
    internal_headers = [p for p in glob.glob(os.path.join(src, 'src', '**', '*.h'), recursive=True)]
    private_decl = declared(internal_headers, 'UT_FRAME_PRIVATE')
    nodes = original_nodes()

    libs, exports = {}, {}
    for name in ('frame', 'grail', 'geis', 'compositor'):
        lib = one(f'libutouch-{name}.so.*.*.*')
        libs[name] = lib
        exp = dyn_exports(lib)
        exports[name] = exp
        public = {s for s, v in exp.items() if v != private_node}
        want = declared([os.path.join(incdir, h) for h in headers[name]], macro[name])
        for s in sorted(public - want):
            fail(f'libutouch-{name}: exports {s}@{exp[s]}, which no public header declares')
        for s in sorted(want - public):
            fail(f'libutouch-{name}: does not export {s}, declared in its public headers')
        for s in sorted(public & want):
            v = exp[s]
            if not v:
                fail(f'libutouch-{name}: {s} has no version node')
            elif re.fullmatch(origin[name], v):
                if nodes.get(s) != v:
                    fail(f'libutouch-{name}: {s}@{v} is not in its version script node')
            elif v != f'UTOUCH_{name.upper()}_0.1':
                fail(f'libutouch-{name}: {s} is in an unknown version node {v}')
        priv = {s for s, v in exp.items() if v == private_node}
        if name == 'frame':
            for s in sorted(priv - private_decl):
                fail(f'libutouch-frame: private node exports {s}, not declared UT_FRAME_PRIVATE')
            for s in sorted(private_decl - priv):
                fail(f'libutouch-frame: {s} is declared UT_FRAME_PRIVATE but not exported '
                     f'in {private_node}')
        elif priv or any('PRIVATE' in v for v in exp.values()):
            fail(f'libutouch-{name}: exports private symbols')
        print(f'libutouch-{name}: {len(public)} public symbols' +
              (f', {len(priv)} in {private_node}' if name == 'frame' else ''))

    # linking: each library once, the layers below through their .so
    want_needed = {'frame': set(), 'grail': {'libutouch-frame.so.0'},
                   'geis': {'libutouch-frame.so.0', 'libutouch-grail.so.0'},
                   'compositor': {'libutouch-frame.so.0', 'libutouch-grail.so.0'}}
    for name, lib in libs.items():
        ours = {n for n in needed(lib) if n.startswith('libutouch-')}
        if ours != want_needed[name]:
            fail(f'libutouch-{name}: links {sorted(ours)}, expected {sorted(want_needed[name])}')
        for bad in ('libframe.so', 'libgrail.so', 'libgeis.so'):
            if any(n.startswith(bad) for n in needed(lib)):
                fail(f'libutouch-{name}: links the original {bad}')

    # no library carries a copy of another's code
    for name, lib in libs.items():
        mine = defined_functions(lib)
        for other, exp in exports.items():
            if other == name:
                continue
            copies = sorted(mine & set(exp))
            if copies:
                fail(f'libutouch-{name} defines {len(copies)} functions of libutouch-{other} '
                     f'(e.g. {", ".join(copies[:4])})')

    # installed tools link the libraries instead of carrying their code
    all_exports = set().union(*(set(e) for e in exports.values()))
    tools = {'utouch-replay': {'libutouch-frame.so.0', 'libutouch-grail.so.0'},
             'utouch-events': {'libutouch-geis.so.0'},
             'utouch-synth': set()}
    bindir = os.path.dirname(one('utouch-replay'))
    for tool in sorted(os.listdir(bindir)):
        path = os.path.join(bindir, tool)
        copies = sorted(defined_functions(path) & all_exports)
        if copies:
            fail(f'{tool} carries {len(copies)} library functions (e.g. {", ".join(copies[:4])}); '
                 'link the *_shared_dep dependencies')
        ours = {n for n in needed(path) if n.startswith('libutouch-')}
        if tool in tools and not tools[tool] <= ours:
            fail(f'{tool}: links {sorted(ours)}, expected at least {sorted(tools[tool])}')
        print(f'{tool}: links {", ".join(sorted(ours)) or "no utouch library"}')

for e in errors:
    print('FAIL: ' + e)
if errors:
    sys.exit(1)
print('exports match the headers; one copy of each library: ok')
