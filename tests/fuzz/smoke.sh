#!/usr/bin/env bash
# smoke.sh -- a short run of every libFuzzer target, for CI.
#
# Usage: tests/fuzz/smoke.sh [SECONDS] [TARGET ...]   (default 30 s each)
# Needs clang with its libFuzzer runtime (scripts/deps.sh clang
# libclang-rt-14-dev) and installs nothing: without them it prints why it
# skips and exits 0, so a machine without clang still passes.  Otherwise it
# runs tests/fuzz/run.sh -t SECONDS, FUZZ_JOBS targets at a time (default:
# the processors), and exits with its status (1 when a target found
# something; the input is in build-fuzz/findings/TARGET/).
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-30}
[ $# -gt 0 ] && shift

skip() {
    echo "fuzz-smoke: skipped: $1 (scripts/deps.sh clang libclang-rt-14-dev installs it)"
    exit 0
}
command -v clang >/dev/null 2>&1 || skip "clang not found"
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
    >"$probe/p.c"
clang -fsanitize=fuzzer,address,undefined -o "$probe/p" "$probe/p.c" >/dev/null 2>&1 ||
    skip "clang cannot link a libFuzzer target (no libclang-rt)"
# the targets side by side, one per processor
FUZZ_JOBS=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)} exec tests/fuzz/run.sh -t "$seconds" "$@"
