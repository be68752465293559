#!/usr/bin/env bash
# Install the Debian 12 packages utouch needs, but only those that are missing.
# Usage: scripts/deps.sh [build|test|package]   (test adds the test-only
# packages and the Debian packaging tools; package: build + packaging tools)
set -euo pipefail
want=(build-essential meson ninja-build pkg-config python3
      libevdev-dev libmtdev-dev libyaml-dev libx11-dev libxi-dev libxext-dev libxtst-dev libxrandr-dev
      libwlroots-dev wayland-protocols libwayland-dev libwayland-bin libxkbcommon-dev
      libpixman-1-dev
      libcairo2-dev   # cairo: utouch-plot (optional, -Dplot=disabled)
      # Qt 6 Quick: the UTouch QML module (optional, -Dqml=disabled);
      # qt6-declarative-dev-tools has qmltyperegistrar (its .qmltypes) and qmllint
      g++ qt6-declarative-dev qt6-declarative-dev-tools qt6-base-dev qt6-base-private-dev
      libgl-dev)
if [ "${1:-build}" = test ] || [ "${1:-build}" = package ]; then
  # scripts/package.sh: build the Debian packages and check them
  want+=(debhelper dpkg-dev lintian)
fi
if [ "${1:-build}" = test ]; then
  # cmocka for unit tests; clang + compiler-rt for the libFuzzer targets;
  # libgrail/libframe only build ../shared/tools/ref-grail (the oracle);
  # emscripten, nodejs and chromium build and test utouch on the web.
  want+=(libcmocka-dev clang libclang-rt-14-dev libgrail-dev libframe-dev valgrind
         xserver-xorg-core xserver-xorg-video-dummy xserver-xorg-dev
         emscripten nodejs chromium
         qml6-module-qtquick qml6-module-qtqml-workerscript qml6-module-qtquick-window
         qml6-module-qttest qt6-qpa-plugins
         # wlcomp-toolkits: real GTK 3 and Qt 6 Wayland clients on utouch-wlcomp
         # (about 3 MB: GTK 3 itself comes with chromium, Qt 6 with the QML module)
         python3-gi gir1.2-gtk-3.0 qml-qt6 qt6-wayland
         node-typescript)   # tsc: type-checks web/*.d.ts (web-npm)
  # npm packs and installs the web package (web-npm); a node that brings its
  # own npm (e.g. a nodesource build, which conflicts with Debian's) keeps it
  command -v npm >/dev/null 2>&1 || want+=(npm)
fi
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}" >&2
  if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing packages and not root; install them with: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
