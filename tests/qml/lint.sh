#!/bin/sh
# qmllint against the built UTouch module (test qml-lint): a correct file
# (lint.qml) gives no message at all; a wrong one (lint-wrong.qml) the
# misspelt property and the unknown enum value, found through UTouch.qmltypes.
# usage: lint.sh QMLLINT IMPORT-DIR CORRECT.qml WRONG.qml
qmllint=$1 import=$2 good=$3 bad=$4
out=$("$qmllint" -I "$import" "$good" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ] || [ -n "$out" ]; then
  echo "FAIL: qmllint reported $good (exit $rc)"
  exit 1
fi
out=$("$qmllint" -I "$import" "$bad" 2>&1)
printf '%s\n' "$out"
if ! printf '%s\n' "$out" | grep -q 'no property "toches" exists' ||
   ! printf '%s\n' "$out" | grep -q 'Property "Swipe" not found on type "UTouchGesture"'; then
  echo "FAIL: qmllint missed the wrong property or enum value of $bad"
  exit 1
fi
echo "ok: qmllint knows GestureArea, Subscription, Gesture and their members"
