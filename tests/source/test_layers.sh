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

# includes: one pass of awk over every quoted #include (file:line:text from
# grep), the repository's files (git ls-files) being the paths that exist
bad=$(git ls-files '*.c' '*.h' '*.y' '*.l' '*.def' | xargs grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' |
    awk -v layers="${LAYERS[*]}" '
        BEGIN { n = split(layers, L, " ")
                while (("git ls-files" | getline f) > 0) tracked[f] = 1 }
        function rank(p,   i) { for (i = 1; i <= n; i++) if (index(p, L[i] "/") == 1) return i; return 0 }
        { f = substr($0, 1, index($0, ":") - 1)
          inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
          if (inc == "sql.tab.h" || inc == "sql.lex.h") next
          if (!(inc in tracked)) { print "# " f ": #include \"" inc "\" is not a path from the repository root"; bad++; next }
          fr = rank(f); ir = rank(inc)
          if (fr && ir && ir > fr) { print "# " f " (" L[fr] ") includes " inc " (" L[ir] ")"; bad++ } }
        END { print bad + 0 }')
count=${bad##*$'\n'}
[ "$count" = "$bad" ] || printf '%s\n' "${bad%$'\n'*}"
if [ "$count" -eq 0 ]; then echo "ok - includes: root-relative, none against the layers"
else echo "not ok - includes: $count against the rules above"; fi

objs=$(git ls-files '*.c' | sed -n "s|^\(.*\)\.c\$|$BUILD/\1.o|p" | while read -r o; do [ -f "$o" ] && echo "$o"; done)
if [ -z "$objs" ] || ! command -v nm >/dev/null; then
    echo "ok - symbols: skipped (no object files in $BUILD, or no nm)"
    exit 0
fi
# one nm over every object for the definitions and one for the uses, each
# line "OBJECT: ..." (-A); the layer of an object is its source's
layer_of='function rank(p,   i) { sub("^" build "/", "", p); for (i = 1; i <= n; i++) if (index(p, L[i] "/") == 1) return i; return 0 }'
# shellcheck disable=SC2086
against=$( { nm -A -g --defined-only $objs | sed 's/^/D /'; nm -A -u $objs | sed 's/^/U /'; } |
    awk -v layers="${LAYERS[*]}" -v build="$BUILD" "BEGIN { n = split(layers, L, \" \") } $layer_of"'
        { o = $2; sub(/:.*$/, "", o); r = rank(o); if (!r) next
          if ($1 == "D" && NF == 4) { rk[$4] = r; def[$4] = o }
          if ($1 == "U") { u_sym[++nu] = $NF; u_rank[nu] = r; u_obj[nu] = o } }
        END { for (i = 1; i <= nu; i++) { s = u_sym[i]
                  if ((s in rk) && rk[s] > u_rank[i]) print "# " u_obj[i] " uses " s " from " def[s] } }')
if [ -z "$against" ]; then echo "ok - symbols: no object uses a higher layer's symbol"
else printf '%s\n' "$against"; echo "not ok - symbols: $(grep -c . <<<"$against") uses against the layers"; fi
