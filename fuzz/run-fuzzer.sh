#!/bin/sh
# Run a libFuzzer target for a while on a copy of its seed corpus.
# libFuzzer adds new inputs to its first corpus directory; copying the
# seeds to a temporary directory keeps the source tree clean.  Crash
# reproducers (crash-*, leak-*, timeout-*) are written to the current
# directory (the build directory under meson test).
#
# usage: run-fuzzer.sh FUZZER SEED-DIR SECONDS [libFuzzer options...]
set -eu
if [ $# -lt 3 ]; then
	echo "usage: $0 FUZZER SEED-DIR SECONDS [libFuzzer options...]" >&2
	exit 2
fi
fuzzer=$1
seeds=$2
seconds=$3
shift 3

corpus=$(mktemp -d "${TMPDIR:-/tmp}/utouch-fuzz.XXXXXX")
trap 'rm -rf "$corpus"' EXIT INT TERM
cp "$seeds"/* "$corpus"/
# the targets misuse the API on purpose: its "client bug" messages would
# only slow the run down and bury the report (UTOUCH_DEBUG=error shows them)
UTOUCH_DEBUG=${UTOUCH_DEBUG:-none}
export UTOUCH_DEBUG
"$fuzzer" -max_total_time="$seconds" -print_final_stats=1 "$@" "$corpus"
