#!/usr/bin/env bash
# test_ci_formats.sh -- lint's and check's output formats for CI and
# editors (docs/cli.md, "Output formats"), each checked against the JSON
# output of the same run: gcc's lines parsed with the regular expressions
# of the gcc problem matchers that GitHub Actions and VS Code use; GitHub
# Actions workflow commands parsed by their syntax and decoded; JSON lines
# equal to the JSON's findings; JUnit XML parsed, with a suite per file, a
# failure per finding and a passing case for a clean file.  Prints TAP.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
S=examples/eval-demo/schema.sql
W=tests/cli/fixtures/compile/warn.sql
CLEAN=$TMP/clean.sql
printf 'SELECT name FROM authors WHERE author_id = 1;\n' >"$CLEAN"
BAD=$TMP/bad.sql
printf 'SELEC 1;\nSELECT nope FROM authors;\nSELECT a."50%%,x:y" FROM authors a;\n' >"$BAD"   # a message with %% , and :

for f in json gcc github jsonl json-lines junit; do
    "$SQUINT" lint --no-data --schema $S -f $f $W "$CLEAN" >"$TMP/lint.$f" 2>"$TMP/err"
    [ $? = 1 ] && ok "lint -f $f: exit 1 on findings" || not_ok "lint -f $f: exit 1 on findings"
    "$SQUINT" check --schema $S -f $f "$BAD" "$CLEAN" >"$TMP/check.$f" 2>"$TMP/err"
    [ $? = 1 ] && ok "check -f $f: exit 1 on errors" || not_ok "check -f $f: exit 1 on errors"
done
cmp -s "$TMP/lint.jsonl" "$TMP/lint.json-lines" && ok "json-lines is jsonl" || not_ok "json-lines is jsonl"

python3 - "$TMP" <<'PY'
import json, re, sys, urllib.parse
import xml.etree.ElementTree as ET
tmp = sys.argv[1]
def tap(ok, name):
    print(("ok - " if ok else "not ok - ") + name)

# the problem matchers' regular expressions: GitHub Actions' gcc matcher
# (as setup actions ship it) and VS Code's $gcc
MATCHERS = {
    "GitHub gcc matcher": r"^(.*?):(\d+):(\d*):?\s+(?:fatal\s+)?(warning|error):\s+(.*)$",
    "VS Code $gcc": r"^(.*):(\d+):(\d+):\s+(?:fatal\s+)?(warning|error):\s+(.*)$",
}

def lint_expected():
    doc = json.load(open(f"{tmp}/lint.json"))
    return [(f["file"], f["line"], f["column"], f["severity"], f["message"], f["rule"]) for f in doc["findings"]]

def check_expected():
    out = []
    for line in open(f"{tmp}/check.jsonl"):
        d = json.loads(line)
        loc = d["location"]
        out.append((loc["file"], loc["line"], loc["column"], d["severity"], d["message"], d["code"]))
    return out

for cmd, want in (("lint", lint_expected()), ("check", check_expected())):
    tap(len(want) > 0, f"{cmd}: the run has findings to compare ({len(want)})")
    lines = open(f"{tmp}/{cmd}.gcc").read().splitlines()
    main = [l for l in lines if ": note: " not in l or l.endswith("]")]
    gcc_sev = {"error": "error", "warning": "warning", "info": "note"}
    for name, rx in MATCHERS.items():
        got = []
        for l in main:
            m = re.match(rx, l)
            if m: got.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)))
        exp = [(f, l, c, gcc_sev[s], f"{msg} [{code}]") for f, l, c, s, msg, code in want if s in ("error", "warning")]
        tap(got == exp, f"{cmd} -f gcc: the {name} reads every error and warning, file, line, column, message [rule]")
    shaped = all(re.match(r"^[^:]+:\d+:\d+: (error|warning|note): .* \[[A-Za-z0-9-]+\]$", l) for l in main)
    tap(shaped and len(main) == len(want), f"{cmd} -f gcc: one line per finding, 'file:line:col: severity: message [rule]'")

    # GitHub Actions workflow commands: ::CMD k=v,k=v::data
    rx = re.compile(r"^::(error|warning|notice) ((?:[a-zA-Z]+=[^,:]*)(?:,[a-zA-Z]+=[^,:]*)*)::(.*)$")
    unesc = lambda s: s.replace("%0A", "\n").replace("%0D", "\r").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")
    lines = open(f"{tmp}/{cmd}.github").read().splitlines()
    got, bad = [], []
    for l in lines:
        m = rx.match(l)
        if not m:
            bad.append(l); continue
        props = dict(kv.split("=", 1) for kv in m.group(2).split(","))
        msg = unesc(m.group(3)).split("\n")[0]
        level = {"error": "error", "warning": "warning", "notice": "info"}[m.group(1)]
        got.append((unesc(props["file"]), int(props["line"]), int(props["col"]), level, msg, unesc(props["title"])))
    tap(not bad, f"{cmd} -f github: every line is a workflow command ::level props::message" + (f" ({bad[:1]})" if bad else ""))
    exp = [(f, l, c, "info" if s in ("info", "note") else s, m, code) for f, l, c, s, m, code in want]
    tap(got == exp, f"{cmd} -f github: file, line, col, level, title and message as in the JSON")

# a message with '%', ',' and ':' (a column named so): '%' escaped, the
# others kept in the message (they are escaped only in properties)
gh = open(f"{tmp}/check.github").read()
tap("::no such column: a.50%25,x:y" in gh, "check -f github: '%' in a message is %25, ',' and ':' stay")

# JSON lines: the JSON's findings, one per line
doc = json.load(open(f"{tmp}/lint.json"))
jl = [json.loads(l) for l in open(f"{tmp}/lint.jsonl")]
tap(jl == doc["findings"], "lint -f jsonl: each line is one of the JSON's findings, in order")

# JUnit XML
for cmd, n in (("lint", len(doc["findings"])), ("check", len(check_expected()))):
    try:
        root = ET.parse(f"{tmp}/{cmd}.junit").getroot()
    except ET.ParseError as e:
        tap(False, f"{cmd} -f junit: well-formed XML ({e})"); continue
    tap(root.tag == "testsuites", f"{cmd} -f junit: well-formed XML, <testsuites> at the root")
    suites = root.findall("testsuite")
    fails = root.findall("testsuite/testcase/failure")
    tap(int(root.get("failures")) == n == len(fails), f"{cmd} -f junit: a failure per finding ({n})")
    tap(int(root.get("tests")) == len(root.findall("testsuite/testcase")) and
        all(int(s.get("tests")) == len(s.findall("testcase")) for s in suites), f"{cmd} -f junit: the counts add up")
    clean = [s for s in suites if s.get("name").endswith("clean.sql")]
    tap(len(clean) == 1 and clean[0].get("failures") == "0" and len(clean[0].findall("testcase")) == 1,
        f"{cmd} -f junit: the clean file is a suite with one passing case")
PY
