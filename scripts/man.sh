#!/bin/sh
# man.sh -- write the man pages of squint into DIR: squint(1) and one page
# per command (squint-lint(1), ...), each made by scripts/help2man.awk from
# the command's own --help, so that a page says what --help says.
#
# usage: scripts/man.sh SQUINT DIR
set -eu
SQUINT=$1
DIR=$2
HERE=$(dirname "$0")
VERSION=$("$SQUINT" version | sed 's/^squint //')
mkdir -p "$DIR"

page() { # page NAME SUMMARY COMMAND-WORDS...: DIR/NAME.1 from the words' --help
    name=$1 summary=$2
    shift 2
    "$SQUINT" "$@" --help | awk -f "$HERE/help2man.awk" -v page="$name" -v summary="$summary" \
        -v version="$VERSION" >"$DIR/$name.1.tmp"
    mv "$DIR/$name.1.tmp" "$DIR/$name.1"
}

# squint(1), from 'squint --help'
"$SQUINT" --help | awk -f "$HERE/help2man.awk" -v page=squint \
    -v summary="a compiler's view of SQL for text-to-SQL benchmarks" -v version="$VERSION" >"$DIR/squint.1"

# a page per command: the commands and their summaries as 'squint help' lists them
"$SQUINT" help | sed -n 's/^  \([a-z][a-z]*\)  *\(.*\)$/\1	\2/p' |
while IFS='	' read -r cmd summary; do
    case $cmd in help) continue ;; version) page squint-version "$summary" version; continue ;; esac
    page "squint-$cmd" "$summary" "$cmd"
done

# the commands within commands
"$SQUINT" llm --help | sed -n 's/^  \(run\|import\)  *\(.*\)$/\1	\2/p' |
while IFS='	' read -r sub summary; do
    page "squint-llm-$sub" "$summary" llm "$sub"
done
"$SQUINT" template --help | sed -n 's/^  \(extract\|sample\)  *\(.*\)$/\1	\2/p' |
while IFS='	' read -r sub summary; do
    page "squint-template-$sub" "$summary" template "$sub"
done
page squint-fixture-llm "test databases written by a language model, checked by squint" fixture --llm
