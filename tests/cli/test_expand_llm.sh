#!/usr/bin/env bash
# test_expand_llm.sh -- squint expand's requests for a language model and
# their replies back, end to end against the test LLM server on 127.0.0.1
# (tests/llm/server.py).  Prints TAP lines.
#   - seed 001's textual query augmentation: squint expand --tqa --requests
#     writes three requests (tqa-synonym, tqa-backtranslate, tqa-context)
#     per text that names the linker table, with the text and the words at
#     their byte offsets; none for a query without a linker table; squint
#     prompt refuses the tasks;
#   - squint llm run, then squint llm import TASK --attach TQA: the
#     synonyms put in place (checked here against the text cut by hand),
#     the other tasks' texts taken as written, and each new text checked
#     for words that still name the table; one records file serves the
#     three tasks;
#   - replies that do not fit: not JSON, a position given twice, a
#     position where no word starts, a word without a substitution;
#   - --attach into a file that is not squint expand --tqa's is refused;
#   - the expansions' questions (expand-question): squint expand
#     --requests, the replies, and llm import --attach of squint expand's
#     JSON and of its --out records: an item per expansion with a question,
#     the expansion's SQL, question_id N * 1000 + K.
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/lib.sh
if ! command -v python3 >/dev/null; then
    echo "ok - expand llm: skipped (no python3 for the test server; scripts/deps.sh installs it)"
    exit 0
fi

. tests/cli/llm_server.sh

cp tests/cli/fixtures/tqa/movies.sql "$TMP/movies.sql"
python3 - "$TMP/gold.json" <<'PY'
import json, sys
join4 = ("SELECT a.Name FROM actor a JOIN characters c ON a.ActorID = c.ActorID "
         "JOIN movie m ON m.MovieID = c.MovieID JOIN award w ON w.MovieID = m.MovieID")
json.dump([{"question_id": 1, "db_id": "movies",
            "question": "Which actors played characters in movies that won an award?",
            "evidence": "the character's name is CharacterName; 'characters' is a value", "SQL": join4},
           {"question_id": 2, "db_id": "movies", "question": "Name the movies.", "evidence": "",
            "SQL": "SELECT Title FROM movie JOIN award ON award.MovieID = movie.MovieID"},
           {"question_id": 3, "db_id": "movies", "question": "List the characters and their character names.",
            "evidence": "", "SQL": join4 + " WHERE w.Name = 'x'"}], open(sys.argv[1], "w"))
PY

# ---- the requests ----------------------------------------------------------------------------
expect_exit 0 "expand --tqa --requests" -- \
    "$SQUINT" expand --tqa --format json --requests "$TMP/req.jsonl" --schema "$TMP/movies.sql" "$TMP/gold.json"
cp "$TMP/out" "$TMP/tqa.json"
expect_grep "9 requests written to" "$TMP/err" "... says how many requests it wrote"
python3 - "$TMP/req.jsonl" "$TMP/tqa.json" >"$TMP/check" 2>&1 <<'PY' && ok "... three per text that names the linker table (ids, texts, words at their offsets, each task's temperature and max_tokens), none for a query without one" || { not_ok "... the requests"; cat "$TMP/check"; }
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
items = json.load(open(sys.argv[2]))
ids = [r["custom_id"] for r in reqs]
want = [f"{t}/qid-{q}/{k}" for q, ks in ((1, ("question", "evidence")), (3, ("question",)))
        for k in ks for t in ("tqa-synonym", "tqa-backtranslate", "tqa-context")]
assert ids == want, ids
by_qid = {i["question_id"]: i for i in items}
assert by_qid[2]["linker_table"] is None and by_qid[1]["request_key"] == "qid-1"
assert by_qid[1]["gold_sql"].startswith("SELECT a.Name FROM actor a JOIN"), by_qid[1]["gold_sql"]
for r in reqs:
    task, key, kind = r["custom_id"].split("/")
    item = by_qid[int(key[4:])]
    text = item[kind]
    user = r["body"]["messages"][1]["content"]
    assert text in user and 'The table is "characters"' in user, user
    toks = json.loads(user.split("counting from 0):\n\n", 1)[1].split("\n", 1)[0])
    assert toks == [{"token": m["text"], "position": m["start"]} for m in item[kind + "_refs"]], toks
    for t in toks:
        assert text[t["position"]:t["position"] + len(t["token"])] == t["token"], t
    assert r["body"]["max_tokens"] == (512 if task == "tqa-synonym" else 1024), r["body"]
    assert r["body"]["temperature"] == 0.7
PY
expect_exit 2 "squint prompt tqa-synonym" -- "$SQUINT" prompt tqa-synonym --schema "$TMP/movies.sql" "$TMP/gold.json"
expect_grep "squint expand --tqa --requests" "$TMP/err" "... says squint expand --tqa writes its requests"
expect_exit 0 "squint prompt --list" -- "$SQUINT" prompt --list
expect_grep "^tqa-backtranslate " "$TMP/out" "... lists the tqa tasks"

# ---- the replies ---------------------------------------------------------------------------
python3 - >"$TMP/replies.jsonl" <<'PY'
import json
q1 = "Which actors played characters in movies that won an award?\n\nThe words to replace"
e1 = "the character's name is CharacterName; 'characters' is a value\n\nThe words to replace"
q3 = "List the characters and their character names.\n\nThe words to replace"
rules = [
    (q1, '```json\n[{"token": "roles", "position": 20}]\n```'),
    (e1, '[{"token": " role ", "position": 4}]'),
    (q3, '[{"token": "parts", "position": 9}, {"token": "part", "position": 9}]'),
    ("translate the question into French, putting in place of each word listed a French word that means the same "
     "thing in the database's domain and is not a translation of any part of the table's name.",
     "<translation>Quels acteurs ont joue des roles ?</translation>\n<text>Which actors played parts in films that "
     "won a prize?</text>"),
    ("translate the evidence into French", "<translation>...</translation><text>the character's name is "
     "CharacterName</text>"),
    ("Inside <masked></masked>, write the question", "<masked>Which actors played [MASK]?</masked>"
     "<text>Which actors played roles in movies that won an award?</text>"),
    ("Inside <masked></masked>, write the evidence", "<masked>the [MASK]'s name</masked><text>the role's name "
     "is CharacterName; 'characters' is a value</text>"),
]
for m, c in rules:
    print(json.dumps({"match": m, "content": c}))
PY
start_server --replies "$TMP/replies.jsonl"
"$SQUINT" llm run "$TMP/req.jsonl" --endpoint "$URL" --out "$TMP/rec.jsonl" --quiet
stop_server

expect_exit 1 "llm import tqa-synonym: a reply with a position twice" -- "$SQUINT" llm import tqa-synonym "$TMP/rec.jsonl"
python3 - "$TMP/out" >"$TMP/check" 2>&1 <<'PY' && ok "... the substitutions as JSON, the other tqa tasks' replies passed over, the one with a position twice rejected" || { not_ok "... import of the substitutions"; cat "$TMP/check"; }
import json, sys
got = {r["custom_id"]: r for r in map(json.loads, open(sys.argv[1]))}
assert sorted(got) == ["tqa-synonym/qid-1/evidence", "tqa-synonym/qid-1/question", "tqa-synonym/qid-3/question"], got
assert got["tqa-synonym/qid-1/question"]["substitutions"] == [{"position": 20, "token": "roles"}]
assert got["tqa-synonym/qid-1/evidence"]["substitutions"] == [{"position": 4, "token": "role"}]
r = got["tqa-synonym/qid-3/question"]
assert r["status"] == "rejected" and "two substitutions at position 9" in r["reason"], r
PY

expect_exit 1 "llm import tqa-synonym --attach (a reply rejected)" -- \
    "$SQUINT" llm import tqa-synonym "$TMP/rec.jsonl" --attach "$TMP/tqa.json" --out "$TMP/sr.json" --schema "$TMP/movies.sql"
expect_grep "1 of 2 items whose text names the linker table rewritten .1 without a reply taken" "$TMP/err" \
    "... counts the items rewritten and those without a reply"
expect_grep "gone from 1 of 1 questions .100.0 %. and 1 of 1 evidence" "$TMP/err" "... and how often the table's words are gone"
mkdir -p "$TMP/noroot"
expect_exit 0 "llm import tqa-context --attach, a schema that does not load" -- \
    "$SQUINT" llm import tqa-context "$TMP/rec.jsonl" --attach "$TMP/tqa.json" --out "$TMP/ca0.json" --db-root "$TMP/noroot"
[ "$(grep -c "unknown db_id 'movies'" "$TMP/err")" = 1 ] && ok "... says so, once" ||
    { not_ok "... says so, once"; cat "$TMP/err"; }
expect_exit 0 "llm import tqa-backtranslate --attach" -- \
    "$SQUINT" llm import tqa-backtranslate "$TMP/rec.jsonl" --attach "$TMP/tqa.json" --out "$TMP/bt.json"
expect_grep "gone from 2 of 2 questions .100.0 %. and 0 of 1 evidence" "$TMP/err" \
    "... an evidence that still names the table is counted as such"
expect_exit 0 "llm import tqa-context --attach" -- \
    "$SQUINT" llm import tqa-context "$TMP/rec.jsonl" --attach "$TMP/tqa.json" --out "$TMP/ca.json"
python3 - "$TMP/gold.json" "$TMP/sr.json" "$TMP/bt.json" "$TMP/ca.json" >"$TMP/check" 2>&1 <<'PY' && ok "... the synonyms in place (the text cut by hand), the other texts as the model wrote them, the SQL untouched, each text's words left" || { not_ok "... the attached items"; cat "$TMP/check"; }
import json, re, sys
gold = {g["question_id"]: g for g in json.load(open(sys.argv[1]))}
sr, bt, ca = (json.load(open(p)) for p in sys.argv[2:])
g = gold[1]
assert [o["question_id"] for o in sr] == [1], sr  # qid 3's reply was rejected
for out in (sr, bt, ca):
    o = out[0]
    assert o["question_id"] == 1, out
    assert o["SQL"] == g["SQL"] and o["db_id"] == "movies", o
    assert o["tqa"]["linker_table"] == "characters" and o["tqa"]["question_before"] == g["question"], o
q, e = g["question"], g["evidence"]
assert sr[0]["question"] == q[:20] + "roles" + q[30:], sr[0]
assert sr[0]["evidence"] == e[:4] + "role" + e[13:], sr[0]
assert sr[0]["tqa"]["hidden"] and sr[0]["tqa"]["question_left"] == [] and sr[0]["tqa"]["evidence_left"] == []
assert bt[0]["question"] == "Which actors played parts in films that won a prize?", bt[0]
assert bt[0]["evidence"] == "the character's name is CharacterName", bt[0]
assert bt[0]["tqa"]["evidence_left"] == ["character"] and not bt[0]["tqa"]["hidden"], bt[0]["tqa"]
assert ca[0]["tqa"]["hidden"], ca[0]
# what "left" means, seen from outside: a word of the question still holding the table's name
for out in (sr, bt, ca):
    named = [w for w in re.findall(r"[A-Za-z]+", out[0]["question"]) if w.lower().startswith("character")]
    assert named == out[0]["tqa"]["question_left"], (named, out[0]["tqa"])
PY

# ---- substitutions that do not fit the text ----------------------------------------------------
# edit_replies ID=CONTENT... -- rec.jsonl into bad-rec.jsonl with the replies of those ids replaced
edit_replies() {
    python3 - "$TMP/rec.jsonl" "$TMP/bad-rec.jsonl" "$@" <<'PY'
import json, sys
edits = dict(a.split("=", 1) for a in sys.argv[3:])
out = open(sys.argv[2], "w")
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["custom_id"] in edits:
        r["response"]["body"]["choices"][0]["message"]["content"] = edits[r["custom_id"]]
    out.write(json.dumps(r, separators=(",", ":")) + "\n")
PY
}
edit_replies 'tqa-synonym/qid-1/question=[{"token": "roles", "position": 21}]' 'tqa-synonym/qid-1/evidence=roles, I think'
expect_exit 1 "llm import tqa-synonym --attach: replies that do not fit" -- \
    "$SQUINT" llm import tqa-synonym "$TMP/bad-rec.jsonl" --attach "$TMP/tqa.json" --out "$TMP/bad.json"
expect_grep "qid-1/evidence: the reply is not a JSON array" "$TMP/err" "... a reply that is not JSON is rejected with the reason"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1])) == []' "$TMP/bad.json" &&
    ok "... and no item is written for them" || not_ok "... and no item is written for them"
edit_replies 'tqa-synonym/qid-1/question=[{"token": "roles", "position": 21}]'
expect_exit 1 "llm import tqa-synonym --attach: a position no word starts at" -- \
    "$SQUINT" llm import tqa-synonym "$TMP/bad-rec.jsonl" --attach "$TMP/tqa.json" --out "$TMP/bad.json"
expect_grep "qid-1/question: a substitution at position 21, where no word given starts" "$TMP/err" "... says where"
edit_replies 'tqa-synonym/qid-1/question=[{"token": "roles", "position": 20}, {"token": "x", "position": 52}]'
expect_exit 1 "llm import tqa-synonym --attach: a substitution more than the words given" -- \
    "$SQUINT" llm import tqa-synonym "$TMP/bad-rec.jsonl" --attach "$TMP/tqa.json" --out "$TMP/bad.json"
expect_grep "qid-1/question: a substitution at position 52" "$TMP/err" "... is refused too"
edit_replies 'tqa-synonym/qid-3/question=[{"token": "parts", "position": 9}]'
expect_exit 1 "llm import tqa-synonym --attach: a word without a substitution" -- \
    "$SQUINT" llm import tqa-synonym "$TMP/bad-rec.jsonl" --attach "$TMP/tqa.json" --out "$TMP/bad.json"
expect_grep "qid-3/question: no substitution for 'character' at position 30" "$TMP/err" "... names the word left"
edit_replies 'tqa-synonym/qid-1/question=[]'
expect_exit 1 "llm import tqa-synonym: an empty array" -- "$SQUINT" llm import tqa-synonym "$TMP/bad-rec.jsonl"
expect_grep "holds no substitution" "$TMP/out" "... is rejected"

# ---- usage -------------------------------------------------------------------------------
expect_exit 2 "llm import tqa-synonym --attach a plain gold" -- \
    "$SQUINT" llm import tqa-synonym "$TMP/rec.jsonl" --attach "$TMP/gold.json" --out "$TMP/x.json"
expect_grep "squint expand --tqa --format json" "$TMP/err" "... says what it takes"
[ ! -e "$TMP/x.json" ] && ok "... and writes nothing" || not_ok "... and writes nothing"
expect_exit 2 "llm import tqa-synonym with a schema but no --attach" -- \
    "$SQUINT" llm import tqa-synonym "$TMP/rec.jsonl" --schema "$TMP/movies.sql"
expect_exit 2 "expand --tqa --out" -- "$SQUINT" expand --tqa --out "$TMP/t.jsonl" --schema "$TMP/movies.sql" "$TMP/gold.json"

# ---- the expansions' questions (expand-question) ---------------------------------------------
expect_exit 0 "expand --requests" -- "$SQUINT" expand --format json --n 0 --requests "$TMP/xreq.jsonl" \
    --schema "$TMP/movies.sql" "$TMP/gold.json"
cp "$TMP/out" "$TMP/x.json"
expect_exit 0 "expand --out --requests" -- "$SQUINT" expand --n 0 --out "$TMP/x.jsonl" --requests "$TMP/xreq2.jsonl" \
    --schema "$TMP/movies.sql" "$TMP/gold.json"
python3 - >"$TMP/xreplies.jsonl" <<'PY'
import json
print(json.dumps({"match": "The extended query, which joins", "content":
                  "<analysis>more</analysis><question>Which titles have awards and actors?</question><evidence></evidence>"}))
PY
start_server --replies "$TMP/xreplies.jsonl"
"$SQUINT" llm run "$TMP/xreq.jsonl" --endpoint "$URL" --out "$TMP/xrec.jsonl" --quiet
stop_server
python3 - "$TMP/xrec.jsonl" "$TMP/xrec2.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
with open(sys.argv[2], "w") as f:   # no record of the first request: its expansion gets no item
    for r in recs[1:]:
        f.write(json.dumps(r, separators=(",", ":")) + "\n")
PY
for x in x.json x.jsonl; do
    expect_exit 0 "llm import expand-question --attach $x" -- \
        "$SQUINT" llm import expand-question "$TMP/xrec2.jsonl" --attach "$TMP/$x" --out "$TMP/items-$x"
done
expect_grep "expansions asked about have a question" "$TMP/err" "... says how many expansions got a question"
python3 - "$TMP/x.json" "$TMP/xrec2.jsonl" "$TMP/items-x.json" "$TMP/items-x.jsonl" >"$TMP/check" 2>&1 <<'PY' && ok "... an item per expansion answered (its SQL, the reply's question, question_id N * 1000 + K), the same from the JSON and from the records ($(cat "$TMP/check"))" || { not_ok "... the expansions' items"; cat "$TMP/check"; }
import json, sys
queries = json.load(open(sys.argv[1]))
answered = {json.loads(l)["custom_id"] for l in open(sys.argv[2])}
a, b = json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
assert a == b, (a, b)
want = {}
for q in queries:
    for k, x in enumerate(q["expansions"]):
        rid = x.get("question_request_id")
        if rid and rid in answered:
            want[q["question_id"] * 1000 + k] = x["sql"]
assert want and {i["question_id"]: i["SQL"] for i in a} == want, (want, a)
for i in a:
    assert i["question"] == "Which titles have awards and actors?" and i["evidence"] == "", i
    assert i["expansion_of"]["question_id"] * 1000 + i["expansion_of"]["expansion"] == i["question_id"], i
print(len(a), "items")
PY

