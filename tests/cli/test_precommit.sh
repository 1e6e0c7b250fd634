#!/usr/bin/env bash
# test_precommit.sh -- squint's pre-commit hooks (.pre-commit-hooks.yaml,
# docs/pre-commit.md) run for real: pre-commit in a scratch benchmark
# repository, with a scratch hook repository holding this tree's hooks
# file, squint on PATH.  squint-lint and squint-check fail on a bad query
# and pass once it is fixed; an unrelated package.json is never given to
# squint; a commit is refused while the hook fails.  Prints TAP lines;
# skips with a message when pre-commit or git is missing.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
if ! command -v pre-commit >/dev/null || ! command -v git >/dev/null; then
    echo "ok - pre-commit hooks: skipped (no pre-commit or git here; scripts/deps.sh pre-commit installs it)"
    exit 0
fi
export PRE_COMMIT_HOME=$TMP/pre-commit-home GIT_CONFIG_GLOBAL=$TMP/gitconfig GIT_CONFIG_NOSYSTEM=1
export PATH="$(cd "$(dirname "$SQUINT")" && pwd):$PATH"
git config --global user.email test@example.com && git config --global user.name test
git config --global init.defaultBranch main

# the hook repository: this tree's hooks file, committed
H=$TMP/hooks
mkdir -p "$H" && cp .pre-commit-hooks.yaml "$H/" && git -C "$H" init -q && git -C "$H" add . &&
    git -C "$H" commit -qm hooks
REV=$(git -C "$H" rev-parse HEAD)

# the benchmark repository
B=$TMP/bench
mkdir -p "$B" && cp examples/eval-demo/schema.sql "$B/schema.ddl"
printf 'SELECT name FROM authors;\n' >"$B/good.sql"
printf 'SELECT nme FROM authors;\n' >"$B/bad.sql"
printf '{"name": "not a benchmark", "version": "1.0.0"}\n' >"$B/package.json"
cat >"$B/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $H
    rev: $REV
    hooks:
      - id: squint-lint
        args: [--schema, schema.ddl, --no-data]
      - id: squint-check
        args: [--schema, schema.ddl]
YAML
git -C "$B" init -q && git -C "$B" add . && git -C "$B" commit -qm start --no-verify

(cd "$B" && pre-commit run --all-files) >"$TMP/run1" 2>&1
rc=$?
[ $rc = 1 ] && ok "pre-commit run: fails on the bad query" || { not_ok "pre-commit run: fails on the bad query (exit $rc)"; tail -5 "$TMP/run1"; }
grep -q '^squint lint\.*Failed' "$TMP/run1" && ok "... squint-lint failed" || not_ok "... squint-lint failed"
grep -q '^squint check\.*Failed' "$TMP/run1" && ok "... squint-check failed" || not_ok "... squint-check failed"
grep -q "bad.sql:1:8: .*no such column: nme" "$TMP/run1" && ok "... naming the column, at its place" ||
    not_ok "... naming the column"
grep -q 'package.json' "$TMP/run1" && not_ok "... package.json was given to squint" ||
    ok "... package.json was not given to squint (files pattern)"

printf 'SELECT name FROM authors;\n' >"$B/bad.sql"
(cd "$B" && pre-commit run --all-files) >"$TMP/run2" 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^squint lint\.*Passed' "$TMP/run2" && grep -q '^squint check\.*Passed' "$TMP/run2" &&
    ok "pre-commit run: both hooks pass once it is fixed" || { not_ok "pre-commit run: both pass once fixed (exit $rc)"; tail -5 "$TMP/run2"; }

# a commit while the hook fails
(cd "$B" && pre-commit install) >"$TMP/install" 2>&1 || { cat "$TMP/install"; }
printf 'SELECT nme FROM authors;\n' >"$B/new.sql"
git -C "$B" add new.sql
if git -C "$B" commit -qm "a bad query" >"$TMP/commit" 2>&1; then not_ok "git commit: refused while the hook fails"; cat "$TMP/install" "$TMP/commit"
else ok "git commit: refused while the hook fails"; fi
[ "$(git -C "$B" rev-list --count HEAD)" = 1 ] && ok "... nothing committed" || not_ok "... nothing committed"
