#!/usr/bin/env bash
# Build utouch's Debian packages (debian/) from a clean copy of the tree and
# check them: every package holds what it must, no file is in two
# packages, the libraries' symbols match debian/*.symbols, lintian reports
# no error, and the tools and libraries from the packages run.
#
# Usage: scripts/package.sh [--out DIR] [--with-tests] [--update-symbols]
#   --out DIR          leave the .deb files in DIR (default: build-deb/)
#   --with-tests       run the test suite inside the package build (default:
#                      DEB_BUILD_OPTIONS=nocheck, as scripts/test.sh runs the
#                      suite itself)
#   --update-symbols   rewrite debian/*.symbols from the built libraries
#                      (after adding or removing a library function)
# The last line is "package: ok" or "package: FAILED (reasons)"; the exit
# status is non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
top=$PWD
out=$top/build-deb
with_tests=no
update_symbols=no
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$(realpath -m "$2"); shift 2 ;;
    --with-tests) with_tests=yes; shift ;;
    --update-symbols) update_symbols=yes; shift ;;
    *) echo "usage: scripts/package.sh [--out DIR] [--with-tests] [--update-symbols]" >&2; exit 2 ;;
  esac
done
scripts/deps.sh package || exit 1

problems=()
problem() { problems+=("$1"); echo "package: $1" >&2; }

version=$(sed -n "s/^  version: '\([^']*\)'.*/\1/p" meson.build | head -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/utouch-$version
mkdir -p "$src"
# the committed files and new ones git does not ignore, as they are now
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  xargs -0 cp --parents -t "$src"

opts="parallel=$(nproc)"
[ "$with_tests" = yes ] || opts="nocheck $opts"
echo "package: building in $src (DEB_BUILD_OPTIONS=$opts)" >&2
if ! (cd "$src" && DEB_BUILD_OPTIONS=$opts dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1; then
  tail -n 40 "$work/build.log" >&2
  echo "package: FAILED (dpkg-buildpackage, see above)"
  exit 1
fi
rm -rf "$out"
mkdir -p "$out"
mv "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo "$out"/

if [ "$update_symbols" = yes ]; then
  for lib in frame grail geis compositor; do
    pkg=libutouch-${lib}0
    # public symbols one by one; the private node (its name changes with
    # every release) as one optional pattern
    dpkg-gensymbols -p"$pkg" -P"$src/debian/$pkg" -v"$version" -O"$work/$pkg.symbols" \
      >/dev/null 2>&1
    awk -v v="$version" '
        /@UTOUCH_[A-Z]*_PRIVATE_/ { if (!seen++) { split($1, a, "@"); printf " (symver|optional)%s %s\n", a[2], v }; next }
        { print }' "$work/$pkg.symbols" >"debian/$pkg.symbols"
    echo "package: wrote debian/$pkg.symbols" >&2
  done
fi

# ---- what each package must hold ----
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
lib=usr/lib/$multiarch
declare -A want=(
  [libutouch-frame0]="$lib/libutouch-frame.so.0"
  [libutouch-grail0]="$lib/libutouch-grail.so.0"
  [libutouch-geis0]="$lib/libutouch-geis.so.0"
  [libutouch-compositor0]="$lib/libutouch-compositor.so.0"
  [libutouch-dev]="usr/include/oif/frame.h usr/include/oif/grail.h usr/include/geis/geis.h
                   usr/include/utouch/geis.h usr/include/utouch/compositor.h
                   usr/include/utouch/frame_handle.h
                   $lib/libutouch-frame.so $lib/libutouch-grail.so $lib/libutouch-geis.so
                   $lib/libutouch-compositor.so $lib/pkgconfig/utouch-frame.pc
                   $lib/pkgconfig/utouch-grail.pc $lib/pkgconfig/utouch-geis.pc
                   $lib/pkgconfig/utouch-compositor.pc $lib/pkgconfig/frame.pc
                   $lib/pkgconfig/frame-x11.pc $lib/pkgconfig/grail.pc
                   $lib/pkgconfig/libgeis.pc"
  [utouch-tools]="usr/bin/utouch-replay usr/bin/utouch-events usr/bin/utouch-plot
                  usr/bin/utouch-synth usr/share/man/man1/utouch-replay.1.gz
                  usr/share/man/man1/utouch-events.1.gz"
  [utouch-gestured]="usr/bin/utouch-gestured usr/lib/systemd/user/utouch-gestured.service
                     etc/xdg/autostart/utouch-gestured.desktop
                     usr/share/doc/utouch-gestured/examples/gestures.yaml
                     usr/share/man/man1/utouch-gestured.1.gz
                     usr/lib/udev/rules.d/70-utouch-gestured.rules"
  [utouch-wlcomp]="usr/bin/utouch-wlcomp usr/share/utouch/wlcomp-gestures.yaml
                   usr/share/man/man1/utouch-wlcomp.1.gz"
  [qml6-module-utouch]="$lib/qt6/qml/UTouch/qmldir $lib/qt6/qml/UTouch/libutouchqmlplugin.so
                        $lib/qt6/qml/UTouch/UTouch.qmltypes"
)
root=$work/root
mkdir -p "$root"
declare -A owner=()
for pkg in "${!want[@]}"; do
  deb=$(ls "$out/${pkg}_"*.deb 2>/dev/null | head -n 1)
  if [ -z "$deb" ]; then
    problem "no package $pkg"
    continue
  fi
  while read -r path; do
    [ -n "$path" ] || continue
    case $path in */) continue ;; esac
    if [ -n "${owner[$path]:-}" ]; then
      problem "$path is in $pkg and ${owner[$path]}"
    fi
    owner[$path]=$pkg
  done < <(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./||')
  for path in ${want[$pkg]}; do
    [ "${owner[$path]:-}" = "$pkg" ] || problem "$pkg lacks $path"
  done
  dpkg-deb -x "$deb" "$root"
done
for deb in "$out"/*.deb; do
  case $deb in *-dbgsym_*) continue ;; esac
  name=$(dpkg-deb -f "$deb" Package)
  [ -n "${want[$name]:-}" ] || problem "unexpected package $name"
done

# the symbols files: dpkg-gensymbols already failed the build on a
# missing symbol; new ones must be listed too, and nothing else be in them
if grep -qE '^[-+@]' debian/*.symbols; then
  problem "debian/*.symbols hold lines that are no symbols (a pasted diff?)"
fi
if grep -q "^dpkg-gensymbols: warning: some new symbols" "$work/build.log"; then
  problem "debian/*.symbols lack new symbols (run scripts/package.sh --update-symbols)"
fi

# the packaged programs run with the packaged libraries
export LD_LIBRARY_PATH=$root/$lib
if ! "$root/usr/bin/utouch-replay" --summary data/recordings/touchscreen/drag-2.evemu \
     2>&1 | grep -q '^summary file=drag-2.evemu .* gestures=1 ended=1 drag/2=1$'; then
  problem "the packaged utouch-replay does not replay a recording"
fi
if ! "$root/usr/bin/utouch-gestured" --help >/dev/null 2>&1; then
  problem "the packaged utouch-gestured does not start"
fi
if ! grep -q '^module UTouch' "$root/$lib/qt6/qml/UTouch/qmldir"; then
  problem "the packaged qmldir does not declare the UTouch module"
fi
unset LD_LIBRARY_PATH

# lintian: no errors (doc/packaging.md lists the warnings left)
if lintian --allow-root --fail-on error \
     "$out"/*.changes >"$work/lintian.log" 2>&1; then
  grep -E '^[WI]:' "$work/lintian.log" >&2 || true
else
  cat "$work/lintian.log" >&2
  problem "lintian reports errors"
fi

if [ ${#problems[@]} -eq 0 ]; then
  echo "package: ok ($(ls "$out"/*.deb | wc -l) packages in ${out#$top/})"
else
  echo "package: FAILED (${#problems[@]} problems)"
  exit 1
fi
