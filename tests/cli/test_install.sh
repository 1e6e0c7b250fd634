#!/usr/bin/env bash
# test_install.sh -- `make install` and `make uninstall` into a scratch
# DESTDIR (docs/install.md): the binary, a man page for squint and for
# every command (each generated from that command's --help, and each one
# groff reads without a warning), and the bash completion; `man
# squint-lint` finds and shows its page; the completion completes
# commands and options from the installed squint; uninstall leaves
# nothing.  Prints TAP lines.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
BUILD=${BUILD:-build}
D=$TMP/dest
P=/usr/local
MAN=$D$P/share/man/man1

if ! ${MAKE:-make} -s install BUILD="$BUILD" DESTDIR="$D" PREFIX=$P >"$TMP/make.out" 2>&1; then
    not_ok "make install"; tail -5 "$TMP/make.out"; exit 0
fi
ok "make install DESTDIR=... PREFIX=$P"
[ -x "$D$P/bin/squint" ] && ok "... the binary in bin/" || not_ok "... the binary in bin/"
[ "$("$D$P/bin/squint" --version)" = "$("$SQUINT" --version)" ] && ok "... which runs" || not_ok "... which runs"
[ -f "$D$P/share/bash-completion/completions/squint" ] && ok "... the bash completion" ||
    not_ok "... the bash completion"
[ -z "$(find "$D" -name '*.a' -o -name '*.h' -o -name '*.pc')" ] && ok "... and no library (it is internal)" ||
    not_ok "... and no library"

# a page per command, each from its --help
cmds=$("$SQUINT" help | awk '/^commands:/{f=1; next} f && /^  [a-z]+ /{print $1}' | grep -v '^help$')
missing=""
for c in squint $(for c in $cmds; do echo "squint-$c"; done) squint-llm-run squint-llm-import squint-fixture-llm; do
    [ -s "$MAN/$c.1" ] || missing="$missing $c"
done
[ -z "$missing" ] && ok "man pages: squint(1) and one per command ($(ls "$MAN" | wc -l) pages)" ||
    not_ok "man pages missing:$missing"
if command -v groff >/dev/null; then
    bad=""
    for f in "$MAN"/*.1; do
        [ -z "$(groff -man -Tutf8 -ww -z "$f" 2>&1)" ] || bad="$bad $(basename "$f")"
    done
    [ -z "$bad" ] && ok "man pages: groff reads every one without a warning" || not_ok "man pages: groff warns on$bad"
else
    echo "ok - man pages: groff skipped (none here; scripts/deps.sh installs groff-base)"
fi
# every option --help lists is in the page, so the two cannot drift
drift=""
for c in $cmds; do
    [ "$c" = version ] && continue
    page=$(groff -man -Tutf8 "$MAN/squint-$c.1" 2>/dev/null | sed 's/.\x08//g; s/‐/-/g')
    for o in $("$SQUINT" $c --help | sed -n 's/^ \{2,6\}\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p'); do
        printf '%s\n' "$page" | grep -q -- "$o" || drift="$drift $c:$o"
    done
done
[ -z "$drift" ] && ok "man pages: every option of every --help is in its page" || not_ok "man pages lack:$drift"

if command -v man >/dev/null; then
    MANPATH=$D$P/share/man MANWIDTH=80 man -P cat squint-lint >"$TMP/lint.man" 2>"$TMP/man.err"
    grep -q 'SQUINT-LINT(1)' "$TMP/lint.man" && grep -q -- '--severity' "$TMP/lint.man" &&
        ok "man squint-lint shows the page" || { not_ok "man squint-lint shows the page"; head -3 "$TMP/man.err"; }
    [ "$(MANPATH=$D$P/share/man man -w squint)" = "$MAN/squint.1" ] && ok "man -w squint finds squint(1)" ||
        not_ok "man -w squint finds squint(1)"
else
    echo "ok - man squint-lint: skipped (no man here; scripts/deps.sh installs man-db)"
fi

# the completion, asking the installed squint
complete_words() { # complete_words WORD...: what the completion offers for the last word
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _squint; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$D$P/share/bash-completion/completions/squint" "$D$P/bin/squint" "$@"
}
[ "$(complete_words li)" = lint ] && ok "completion: a command" || not_ok "completion: a command ($(complete_words li))"
[ "$(complete_words lint --sev)" = --severity ] && ok "completion: an option of the command" ||
    not_ok "completion: an option ($(complete_words lint --sev))"
[ "$(complete_words llm run --end)" = --endpoint ] && ok "completion: an option of a command within a command" ||
    not_ok "completion: llm run's option"
[ -z "$(complete_words lint x)" ] && ok "completion: an operand is left to file names" ||
    not_ok "completion: an operand"

if ${MAKE:-make} -s uninstall BUILD="$BUILD" DESTDIR="$D" PREFIX=$P >"$TMP/make.out" 2>&1 &&
    [ -z "$(find "$D" -type f)" ]
then ok "make uninstall leaves no file"
else not_ok "make uninstall leaves no file"; find "$D" -type f | head -5; fi
