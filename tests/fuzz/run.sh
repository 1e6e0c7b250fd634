#!/usr/bin/env bash
# run.sh -- build the libFuzzer target with clang and run it.
#
# Usage: tests/fuzz/run.sh [SECONDS]   (default 60)
# The library is rebuilt into build-fuzz/ with ASan+UBSan and fuzzer
# instrumentation.  Seeds: the repo's own .sql test files plus SQL keywords
# as a dictionary.  Exits non-zero if the fuzzer finds a crash; the crashing
# input is left in build-fuzz/ (crash-*).
set -euo pipefail
SECONDS_TO_RUN=${1:-60}
cd "$(dirname "$0")/../.."
B=build-fuzz
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
make --no-print-directory BUILD=$B CC=clang CFLAGS="-O1 -g" \
    EXTRA_CFLAGS="$SAN -fsanitize=fuzzer-no-link" $B/libsquint.a >/dev/null
clang -std=c11 -D_DEFAULT_SOURCE -O1 -g $SAN -fsanitize=fuzzer -I$B/gen -Igrammar \
    -o $B/fuzz_parse tests/fuzz/fuzz_parse.c $B/libsquint.a
mkdir -p $B/corpus $B/seeds
find tests examples -name '*.sql' -exec cp {} $B/seeds/ \; 2>/dev/null || true
sed -n 's/^KW("\([A-Z_]*\)".*/"\1"/p' grammar/keywords.def > $B/sql.dict
printf '"("\n")"\n","\n"||"\n"->>"\n"=="\n"!="\n"<>"\n"/*"\n"--"\n"\x27"\n"\\""\n"["\n"x\x27"\n' >> $B/sql.dict
cd $B
./fuzz_parse -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=2048 \
    -dict=sql.dict -print_final_stats=1 corpus seeds 2>&1 | tail -15
