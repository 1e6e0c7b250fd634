#!/usr/bin/env bash
# run.sh -- run the benchmarks in bench/ and print their ratios.
#
# Usage: bench/run.sh BUILD_DIR [ROUNDS]
# Every benchmark compares squint with a reference measured in the same run
# (SQLite itself) and reports the ratio; absolute times alone mean little on
# a shared machine.  Skips with a message when ../shared/corpora is absent.
set -eu
BUILD=${1:-build}
ROUNDS=${2:-5}
"$BUILD/tools/bench_parse" "$ROUNDS"
