#!/usr/bin/env bash
# run.sh -- build the libFuzzer targets with clang and run them.
#
# Usage: tests/fuzz/run.sh [-t SECONDS] [-n RUNS] [-l] [-b] [TARGET ...]
#   TARGET  parse check lint bench tables config equiv (default: every one)
#   -t S    stop each target after S seconds (libFuzzer -max_total_time)
#   -n N    stop each target after N executions (-runs); with -t, whichever
#           comes first.  Neither: 60 seconds.
#   -l      long: each target to its own number of executions unless -n
#           says otherwise: 10,000,000 for the parser and the readers
#           (parse bench tables config), 1,000,000 for the binder and lint
#           (check lint), 100,000 query pairs for equiv
#   -b      build only
#
# The library is rebuilt into build-fuzz/ with ASan+UBSan and fuzzer
# instrumentation; each target (tests/fuzz/fuzz_TARGET.c) links against it.
# Each target keeps its corpus in build-fuzz/corpus/TARGET (seeded from the
# repository's own test files and tests/fuzz/seeds/TARGET), so a long run
# starts where the last one stopped.  A crash, leak, sanitizer report or
# failed property stops that target: its input is left in
# build-fuzz/findings/TARGET/ and the script exits 1 after the others ran.
#
# One line per target goes to standard output and to
# build-fuzz/fuzz-summary.tsv: the executions, seconds, libFuzzer's final
# coverage (cov: edges, ft: features), the corpus size and the findings.
# The full log of the last run of a target is build-fuzz/logs/TARGET.log.
#
# Environment: FUZZ_NICE (default 10) is the niceness the fuzzers run at;
# FUZZ_JOBS (default 1) how many targets run at once; JOBS (default: the
# processors) how many files the build compiles at once.  The equiv target's own variables
# (FUZZ_EQUIV_*, fuzz_equiv.c) pass through; with -l, FUZZ_EQUIV_CONTINUE
# defaults to 1, so a long run logs every failure to
# build-fuzz/logs/equiv-findings.txt and goes on.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
B=build-fuzz
ALL=(parse check lint bench tables config equiv)

seconds="" runs="" build_only=0 long=0
while getopts "t:n:lb" opt; do
    case $opt in
        t) seconds=$OPTARG ;;
        n) runs=$OPTARG ;;
        l) long=1 ;;
        b) build_only=1 ;;
        *) echo "usage: $0 [-t SECONDS] [-n RUNS] [-l] [-b] [TARGET ...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${ALL[@]}")
for t in "${targets[@]}"; do
    [ -f "tests/fuzz/fuzz_$t.c" ] || { echo "fuzz: no target '$t' (${ALL[*]})" >&2; exit 2; }
done
[ -z "$seconds" ] && [ -z "$runs" ] && [ $long -eq 0 ] && seconds=60

long_runs() { # the executions of a long run of target $1
    case $1 in
        check|lint) echo 1000000 ;;
        equiv) echo 100000 ;;
        *) echo 10000000 ;;
    esac
}

# ---- build ------------------------------------------------------------------

SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
make --no-print-directory -j"${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}" BUILD=$B CC=clang CFLAGS="-O1 -g" \
    EXTRA_CFLAGS="$SAN -fsanitize=fuzzer-no-link" $B/libsquint.a >/dev/null

# extra sources a target links besides the library
extra_src() {
    case $1 in
        equiv) echo tests/fuzz/querygen.c ;;
    esac
}

build_target() { # build_target NAME
    local t=$1 bin=$B/fuzz_$1 src
    src="tests/fuzz/fuzz_$t.c $(extra_src "$t")"
    # shellcheck disable=SC2086
    if [ -x "$bin" ] && [ -z "$(find $src tests/fuzz/fuzz_util.h $B/libsquint.a -newer "$bin")" ]; then
        return 0
    fi
    # shellcheck disable=SC2086
    clang -std=c11 -D_DEFAULT_SOURCE -O1 -g $SAN -fsanitize=fuzzer -I. -I$B/gen \
        -Wall -Wextra -DFUZZ_ROOT="\"$ROOT\"" -o "$bin" $src $B/libsquint.a \
        -lsqlite3 -lz3 -lcjson -pthread
}
for t in "${targets[@]}"; do build_target "$t"; done
[ $build_only -eq 1 ] && exit 0

# ---- seeds and dictionaries ---------------------------------------------------

mkdir -p $B/seeds $B/logs
sql_seeds() { # every .sql test file, with an optional first byte
    local dir=$1 prefix=${2:-} f i=0
    rm -rf "$dir"
    mkdir -p "$dir"
    while IFS= read -r f; do
        i=$((i + 1))
        { printf "$prefix"; cat "$f"; } >"$dir/$i.sql"
    done < <(find tests examples -name '*.sql' -size -8k | sort)
}
seeds_of() { # seeds_of TARGET -> prints the seed directory
    local t=$1 d=$B/seeds/$1
    case $t in
        parse|check) [ -d "$d" ] || sql_seeds "$d" ;;
        lint) [ -d "$d" ] || sql_seeds "$d" '\001' ;;
        tables)
            rm -rf "$d"
            mkdir -p "$d"
            cp tests/fuzz/seeds/tables/* "$d/"
            find tests -name 'tables*.json' -size -16k -exec cp {} "$d/" \; ;;
        *)
            rm -rf "$d"
            mkdir -p "$d"
            if [ -d "tests/fuzz/seeds/$t" ]; then cp tests/fuzz/seeds/"$t"/* "$d/"; fi ;;
    esac
    echo "$d"
}

sed -n 's/^KW("\([A-Z_]*\)".*/"\1"/p' grammar/keywords.def > $B/sql.dict
printf '"("\n")"\n","\n"||"\n"->>"\n"=="\n"!="\n"<>"\n"/*"\n"--"\n"\x27"\n"\\""\n"["\n"x\x27"\n' >> $B/sql.dict
{
    for k in db_id query SQL question_id question difficulty hardness table_names_original \
        table_names column_names_original column_names column_types primary_keys foreign_keys \
        lint rules disable severity threshold ignore file items reason error warning info note \
        text number time boolean others '----- bird -----'; do
        printf '"\\"%s\\""\n' "$k"
    done
    sed -n 's/^LINT_RULE([A-Z_0-9]*, *"\([A-Z0-9]*\)", *"\([a-z-]*\)".*/"\\"\1\\""\n"\\"\2\\""/p' \
        passes/lint/rules.def
    # JSON escapes, and raw bytes as libFuzzer writes them (\xNN)
    printf '%s\n' '"\\u00"' '"\\ud800"' '"\\t"' '"[{"' '"}]"' '"\x09"' '"\x0a"' '"\x0d\x0a"' '"\xff"'
} > $B/json.dict

dict_of() {
    case $1 in
        parse|check|lint) echo "-dict=$B/sql.dict -max_len=4096" ;;
        bench|tables|config) echo "-dict=$B/json.dict -max_len=4096" ;;
        equiv) echo "-max_len=512" ;;
    esac
}

# ---- run ----------------------------------------------------------------------

# Faster allocation under ASan (a small quarantine, no fill of new blocks);
# leaks are still checked.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16:max_malloc_fill_size=0:malloc_context_size=20:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
nice_level=${FUZZ_NICE:-10}
# equiv: a long run logs each failure and goes on, so that it counts them
# all; a short one (smoke, CI) stops at the first
export FUZZ_EQUIV_LOG=${FUZZ_EQUIV_LOG:-$ROOT/$B/logs/equiv-findings.txt}
[ $long -eq 1 ] && export FUZZ_EQUIV_CONTINUE=${FUZZ_EQUIV_CONTINUE:-1}
run_target() { # run_target TARGET: its summary line; 1 when it stopped on a finding
    local t=$1 corpus findings before seeds limits log start found elapsed done_line execs cov ft units n_find \
        extra line
    corpus=$B/corpus/$t
    findings=$B/findings/$t
    mkdir -p "$corpus" "$findings"
    # slow-unit-* files are inputs over 10 s: kept to look at, not failures
    count_findings() { find "$findings" -type f ! -name 'slow-unit-*' | wc -l; }
    before=$(count_findings)
    seeds=$(seeds_of "$t")
    limits=()
    [ -n "$seconds" ] && limits+=(-max_total_time="$seconds")
    if [ -n "$runs" ]; then limits+=(-runs="$runs")
    elif [ $long -eq 1 ]; then limits+=(-runs="$(long_runs "$t")"); fi
    log=$B/logs/$t.log
    start=$(date +%s)
    # shellcheck disable=SC2046
    if nice -n "$nice_level" $B/fuzz_"$t" "${limits[@]}" -timeout=60 -rss_limit_mb=3072 \
        -artifact_prefix="$findings/" -print_final_stats=1 $(dict_of "$t") \
        "$corpus" "$seeds" >"$log" 2>&1; then
        found=0
    else
        found=1
    fi
    elapsed=$(($(date +%s) - start))
    done_line=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1 || true)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    [ -z "$execs" ] && execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$done_line")
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$done_line")
    units=$(find "$corpus" -type f | wc -l)
    n_find=$(($(count_findings) - before))
    extra=$(grep -E '^fuzz_[a-z]+ stats:' "$log" | tail -1 | sed 's/^fuzz_[a-z]* stats: *//' || true)
    line=$(printf '%s\t%s\truns=%s\tseconds=%s\tcov=%s\tft=%s\tcorpus=%s\tfindings=%s%s' \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$t" "${execs:-0}" "$elapsed" "${cov:-?}" "${ft:-?}" \
        "$units" "$n_find" "${extra:+	$extra}")
    echo "fuzz: $line"
    echo "$line" >> $B/fuzz-summary.tsv
    if [ $found -eq 1 ]; then
        echo "fuzz: $t stopped on a finding (log: $log, input in $findings/):" >&2
        grep -E 'ERROR:|SUMMARY:|runtime error|fuzz_[a-z]+:' "$log" | head -8 >&2 || true
    fi
    return $found
}

# FUZZ_JOBS targets at a time (default 1), their output printed in the
# order of the targets once all have ended
jobs_n=${FUZZ_JOBS:-1}
status=0
if [ "$jobs_n" -le 1 ]; then
    for t in "${targets[@]}"; do run_target "$t" || status=1; done
    exit $status
fi
for t in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_n" ]; do wait -n || true; done
    (
        if run_target "$t" >"$B/logs/$t.out" 2>&1; then echo 0; else echo 1; fi >"$B/logs/$t.status"
    ) &
done
wait
for t in "${targets[@]}"; do
    cat "$B/logs/$t.out"
    [ "$(cat "$B/logs/$t.status" 2>/dev/null || echo 1)" = 0 ] || status=1
done
exit $status
