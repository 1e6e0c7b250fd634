#!/usr/bin/env bash
# test_help.sh -- every command's --help states how it can end: its exit
# statuses, and the one way that is none of them (out of memory), so that
# no status goes undocumented (issue 18: "no undocumented 114").  Prints
# TAP lines.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
cmds=$("$SQUINT" help | awk '/^commands:/{f=1; next} f && /^  [a-z]+ /{print $1}' | grep -v -e '^help$' -e '^version$')
[ -n "$cmds" ] && ok "help: commands listed" || not_ok "help: commands listed"
for c in $cmds; do
    "$SQUINT" "$c" --help >"$TMP/out" 2>&1
    if grep -q '^exit status: ' "$TMP/out" && grep -q "out of memory ends any command" "$TMP/out"; then
        ok "help: $c states its exit statuses"
    else
        not_ok "help: $c states its exit statuses"
    fi
done
