#!/usr/bin/env bash
# test_graph.sh -- squint graph's pictures (docs/squint-graph.md): DOT
# labels with one join condition per line as Graphviz draws them; nodes
# named 'alias (table)' in text, DOT and JSON; PK-FK edges as arrows to the
# referenced table, FK-FK edges dashed, an edge with both drawn twice;
# --format svg through Graphviz's dot (valid XML, the tables as node
# titles), the message when dot is missing or fails, one picture on
# stdout; --out-dir's file names, and its refusal to replace a file squint
# did not write.  The SVG checks need Graphviz (scripts/deps.sh installs
# it) and say they are skipped without it; the corpus checks use
# ../shared/corpora/spider-dev (SQUINT_CORPORA) and skip without it.
# Prints TAP lines.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
F=tests/cli/fixtures/graph
S=$F/schema.sql
HAVE_DOT=$(command -v dot)

# titles_texts SVG: one line per node or edge, "class|title|text|text...",
# after parsing SVG as XML (exit 1 when it is not XML).
titles_texts() {
    python3 - "$1" <<'EOF'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
for g in root.iter(ns + "g"):
    if g.get("class") in ("node", "edge"):
        texts = [t.text or "" for t in g.findall(ns + "text")]
        dashed = any("stroke-dasharray" in p.attrib for p in g.findall(ns + "path"))
        arrow = g.find(ns + "polygon") is not None
        print("|".join([g.get("class"), g.find(ns + "title").text] + texts +
                       (["dashed"] if dashed else []) + (["arrow"] if arrow else [])))
EOF
}

# has_line FILE LINE NAME: FILE holds exactly LINE
has_line() {
    if grep -qxF -- "$2" "$1"; then ok "$3"; else not_ok "$3 (no line '$2')"; head -20 "$1"; fi
}

# ---- DOT: one condition per line ---------------------------------------------
expect_exit 0 "dot: schema graph" -- "$SQUINT" graph -f dot --schema $S
cp "$TMP/out" "$TMP/schema.dot"
has_line "$TMP/schema.dot" '  "duet" -- "singer" [label="duet.first_id = singer.singer_id\nduet.second_id = singer.singer_id", dir=forward];' \
    "dot: two conditions of one edge are two lines of its label (DOT's \\n)"
if grep -qF '\\n' "$TMP/schema.dot"; then not_ok "dot: no escaped \\\\n (drawn as a literal backslash-n)"
else ok "dot: no escaped \\\\n (drawn as a literal backslash-n)"; fi

# ---- edge styles ---------------------------------------------------------------
has_line "$TMP/schema.dot" '  "stadium" -- "city" [label="stadium.city_id = city.city_id", dir=forward];' \
    "dot: a PK-FK edge is an arrow from the foreign key's table to the referenced one"
has_line "$TMP/schema.dot" '  "concert" -- "stadium" [label="concert.stadium_id = stadium.stadium_id", dir=forward];' \
    "dot: an edge with both kinds: its PK-FK condition an arrow"
has_line "$TMP/schema.dot" '  "stadium" -- "concert" [label="stadium.city_id = concert.city_id", style=dashed];' \
    "dot: ... and its FK-FK condition a dashed line"
has_line "$TMP/schema.dot" '  "duet" -- "duet" [label="duet.first_id = duet.second_id", style=dashed];' \
    "dot: an FK-FK self-loop is dashed"
has_line "$TMP/schema.dot" '  "singer" -- "singer" [label="singer.mentor_id = singer.singer_id", dir=forward];' \
    "dot: a PK-FK self-loop is an arrow"
n=$(grep -c 'dir=forward' "$TMP/schema.dot"); d=$(grep -c 'style=dashed' "$TMP/schema.dot")
[ "$n" = 6 ] && [ "$d" = 3 ] && ok "dot: 6 arrows, 3 dashed lines" || not_ok "dot: 6 arrows, 3 dashed lines (got $n, $d)"
expect_exit 0 "text: schema graph" -- "$SQUINT" graph --schema $S
has_line "$TMP/out" '  pk-fk: city.city_id = stadium.city_id (stadium -> city)' "text: a pk-fk condition says which way it references"
expect_exit 0 "json: schema graph" -- "$SQUINT" graph -f json --schema $S
python3 - "$TMP/out" >"$TMP/check" 2>&1 <<'EOF'
import json, sys
g = json.load(open(sys.argv[1]))[0]["graph"]
labels = [(e["a"], e["b"], l) for e in g["edges"] for l in e["labels"]]
pk = [l for a, b, l in labels if l["kind"] == "pk-fk"]
fk = [l for a, b, l in labels if l["kind"] == "fk-fk"]
assert all(set(l) == {"kind", "condition", "from", "to"} for l in pk), pk
assert all(set(l) == {"kind", "condition"} for l in fk), fk
assert {"kind": "pk-fk", "condition": "city.city_id = stadium.city_id", "from": "stadium", "to": "city"} in pk
assert [n["table"] for n in g["nodes"]] == ["city", "stadium", "concert", "singer", "duet"]
print("fine")
EOF
expect_grep '^fine$' "$TMP/check" "json: pk-fk labels name from and to, fk-fk labels keep their two keys"

# ---- node labels ---------------------------------------------------------------
expect_exit 0 "dot: join query graphs" -- "$SQUINT" graph --query -f dot --schema $S $F/queries.sql
cp "$TMP/out" "$TMP/q.dot"
has_line "$TMP/q.dot" '  "T1" [label="T1 (singer)"];' "dot: an alias is labelled with its table"
has_line "$TMP/q.dot" '  "T1" -- "T2" [label="T1.singer_id = T2.first_id\nT1.singer_id = T2.second_id"];' \
    "dot: a query's two conditions are two lines, the edge plain"
has_line "$TMP/q.dot" '  "city";' "dot: a table read by its own name has no extra label"
expect_exit 0 "text: join query graphs" -- "$SQUINT" graph --query --schema $S $F/queries.sql
has_line "$TMP/out" 'nodes: T1 (singer) T2 (duet)' "text: nodes are 'alias (table)'"
has_line "$TMP/out" 'nodes: city' "text: ... or the table alone"
has_line "$TMP/out" 'node T1: degree 1, betweenness 0.00' "text: node lines keep the alias alone"
expect_exit 0 "json: join query graphs" -- "$SQUINT" graph --query -f json --schema $S $F/queries.sql
python3 - "$TMP/out" >"$TMP/check" 2>&1 <<'EOF'
import json, sys
runs = json.load(open(sys.argv[1]))
assert runs[0]["graph"]["nodes"] == [{"name": "T1", "table": "singer"}, {"name": "T2", "table": "duet"}]
assert runs[2]["graph"]["nodes"] == [{"name": "city", "table": "city"}]
assert runs[3]["graph"] is None and "why" in runs[3]
print("fine")
EOF
expect_grep '^fine$' "$TMP/check" "json: each node has its name and its table"

# ---- --format svg --------------------------------------------------------------
if [ -z "$HAVE_DOT" ]; then
    echo "ok - svg: skipped (no Graphviz 'dot' on PATH; scripts/deps.sh installs graphviz)"
else
    expect_exit 0 "svg: schema graph" -- "$SQUINT" graph -f svg --schema $S
    cp "$TMP/out" "$TMP/schema.svg"
    if titles_texts "$TMP/schema.svg" >"$TMP/svg.txt" 2>"$TMP/svg.err"; then ok "svg: is XML"
    else not_ok "svg: is XML"; cat "$TMP/svg.err"; fi
    for t in city stadium concert singer duet; do
        has_line "$TMP/svg.txt" "node|$t|$t" "svg: node $t, titled and labelled"
    done
    has_line "$TMP/svg.txt" 'edge|duet--singer|duet.first_id = singer.singer_id|duet.second_id = singer.singer_id|arrow' \
        "svg: the two conditions of one edge are two text lines, under an arrow"
    has_line "$TMP/svg.txt" 'edge|stadium--concert|stadium.city_id = concert.city_id|dashed' \
        "svg: the FK-FK line is dashed, with no arrow"
    has_line "$TMP/svg.txt" 'edge|concert--stadium|concert.stadium_id = stadium.stadium_id|arrow' \
        "svg: its PK-FK twin is an arrow"
    "$SQUINT" graph -f dot --schema $S | dot -Tsvg >"$TMP/direct.svg"
    cmp -s "$TMP/schema.svg" "$TMP/direct.svg" && ok "svg: what dot -Tsvg draws from the DOT" || not_ok "svg: what dot -Tsvg draws from the DOT"
    sed -n 2p $F/queries.sql >"$TMP/one.sql"
    expect_exit 0 "svg: a join query graph" -- "$SQUINT" graph --query -f svg --schema $S "$TMP/one.sql"
    titles_texts "$TMP/out" >"$TMP/svg.txt" 2>&1
    has_line "$TMP/svg.txt" 'node|T1|T1 (singer)' "svg: an alias's node reads 'alias (table)'"
    expect_exit 2 "svg: more than one graph on stdout is refused" -- "$SQUINT" graph --query -f svg --schema $S $F/queries.sql
    expect_grep "^squint graph: --format svg draws one graph on standard output and this run has more: pick one \(--db-id\), or write each to a file with --out-dir DIR$" \
        "$TMP/err" "... saying what to do"
    [ -s "$TMP/out" ] && not_ok "... and prints no picture" || ok "... and prints no picture"
    # a dot that fails: its message, exit 2
    mkdir -p "$TMP/baddot"
    printf '#!/bin/sh\ncat >/dev/null\necho "Error: out of ink" >&2\nexit 1\n' >"$TMP/baddot/dot"
    chmod +x "$TMP/baddot/dot"
    expect_exit 2 "svg: a failing dot is exit 2" -- env PATH="$TMP/baddot:$PATH" "$SQUINT" graph -f svg --schema $S
    expect_grep "^squint graph: Graphviz's dot failed: Error: out of ink$" "$TMP/err" "... with dot's message"
    # a dot that reads nothing and ends: no SIGPIPE death, exit 2
    printf '#!/bin/sh\nexit 3\n' >"$TMP/baddot/dot"
    awk 'BEGIN { for (i = 0; i < 3000; i++) printf "CREATE TABLE t%d (id INTEGER PRIMARY KEY, p INTEGER REFERENCES t%d (id));\n", i, (i + 1) % 3000 }' >"$TMP/big.sql"
    expect_exit 2 "svg: a dot that ends without reading is exit 2 (not a SIGPIPE)" -- env PATH="$TMP/baddot:$PATH" "$SQUINT" graph -f svg --schema "$TMP/big.sql"
    expect_grep "^squint graph: Graphviz's dot exited with status 3$" "$TMP/err" "... saying how dot ended"
fi
mkdir -p "$TMP/nodot"
expect_exit 2 "svg without Graphviz: exit 2" -- env PATH="$TMP/nodot" "$SQUINT" graph -f svg --schema $S
[ "$(wc -l <"$TMP/err")" = 1 ] && expect_grep "^squint graph: --format svg needs Graphviz's 'dot' program, which is not on PATH; install Graphviz \(e\.g\. apt-get install graphviz\)$" \
    "$TMP/err" "... one line saying Graphviz is needed and how to install it" || not_ok "... one line (got $(wc -l <"$TMP/err"))"
[ -s "$TMP/out" ] && not_ok "... nothing on stdout" || ok "... nothing on stdout"
expect_exit 2 "svg without Graphviz, --out-dir: exit 2 before any file" -- env PATH="$TMP/nodot" "$SQUINT" graph -f svg --out-dir "$TMP/none" --schema $S
[ -e "$TMP/none" ] && not_ok "... DIR not made" || ok "... DIR not made"

# ---- --out-dir -----------------------------------------------------------------
O=$TMP/pics/new
expect_exit 0 "out-dir: schema graphs, one file per database (DIR made)" -- "$SQUINT" graph -f dot --out-dir "$O" --tables $F/tables.json
(cd "$O" && ls -A) >"$TMP/ls"
printf '%s\n' .squint-graph.sha256 Pets_.._1.dot music.dot | cmp -s - "$TMP/ls" && ok "... DB_ID.dot, a db_id made a safe name" ||
    { not_ok "... DB_ID.dot, a db_id made a safe name"; cat "$TMP/ls"; }
has_line "$TMP/out" "$O/music.dot" "... each path listed on stdout"
"$SQUINT" graph -f dot --tables $F/tables.json --db-id music | cmp -s - "$O/music.dot" && ok "... a file holds what stdout would" ||
    not_ok "... a file holds what stdout would"
if command -v sha256sum >/dev/null; then
    (cd "$O" && sha256sum --quiet -c .squint-graph.sha256) >/dev/null 2>&1 && ok "... its list is sha256sum's format" || not_ok "... its list is sha256sum's format"
fi
expect_exit 0 "out-dir: a second run replaces squint's own files" -- "$SQUINT" graph -f dot --out-dir "$O" --tables $F/tables.json
expect_exit 0 "out-dir: another format beside them" -- "$SQUINT" graph -f text --out-dir "$O" --tables $F/tables.json
[ -f "$O/music.txt" ] && [ -f "$O/music.dot" ] && ok "... music.txt beside music.dot" || not_ok "... music.txt beside music.dot"
[ "$(grep -c '  music\.' "$O/.squint-graph.sha256")" = 2 ] && ok "... the list keeps both" || not_ok "... the list keeps both"
# a file of the user's: refused, kept, and nothing else written
echo 'my picture' >"$O/music.dot"
cp "$O/Pets_.._1.dot" "$TMP/pets.before"
expect_exit 2 "out-dir: a file squint did not write is refused" -- "$SQUINT" graph -f dot --out-dir "$O" --tables $F/tables.json
expect_grep "^squint graph: '$O/music.dot' exists and squint graph did not write it \(or it was changed since\); remove it or choose another --out-dir$" \
    "$TMP/err" "... saying why"
[ "$(cat "$O/music.dot")" = 'my picture' ] && ok "... and kept intact" || not_ok "... and kept intact"
[ ! -s "$TMP/out" ] && cmp -s "$O/Pets_.._1.dot" "$TMP/pets.before" && ok "... and no file written, none listed" || not_ok "... and no file written"
# one of squint's, changed since
rm "$O/music.dot"
expect_exit 0 "out-dir: a removed file is written again" -- "$SQUINT" graph -f dot --out-dir "$O" --tables $F/tables.json
echo '// my note' >>"$O/Pets_.._1.dot"
expect_exit 2 "out-dir: a file squint wrote and the user changed is refused" -- "$SQUINT" graph -f dot --out-dir "$O" --tables $F/tables.json
tail -n 1 "$O/Pets_.._1.dot" | grep -qxF '// my note' && ok "... and kept" || not_ok "... and kept"
# a list that is not squint's; DIR a file; an input in DIR
echo 'not a list' >"$TMP/pics/.squint-graph.sha256"
expect_exit 2 "out-dir: a .squint-graph.sha256 squint did not write is refused" -- "$SQUINT" graph -f dot --out-dir "$TMP/pics" --tables $F/tables.json
expect_grep "is not the list of files squint graph wrote" "$TMP/err" "... saying why"
echo x >"$TMP/afile"
expect_exit 2 "out-dir: DIR that is a file is refused" -- "$SQUINT" graph -f dot --out-dir "$TMP/afile" --tables $F/tables.json
expect_grep "^squint graph: '$TMP/afile' is there and is not a directory$" "$TMP/err" "... saying why"
# an input whose bytes the list vouches for, under the name an output gets
mkdir -p "$TMP/inp"
cp $S "$TMP/inp/schema.txt"
(cd "$TMP/inp" && sha256sum schema.txt >.squint-graph.sha256)
expect_exit 2 "out-dir: never over an input" -- "$SQUINT" graph -f text --out-dir "$TMP/inp" --schema "$TMP/inp/schema.txt"
expect_grep "^squint graph: '$TMP/inp/schema.txt' is an input of this run \(--schema\); squint never writes over its inputs$" "$TMP/err" "... saying why"
cmp -s $S "$TMP/inp/schema.txt" && ok "... and kept" || not_ok "... and kept"

# join query graphs: QUESTION_ID, STEM-N (the item's number), STEM-LINE
Q=$TMP/qpics
expect_exit 0 "out-dir: join query graphs" -- "$SQUINT" graph --query -f json --out-dir "$Q" --schema $S $F/bird.json $F/spider.json $F/queries.sql
(cd "$Q" && ls) >"$TMP/ls"
printf '%s\n' 12.json 7.json queries-2.json queries-3.json queries-4.json spider-0.json spider-1.json | cmp -s - "$TMP/ls" &&
    ok "... QUESTION_ID.json, spider-ITEM.json, queries-LINE.json" || { not_ok "... QUESTION_ID, STEM-ITEM, STEM-LINE"; cat "$TMP/ls"; }
has_line "$TMP/out" "$F/queries.sql:5: no join query graph (a subquery expression)" "... a query without one: a line, no file"
has_line "$TMP/out" "8 queries: 7 with a join query graph, 1 without" "... and the count"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["graph"]["nodes"][0] == {"name": "T1", "table": "singer"}' "$Q/7.json" 2>/dev/null &&
    ok "... a JSON file is the graph's one object" || not_ok "... a JSON file is the graph's one object"
expect_exit 0 "out-dir: a name taken twice in a run gets -2" -- "$SQUINT" graph --query -f dot --out-dir "$TMP/twice" --schema $S $F/bird.json $F/bird.json
[ -f "$TMP/twice/7.dot" ] && [ -f "$TMP/twice/7-2.dot" ] && ok "... 7.dot and 7-2.dot" || not_ok "... 7.dot and 7-2.dot"
if [ -n "$HAVE_DOT" ]; then
    expect_exit 0 "out-dir: svg, one picture per query" -- "$SQUINT" graph --query -f svg --out-dir "$TMP/svgq" --schema $S $F/queries.sql
    ok_all=1
    for f in queries-2 queries-3 queries-4; do titles_texts "$TMP/svgq/$f.svg" >/dev/null 2>&1 || ok_all=0; done
    [ $ok_all = 1 ] && ok "... each is XML" || not_ok "... each is XML"
    titles_texts "$TMP/svgq/queries-3.svg" >"$TMP/svg.txt"
    has_line "$TMP/svg.txt" 'edge|c--s|c.stadium_id = s.stadium_id|c.city_id = s.city_id' "... two conditions, two lines"
fi

# ---- the Spider dev schemas (corpus) ----------------------------------------
root=${SQUINT_CORPORA:-../shared/corpora}
SP=$root/spider-dev
if [ -f "$SP/tables.json" ]; then schema=(--tables "$SP/tables.json")
elif [ -d "$SP/database" ]; then schema=(--db-root "$SP/database")
else schema=(); fi
if [ ${#schema[@]} = 0 ]; then
    echo "ok - spider: skipped (no corpus at $root; set SQUINT_CORPORA)"
else
    expect_exit 0 "spider: every schema graph to --out-dir" -- "$SQUINT" graph -f dot --out-dir "$TMP/spider" "${schema[@]}"
    n=$(ls "$TMP/spider" | wc -l); want=$(wc -l <"$TMP/out")
    [ "$n" = "$want" ] && [ "$n" -ge 20 ] && [ -f "$TMP/spider/concert_singer.dot" ] && ok "spider: DB_ID.dot for each of $n databases" ||
        not_ok "spider: DB_ID.dot for each database ($n files, $want listed)"
    if [ -n "$HAVE_DOT" ]; then
        expect_exit 0 "spider: concert_singer as svg" -- "$SQUINT" graph -f svg "${schema[@]}" --db-id concert_singer
        titles_texts "$TMP/out" >"$TMP/svg.txt" 2>&1
        for t in stadium singer concert singer_in_concert; do has_line "$TMP/svg.txt" "node|$t|$t" "spider: node $t"; done
        has_line "$TMP/svg.txt" 'edge|concert--stadium|concert.Stadium_ID = stadium.Stadium_ID|arrow' "spider: concert -> stadium is an arrow"
        echo 'SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID AND T2.concert_ID = T1.Age;' >"$TMP/cs.sql"
        expect_exit 0 "spider: a join query graph as svg" -- "$SQUINT" graph --query -f svg "${schema[@]}" --db-id concert_singer "$TMP/cs.sql"
        titles_texts "$TMP/out" >"$TMP/svg.txt" 2>&1
        has_line "$TMP/svg.txt" 'edge|T1--T2|T1.Singer_ID = T2.Singer_ID|T1.Age = T2.concert_ID' "spider: its two conditions, two lines"
        has_line "$TMP/svg.txt" 'node|T2|T2 (singer_in_concert)' "spider: its nodes 'alias (table)'"
    else
        echo "ok - spider svg: skipped (no Graphviz 'dot' on PATH; scripts/deps.sh installs graphviz)"
    fi
fi
