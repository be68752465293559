#!/usr/bin/env bash
# Build utouch and run every test: a normal build (plus its "memcheck" suite
# again under valgrind), an ASan+UBSan build, a release build without the
# X11 backend (-Dx11=disabled), the Debian packages (scripts/package.sh),
# and a clang build running the libFuzzer targets
# briefly.  The last line printed is "N passed, N failed"; the exit status
# is non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test || exit 1
jobs=$(nproc)
logs=()
failed_setup=0

run_build() { # NAME CC MESON-ARGS... ; runs the tests of one build dir
  local dir=$1 compiler=$2; shift 2
  set -- -Dwerror=true "$@"  # warnings are errors here (meson.build defaults to false)
  # an existing tree (e.g. from scripts/demo.sh) gets this run's options
  if [ -f "$dir/build.ninja" ]; then
    meson configure "$dir" "$@" >"$dir.setup.log" 2>&1
  else
    CC=$compiler meson setup "$dir" "$@" >"$dir.setup.log" 2>&1
  fi || { cat "$dir.setup.log"; failed_setup=$((failed_setup + 1)); return; }
  if ! meson compile -C "$dir" >"$dir.compile.log" 2>&1; then
    tail -n 60 "$dir.compile.log"; failed_setup=$((failed_setup + 1)); return
  fi
  echo "== tests: $dir" >&2
  meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes "$jobs" "${suite_args[@]}" || true
  logs+=("$dir/meson-logs/testlog.json")
  if [ "$valgrind" = yes ]; then
    # the tests of the "memcheck" suite once more under valgrind
    # (add_test_setup in tests/meson.build)
    echo "== tests under valgrind: $dir" >&2
    meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes "$jobs" \
      --setup valgrind --suite memcheck || true
    logs+=("$dir/meson-logs/testlog-valgrind.json")
  fi
}

suite_args=(--no-suite fuzz)
valgrind=yes
run_build build cc -Dtests=true
valgrind=no
# Under the sanitizers: every suite but three that check equality rather
# than memory safety and cost most of the time there.  diff-trace and
# diff-frames compare traces and frames with the original (the plain build
# does that; the replay, events, synth and plot suites run the same
# recordings through utouch-replay's code under the sanitizers), and web
# runs the WebAssembly build in node and Chromium, which no sanitizer sees
# (-Dweb=disabled: the module is not built again for nothing).
# meson test's own ASAN_OPTIONS, and allocation and free stacks of 8
# frames instead of 30: recording a deep stack for every malloc and free
# was a third of the time of the heap-heavy tests (geis-oom 49 -> 33 s);
# errors are found the same, their reports show the 8 innermost frames.
# The benchmarks are left out (-Dbench=false): their "perf" suite counts
# instructions of an unsanitized build only, and nothing else runs them.
suite_args=(--no-suite fuzz --no-suite diff-trace --no-suite diff-frames --no-suite web)
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_summary=1:malloc_context_size=8
run_build build-asan cc -Dtests=true -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug -Dweb=disabled -Dbench=false
unset ASAN_OPTIONS
# Without the X11 backend, and optimised as distributions build it
# (buildtype release: -O3, where GCC warns most): everything that does not
# depend on X11.  The
# differential suites replay the same recordings through the same code in
# both configurations, and the web suite does not use the native build's
# configuration, so they run in the builds above only (-Dweb=disabled
# saves building the module again).  The QML module does not depend on X11
# and is built and tested above (-Dqml=disabled saves compiling it twice
# more).  The libraries and programs are optimised across files as in any
# release build; the test programs link without that (meson.build).  The
# benchmarks are left out as in the Debian build (-Dbench=false: four
# more optimised links; their "perf" suite runs in build/ only).
suite_args=(--no-suite fuzz --no-suite diff-trace --no-suite diff-frames --no-suite web --no-suite qml)
run_build build-nox11 cc -Dtests=true -Dx11=disabled -Dqml=disabled -Dweb=disabled -Dbuildtype=release -Dbench=false
# The fuzz targets run 5 s each here (-Dfuzz_seconds=, default 15): their
# seed corpora first, then new inputs, the same ones every run
# (-Dfuzz_seed=1: a test that passed does not fail by chance); longer runs
# with new random inputs (-Dfuzz_seed=0, the default) are for fuzzing on
# purpose, and what they find joins fuzz/corpus/.
suite_args=(--suite fuzz)
run_build build-fuzz clang -Dfuzz=true -Dfuzz_seconds=5 -Dfuzz_seed=1 -Dtests=false -Db_lundef=false -Dbuildtype=debug -Dqml=disabled

# The Debian packages (debian/, doc/packaging.md): built from a copy of the
# tree without running the suite again, their contents, symbols and
# lintian checked, their programs run; one test in the count.
echo "== Debian packages: scripts/package.sh" >&2
if scripts/package.sh >build-deb.log 2>&1; then
  package_passed=1 package_failed=0
  tail -n 1 build-deb.log >&2
else
  package_passed=0 package_failed=1
  tail -n 40 build-deb.log
fi

python3 - "$((failed_setup + package_failed))" "$package_passed" "${logs[@]}" <<'PY'
import json, sys
failed = int(sys.argv[1])
passed = int(sys.argv[2])
skipped = 0
for path in sys.argv[3:]:
    try:
        lines = open(path).read().splitlines()
    except OSError:
        failed += 1
        continue
    for line in lines:
        if not line.strip():
            continue
        r = json.loads(line)["result"]
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r == "SKIP":
            skipped += 1
        else:
            failed += 1
if skipped:
    print(f"({skipped} skipped: their tools or devices are missing on this machine)")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
