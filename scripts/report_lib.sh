# report_lib.sh -- what the report scripts (scripts/*_report.sh) share;
# sourced, not run, after `set -eu`.
#
# Sets from the script's first argument (the build directory, default
# build) and SQUINT_CORPORA (default ../shared/corpora): build, sq (the
# squint binary), root (the corpora), S (Spider dev), B (BIRD dev).
build=${1:-build}
sq=$build/squint
root=${SQUINT_CORPORA:-../shared/corpora}
S=$root/spider-dev
B=$root/bird-dev
#
# report_needs NAME DIR...: stop the script (exit 0, with a message on
# stderr) when a corpus folder it measures, or python3, is missing: a
# report of nothing is no report, and no failure either.
report_needs() {
    local name=$1 dir
    shift
    for dir in "$@"; do
        if [ ! -d "$dir" ]; then
            echo "$name: ${dir%/*} has no ${dir##*/}: nothing to measure" >&2
            exit 0
        fi
    done
    if ! command -v python3 >/dev/null; then
        echo "$name: python3 is needed for the numbers (apt-get install python3)" >&2
        exit 0
    fi
}
