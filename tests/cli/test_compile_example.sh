#!/usr/bin/env bash
# test_compile_example.sh -- the example project of squint compile
# (examples/compile, issue 22): its squint.json compiled, the generated C
# built with the test program under -std=c11 -Wall -Wextra -Werror
# -pedantic (and ASan+UBSan when they link here), and run against a real
# SQLite database made by the project's migrations.  Prints TAP lines:
#   - squint compile -f squint.json exits 0 and writes queries.json,
#     shop.h and shop.c; the manifest holds every annotated query;
#   - the generated source compiles alone without a warning;
#   - test_shop's own checks, one TAP line each (every generated function
#     called, its results and NULL handling checked), then one line for
#     its exit status and its count of checks.
# The example is copied to $TMP first: nothing is written into the repo.
# Without cc or sqlite3.h, the C part is skipped with a line saying why.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
E=$TMP/compile
cp -R examples/compile "$E" || { not_ok "compile example: copy examples/compile"; exit 1; }
rm -rf "$E/gen" "$E/test_shop"   # a hand build's leftovers

# ---- squint compile --------------------------------------------------------
expect_exit 0 "compile example: squint compile -f squint.json" -- "$SQUINT" compile -f "$E/squint.json"
cp "$TMP/err" "$TMP/compile.err"
for f in queries.json shop.h shop.c; do
    if [ -s "$E/gen/$f" ]; then ok "compile example: gen/$f written"; else not_ok "compile example: gen/$f written"; fi
done
if grep -q "error" "$TMP/compile.err"; then not_ok "compile example: no error"; head -5 "$TMP/compile.err"
else ok "compile example: no error"; fi
want=$(cat "$E"/queries/*.sql | grep -c '^-- name: ')
got=$(grep -o '"cmd": *"' "$E/gen/queries.json" 2>/dev/null | wc -l)
if [ "$want" -ge 20 ] && [ "$got" -eq "$want" ]; then ok "compile example: all $want annotated queries in the manifest"
else not_ok "compile example: $got queries in the manifest, $want annotated"; fi
[ -s "$E/gen/shop.c" ] || exit 1

# ---- the C ----------------------------------------------------------------------
if ! c_toolchain; then echo "ok - compile example: the C part skipped ($C_MISSING)"; exit 0; fi
how=$HOW
expect_exit 0 "compile example: gen/shop.c compiles alone (${CFLAGS[*]})" -- \
    cc "${CFLAGS[@]}" -c -o "$TMP/shop.o" "$E/gen/shop.c"
expect_exit 0 "compile example: test_shop.c and gen/shop.c build $how" -- \
    cc "${CFLAGS[@]}" "${SAN[@]}" -I"$E/gen" -o "$E/test_shop" "$E/test_shop.c" "$E/gen/shop.c" -lsqlite3
[ -x "$E/test_shop" ] || { head -20 "$TMP/err"; exit 1; }

# ---- run it ---------------------------------------------------------------------
"$E/test_shop" "$E"/migrations/*.sql >"$TMP/run.out" 2>"$TMP/run.err"
rc=$?
sed -n -e 's/^ok - /ok - compile example: test_shop: /p' -e 's/^not ok - /not ok - compile example: test_shop: /p' "$TMP/run.out"
n=$(grep -cE '^(not )?ok - ' "$TMP/run.out")
failed=$(grep -c '^not ok - ' "$TMP/run.out")
if [ $rc = 0 ] && [ "$n" -gt 0 ] && [ "$failed" = 0 ] && [ ! -s "$TMP/run.err" ]; then
    ok "compile example: test_shop passes its $n checks $how"
else
    not_ok "compile example: test_shop exits $rc, $failed of $n checks failed $how"
    head -30 "$TMP/run.err"
fi
