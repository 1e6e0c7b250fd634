#!/usr/bin/env bash
# test_layers.sh -- the library's layering holds (TAP).
#
# The layers, lowest first: runtime grammar frontend ir passes backend api cli.
# A file may include and call only its own layer and those below it
# (docs/architecture.md).  Checked two ways:
#   includes  every quoted #include names a path from the repository root
#             that exists (the generated sql.tab.h and sql.lex.h excepted),
#             and none points at a higher layer;
#   symbols   no object file of $BUILD (one per source file of the
#             repository) uses a symbol that a higher layer's defines (nm).
set -u
cd "$(dirname "$0")/../.."
: "${BUILD:=build}"
LAYERS=(runtime grammar frontend ir passes backend api cli)

rank() { # rank PATH -> the layer's index, or nothing outside the layers
    local i
    for i in "${!LAYERS[@]}"; do
        case $1 in "${LAYERS[$i]}"/*) echo "$i"; return ;; esac
    done
}

bad=0
while IFS= read -r f; do
    fr=$(rank "$f")
    while IFS= read -r inc; do
        case $inc in sql.tab.h|sql.lex.h) continue ;; esac
        if [ ! -f "$inc" ]; then
            echo "# $f: #include \"$inc\" is not a path from the repository root"
            bad=$((bad + 1)); continue
        fi
        ir=$(rank "$inc")
        if [ -n "$fr" ] && [ -n "$ir" ] && [ "$ir" -gt "$fr" ]; then
            echo "# $f (${LAYERS[$fr]}) includes $inc (${LAYERS[$ir]})"
            bad=$((bad + 1))
        fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(git ls-files '*.c' '*.h' '*.y' '*.l' '*.def')
if [ $bad -eq 0 ]; then echo "ok - includes: root-relative, none against the layers"
else echo "not ok - includes: $bad against the rules above"; fi

objs=$(git ls-files '*.c' | sed -n "s|^\(.*\)\.c\$|$BUILD/\1.o|p" | while read -r o; do [ -f "$o" ] && echo "$o"; done)
if [ -z "$objs" ] || ! command -v nm >/dev/null; then
    echo "ok - symbols: skipped (no object files in $BUILD, or no nm)"
    exit 0
fi
defs=$(mktemp) uses=$(mktemp)
trap 'rm -f "$defs" "$uses"' EXIT
for o in $objs; do
    r=$(rank "${o#"$BUILD"/}")
    [ -n "$r" ] || continue
    nm -g --defined-only "$o" | awk -v r="$r" -v o="$o" 'NF == 3 { print $3, r, o }' >>"$defs"
    nm -u "$o" | awk -v r="$r" -v o="$o" '{ print $NF, r, o }' >>"$uses"
done
against=$(awk 'NR == FNR { rk[$1] = $2; def[$1] = $3; next }
               ($1 in rk) && rk[$1] > $2 { print "# " $3 " uses " $1 " from " def[$1] }' "$defs" "$uses")
if [ -z "$against" ]; then echo "ok - symbols: no object uses a higher layer's symbol"
else printf '%s\n' "$against"; echo "not ok - symbols: $(grep -c . <<<"$against") uses against the layers"; fi
