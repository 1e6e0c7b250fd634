# squint -- a compiler-style toolchain for SQL (see README.md)
#
#   make            build libsquint.a and the squint binary
#   make test       install missing packages, build, run every test
#   make demo       install missing packages, build, run the bundled example
#   make sanitize   build with ASan+UBSan into build-san/ and run the tests
#   make sanitize-corpus  the corpus tools under ASan+UBSan
#   make leaks      squint equiv's throwing searches under valgrind: no leak
#   make fuzz       every libFuzzer target for $(FUZZ_SECONDS) seconds each
#   make fuzz-smoke every target for $(FUZZ_SMOKE_SECONDS) s (skipped without clang)
#   make fuzz-long  every target to its long run count, or $(FUZZ_RUNS) executions
#   make conformance  parser parity with SQLite over ../shared/corpora
#   make soundness  squint equiv's verdicts against SQLite (soundness-ci: a sample)
#   make bench      benchmarks (ratios against SQLite in the same run)
#   make fixture-report  squint fixture on Spider and BIRD dev (docs/fixture-report.md)
#   make template-report  squint template on Spider and BIRD dev (docs/template-report.md)
#   make expand-report    squint expand's plans on BIRD and Spider dev (docs/expand-report.md)

CC      ?= cc
BUILD   ?= build
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CSTD    := -std=c11 -D_DEFAULT_SOURCE
ALLCFLAGS = $(CSTD) $(WARN) $(CFLAGS) -I. -I$(BUILD)/gen $(EXTRA_CFLAGS)
LDLIBS  ?= -lsqlite3 -lz3 -lcurl -lcjson -lm -pthread
BISON   ?= bison
FLEX    ?= flex
SQUINT_CORPORA ?= ../shared/corpora
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 30
FUZZ_TARGETS ?=
FUZZ_RUNS ?=
# the targets that build before they run (test, sanitize, ...) compile
# JOBS files at a time: the processors, unless make was given -j
JOBS    ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
SUBMAKE  = $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))
export SQUINT_CORPORA

# ---- sources --------------------------------------------------------------

RUNTIME_SRC := runtime/util.c runtime/arena.c runtime/strbuf.c \
               runtime/intern.c runtime/src.c runtime/diag.c runtime/jsonw.c \
               runtime/json.c runtime/pool.c runtime/wire.c runtime/safewrite.c \
               runtime/format.c runtime/sha256.c runtime/strmap.c runtime/diag_ci.c runtime/task.c
GRAMMAR_SRC := grammar/lex.c grammar/parse.c grammar/ast.c \
               grammar/ast_expr.c grammar/ast_select.c grammar/ast_stmt.c \
               grammar/ast_print.c
FRONTEND_SRC := frontend/types.c frontend/functions.c frontend/catalog.c \
               frontend/catalog_sqlite.c frontend/catalog_builtin.c frontend/expr.c frontend/bind_names.c \
               frontend/bind_expr.c frontend/bind_func.c frontend/bind_from.c \
               frontend/bind_walk.c frontend/bind_agg.c frontend/bind_select.c \
               frontend/bind_coll.c \
               frontend/catalog_json.c frontend/bench_input.c
IR_SRC      := ir/ir.c ir/lower.c ir/ir_load.c ir/ir_sql.c ir/ir_print.c ir/ir_core.c ir/ir_determined.c ir/ir_edit.c \
               ir/graph/graph.c ir/graph/graph_algo.c ir/graph/graph_print.c ir/graph/querygraph.c
PASSES_SRC  := passes/pass.c passes/registry.c passes/unnest.c passes/merge_derived.c \
               passes/jqg.c passes/joinelim.c passes/joinelim_keys.c passes/joinelim_print.c \
               passes/joinelim_rewrite.c passes/lint/lint.c passes/lint/lint_expr.c \
               passes/lint/lint_join.c passes/lint/lint_shape.c passes/lint/lint_range.c \
               passes/lint/lint_keys.c passes/lint/lint_null.c \
               passes/smt/smt.c passes/smt/smt_db.c passes/smt/smt_model.c passes/smt/smt_val.c passes/smt/smt_expr.c passes/smt/smt_collate.c passes/smt/smt_rel.c passes/smt/smt_window.c passes/smt/smt_uf.c passes/smt/smt_str.c passes/smt/smt_strfn.c passes/smt/smt_like.c passes/smt/smt_strnum.c passes/smt/smt_date.c passes/smt/smt_facts.c passes/smt/smt_sample.c passes/smt/smt_fold.c passes/smt/smt_func.c \
               passes/canon/canon_form.c passes/canon/canon_match.c passes/canon/canon_range.c \
               passes/mutate/mutate.c passes/mutate/mutate_expr.c passes/mutate/mutate_rel.c \
               passes/template/template.c passes/template/template_print.c passes/expand/expand.c passes/expand/expand_sql.c passes/expand/tqa.c
BACKEND_SRC := backend/sqlite/db.c backend/sqlite/prepq.c backend/sqlite/migrate.c backend/sqlite/value.c backend/sqlite/result.c \
               backend/template/tmpl_values.c backend/template/tmpl_sample.c \
               backend/sqlite/spider.c \
               backend/emit/registry.c backend/emit/sql.c backend/emit/ddl.c \
               backend/fixture/fixture.c backend/fixture/fixture_print.c backend/fixture/fixture_variants.c \
               backend/equiv/equiv.c backend/equiv/equiv_child.c \
               backend/lint/lint_data.c backend/lint/lint_config.c backend/lint/lint_output.c backend/lint/lint_prove.c backend/lint/lint_noqa.c \
               backend/eval/metric.c backend/eval/softf1.c backend/eval/ves.c backend/eval/item.c backend/eval/record.c backend/eval/hardness.c \
               backend/eval/spider_em.c backend/eval/spider_em_parse.c backend/eval/spider_em_schema.c backend/eval/plug.c backend/eval/pytext.c \
               backend/suite/witness.c backend/suite/suite.c backend/suite/suite_json.c backend/suite/values.c backend/suite/hints.c \
               backend/profile/profile.c backend/profile/profile_meta.c backend/profile/profile_cache.c \
               backend/profile/cex_kind.c \
               backend/prompt/template.c backend/prompt/task.c backend/prompt/prompt_data.c backend/prompt/reply.c backend/prompt/notes.c \
               backend/llm/request.c backend/llm/record.c backend/llm/cache.c backend/llm/client.c \
               backend/synsql/ask.c backend/synsql/columns.c backend/synsql/rows.c backend/synsql/loop.c \
               backend/cbind/annot.c backend/cbind/dml.c backend/cbind/infer.c backend/cbind/manifest.c backend/cbind/sqltext.c backend/cbind/warn.c \
               backend/cbind/emit_c.c backend/cbind/emit_c_body.c
API_SRC     := api/squint.c
GEN_SRC     := $(BUILD)/gen/sql.tab.c $(BUILD)/gen/sql.lex.c $(BUILD)/gen/prompts.c
LIB_SRC     := $(RUNTIME_SRC) $(GRAMMAR_SRC) $(FRONTEND_SRC) $(IR_SRC) $(PASSES_SRC) \
               $(BACKEND_SRC) $(API_SRC)
CLI_SRC     := cli/main.c cli/cli_common.c cli/cli_config.c cli/cli_walk.c cli/cmd_parse.c cli/cmd_check.c cli/cmd_ir.c \
               cli/cli_queries.c cli/cmd_passes.c cli/cmd_opt.c cli/cmd_graph.c \
               cli/cli_schema.c cli/cmd_lint.c \
               cli/cmd_equiv.c cli/cmd_eval.c cli/eval_summary.c \
               cli/eval_report.c cli/eval_report_nav.c cli/eval_report_svg.c cli/eval_report_diff.c cli/eval_report_graph.c cli/eval_out.c cli/cmd_merge.c cli/cmd_fixture.c cli/fixture_out.c cli/fixture_show.c cli/fixture_llm.c \
               cli/cmd_prompt.c cli/cmd_llm.c cli/llm_out.c cli/llm_import.c cli/llm_attach.c cli/llm_tqa.c cli/llm_expand.c cli/cmd_compile.c cli/compile_config.c cli/cmd_template.c cli/template_sample.c cli/template_out.c cli/cli_records.c cli/cmd_expand.c cli/expand_out.c cli/expand_jobs.c cli/expand_tqa.c \
               cli/cli_report.c cli/dot_render.c cli/graph_out.c

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(GEN_SRC:%.c=%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
LIB     := $(BUILD)/libsquint.a
BIN     := $(BUILD)/squint

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps test demo sanitize sanitize-corpus leaks fuzz fuzz-smoke fuzz-long conformance soundness soundness-ci bench coverage-report eval-bird-report eval-spider-report fixture-report realistic-report template-report expand-report clean tools man install uninstall

all: $(LIB) $(BIN)

deps:
	@scripts/deps.sh

# ---- grammar --------------------------------------------------------------

# sql.y has exactly 62 reduce/reduce conflicts, all resolved the way
# SQLite's Lemon grammar resolves them (see the comment at its top).  Bison
# cannot declare an expected reduce/reduce count for an LALR parser, so the
# count is checked here; shift/reduce conflicts are errors.
$(BUILD)/gen/sql.tab.c $(BUILD)/gen/sql.tab.h &: grammar/sql.y
	@mkdir -p $(BUILD)/gen
	$(BISON) -Wall -Wno-conflicts-rr -Werror -o $(BUILD)/gen/sql.tab.c \
	    --header=$(BUILD)/gen/sql.tab.h $<
	@n=$$($(BISON) -Wall -o /dev/null --header=/dev/null $< 2>&1 | \
	    sed -n 's/.* \([0-9]*\) reduce\/reduce conflicts.*/\1/p'); \
	 if [ "$$n" != 62 ]; then \
	    echo "grammar/sql.y: expected 62 reduce/reduce conflicts, bison found '$$n'" >&2; \
	    rm -f $(BUILD)/gen/sql.tab.c; exit 1; fi

$(BUILD)/gen/sql.lex.c $(BUILD)/gen/sql.lex.h &: grammar/sql.l $(BUILD)/gen/sql.tab.h
	@mkdir -p $(BUILD)/gen
	$(FLEX) -o $(BUILD)/gen/sql.lex.c --header-file=$(BUILD)/gen/sql.lex.h $<

# The prompt templates (prompts/*.txt) go into the binary as C strings, so
# that squint finds them wherever it is run or installed from; --template
# FILE reads one at run time instead (docs/prompts.md).
PROMPT_TXT := $(sort $(wildcard prompts/*.txt))
$(BUILD)/gen/prompts.c: $(PROMPT_TXT) scripts/embed_prompts.sh
	@mkdir -p $(BUILD)/gen
	sh scripts/embed_prompts.sh $(PROMPT_TXT) > $@.tmp && mv $@.tmp $@
$(BUILD)/gen/prompts.o: backend/prompt/prompt.h

# Generated code is compiled without our stricter prototype warnings.
$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(CSTD) -Wall -Wextra -Wno-unused-function $(CFLAGS) -I. -I$(BUILD)/gen $(EXTRA_CFLAGS) -c $< -o $@

# ---- library and binary ---------------------------------------------------

$(BUILD)/%.o: %.c $(BUILD)/gen/sql.tab.h $(BUILD)/gen/sql.lex.h
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	$(CC) $(ALLCFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- tests ----------------------------------------------------------------

$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ $< $(LIB) -lcmocka $(LDLIBS)

# test_smt_fault puts its wrappers between libsquint and z3 (the linker's
# --wrap) to make any of these calls fail as z3 does under a memory limit.
SMT_FAULT_WRAP := Z3_set_error_handler Z3_del_context Z3_get_error_code Z3_solver_check Z3_mk_context \
    Z3_mk_solver Z3_mk_params Z3_solver_get_model Z3_solver_get_assertions Z3_solver_get_statistics \
    Z3_translate Z3_model_translate Z3_model_eval Z3_mk_and Z3_mk_lt Z3_mk_const Z3_solver_push \
    Z3_solver_assert Z3_solver_set_params
$(BUILD)/tests/test_smt_fault: LDLIBS += $(foreach f,$(SMT_FAULT_WRAP),-Wl,--wrap=$(f))

tools: $(BUILD)/tools/parity $(BUILD)/tools/bindparity $(BUILD)/tools/roundtrip $(BUILD)/tools/equivcorpus \
       $(BUILD)/tools/bench_parse $(BUILD)/tools/suitecheck

$(BUILD)/tools/roundtrip: tests/conformance/roundtrip.c tests/conformance/corpus.c \
                          tests/conformance/corpus.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ tests/conformance/roundtrip.c tests/conformance/corpus.c \
	    $(LIB) -lsqlite3 -lcjson $(LDLIBS)

$(BUILD)/tools/bindparity: tests/conformance/bindparity.c tests/conformance/corpus.c \
                           tests/conformance/corpus.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ tests/conformance/bindparity.c tests/conformance/corpus.c \
	    $(LIB) -lsqlite3 -lcjson $(LDLIBS)

$(BUILD)/tools/parity: tests/conformance/parity.c tests/conformance/corpus.c \
                       tests/conformance/corpus.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ tests/conformance/parity.c tests/conformance/corpus.c \
	    $(LIB) -lsqlite3 -lcjson $(LDLIBS)

$(BUILD)/tools/equivcorpus: tests/conformance/equivcorpus.c tests/conformance/corpus.c \
                            tests/conformance/corpus.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ tests/conformance/equivcorpus.c tests/conformance/corpus.c \
	    $(LIB) -lsqlite3 -lcjson $(LDLIBS)

$(BUILD)/tools/em_pairs: tests/tools/em_pairs.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ tests/tools/em_pairs.c $(LIB) $(LDLIBS)

$(BUILD)/tools/suitecheck: tests/tools/suitecheck.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ tests/tools/suitecheck.c $(LIB) $(LDLIBS)

$(BUILD)/tools/bench_parse: bench/parse/bench_parse.c tests/conformance/corpus.c \
                            tests/conformance/corpus.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ bench/parse/bench_parse.c \
	    tests/conformance/corpus.c $(LIB) -lsqlite3 -lcjson $(LDLIBS)

$(BUILD)/tools/bench_long: bench/parse/bench_long.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ bench/parse/bench_long.c $(LIB) -lsqlite3 $(LDLIBS)

$(BUILD)/tools/bench_lint: bench/lint/bench_lint.c tests/conformance/corpus.c \
                           tests/conformance/corpus.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ bench/lint/bench_lint.c \
	    tests/conformance/corpus.c $(LIB) -lsqlite3 -lcjson $(LDLIBS)

# squint compile in process: the command's own objects, without main()
$(BUILD)/tools/bench_compile: bench/compile/bench_compile.c $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ)) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ bench/compile/bench_compile.c \
	    $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ)) $(LIB) $(LDLIBS)

SOUNDNESS_SRC := tests/soundness/soundness.c tests/soundness/check.c tests/soundness/randdb.c \
                 tests/soundness/dbcheck.c tests/soundness/cases.c tests/conformance/corpus.c

$(BUILD)/tools/soundness: $(SOUNDNESS_SRC) $(wildcard tests/soundness/*.h) tests/conformance/corpus.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ $(SOUNDNESS_SRC) $(LIB) -lsqlite3 -lcjson -lm $(LDLIBS)

SOUNDNESS_LIB := tests/soundness/randdb.c tests/soundness/dbcheck.c tests/soundness/cases.c

$(BUILD)/tests/test_soundness: tests/soundness/test_soundness.c $(SOUNDNESS_LIB) \
                               $(wildcard tests/soundness/*.h) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ tests/soundness/test_soundness.c $(SOUNDNESS_LIB) $(LIB) -lcmocka -lm $(LDLIBS)

test: deps
	@$(SUBMAKE) all $(UNIT_BIN) $(BUILD)/tools/bindparity \
	    $(BUILD)/tools/roundtrip $(BUILD)/tools/suitecheck $(BUILD)/tools/soundness \
	    $(BUILD)/tests/test_soundness
	@BUILD=$(BUILD) tests/run.sh

# ---- install ----------------------------------------------------------------

# The binary, its man pages (made from each command's --help by
# scripts/man.sh, so they say what --help says) and its bash completion.
# The library is internal (docs/install.md): nothing of it is installed.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man/man1
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

man: $(BIN) scripts/man.sh scripts/help2man.awk
	@rm -rf $(BUILD)/man
	sh scripts/man.sh $(BIN) $(BUILD)/man

install: all man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(BASHCOMPDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/squint
	install -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/
	install -m 644 scripts/completion/squint.bash $(DESTDIR)$(BASHCOMPDIR)/squint

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/squint $(DESTDIR)$(BASHCOMPDIR)/squint
	rm -f $(DESTDIR)$(MANDIR)/squint.1 $(DESTDIR)$(MANDIR)/squint-*.1

demo: deps
	@$(SUBMAKE) all
	@scripts/demo.sh $(BIN)

# The tests again under ASan and UBSan; the equiv cases that do not ask
# for every storage class run with typed values (EQUIV_VALUES: the same
# code under the sanitizers, for less solver time), and the scripts skip
# what does not run squint's code (SQUINT_SANITIZERS: the eval report's
# rendering in Chromium).
sanitize: deps
	@$(SUBMAKE) BUILD=build-san \
	    EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	    CFLAGS="-O1 -g" all \
	    $(UNIT_SRC:tests/unit/%.c=build-san/tests/%) build-san/tools/bindparity \
	    build-san/tools/roundtrip build-san/tools/suitecheck build-san/tools/soundness \
	    build-san/tests/test_soundness
	@BUILD=build-san ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 EQUIV_VALUES=typed \
	    SQUINT_SANITIZERS=1 tests/run.sh

# The corpus tools under ASan+UBSan: parse, bind, lower and emit every
# corpus query with the sanitizers watching (the round trip through the
# rewrite passes: a query they leave alone is emitted as the plain round
# trip emits it, so that one is not run again here).
sanitize-corpus: deps
	@$(SUBMAKE) BUILD=build-san \
	    EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	    CFLAGS="-O1 -g" build-san/tools/parity build-san/tools/bindparity build-san/tools/roundtrip \
	    build-san/tools/equivcorpus build-san/tools/em_pairs
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build-san/tools/parity
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build-san/tools/bindparity
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build-san/tools/roundtrip \
	    --passes unnest --passes joinelim-rewrite
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build-san/tools/equivcorpus \
	    --calcite --bound 2 --timeout 5
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build-san/tools/equivcorpus \
	    --self --bound 2 --timeout 5 --limit 100
	@S=$${SQUINT_CORPORA:-../shared/corpora}/spider-dev; if [ -d "$$S/database" ]; then \
	    gzip -dc tests/eval/spider-em/pairs.tsv.gz | cut -f4 > build-san/em_pairs.official && \
	    gzip -dc tests/eval/spider-em/pairs.tsv.gz | cut -f1-3 | ASAN_OPTIONS=detect_leaks=1 \
	    UBSAN_OPTIONS=print_stacktrace=1 build-san/tools/em_pairs "$$S/database" "$$S/tables.json" | \
	    cmp -s - build-san/em_pairs.official && \
	    echo "em_pairs (sanitizers): the edited query pairs as the official script scores them"; \
	    else echo "em_pairs (sanitizers): skipped (no $$S)"; fi

# The error model's check (docs/architecture.md): squint equiv under
# valgrind on the case file whose searches are left by a throw (a
# construct the lowering gives up on, a folded constant it cannot
# encode); a definite leak in the parent or in the search's process fails
# the case.  LEAKS_CASES picks other files (tests/equiv/checks.cases: 20 s;
# tests/equiv/*.cases: about half an hour); every suite is leak-checked by
# LeakSanitizer in make sanitize.
LEAKS_CASES ?= tests/equiv/unsupported.cases
leaks: deps
	@scripts/deps.sh valgrind
	@$(SUBMAKE) all
	@EQUIV_WRAP="valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=97" \
	    tests/cli/test_equiv.sh $(LEAKS_CASES) | tee $(BUILD)/leaks.tap; \
	 ! grep -q '^not ok' $(BUILD)/leaks.tap

conformance: deps
	@$(SUBMAKE) all $(BUILD)/tools/parity $(BUILD)/tools/bindparity \
	    $(BUILD)/tools/roundtrip $(BUILD)/tools/equivcorpus $(BUILD)/tools/soundness $(BUILD)/tools/em_pairs
	@tests/conformance/run.sh $(BUILD)

# squint equiv's `equivalent` checked against SQLite (docs/soundness.md):
# make soundness     everything, SOUNDNESS_DBS random databases per pair (default 20)
# make soundness-ci  the tests/equiv cases and a sample of Spider, 4 databases each
soundness soundness-ci: soundness%: deps
	@$(SUBMAKE) all $(BUILD)/tools/soundness
	@tests/soundness/run.sh $(if $*,ci,full) $(BUILD)

$(BUILD)/tools/bench_equiv: bench/equiv/bench_equiv.c tests/conformance/corpus.c \
                            tests/conformance/corpus.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ bench/equiv/bench_equiv.c \
	    tests/conformance/corpus.c $(LIB) -lsqlite3 -lcjson $(LDLIBS)

$(BUILD)/tools/equiv_coverage: bench/equiv/coverage.c tests/conformance/corpus.c \
                               tests/conformance/corpus.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ bench/equiv/coverage.c \
	    tests/conformance/corpus.c $(LIB) -lsqlite3 -lcjson $(LDLIBS)

# docs/coverage.md: squint equiv on every BIRD dev (gold, prediction) pair
# docs/eval-bird.md and docs/eval-spider.md: squint eval over a whole benchmark
eval-bird-report eval-spider-report: eval-%-report: deps
	@$(SUBMAKE) all
	@scripts/eval_report.sh $* $(BUILD) > docs/eval-$*.md.tmp && mv docs/eval-$*.md.tmp docs/eval-$*.md
	@echo "wrote docs/eval-$*.md"

# squint fixture over Spider dev and BIRD dev, the suites checked and used
# to score the Spider prediction files (docs/fixture-report.md; about 70
# minutes on 2 cores, BIRD's 1,534 questions the last 35; FIXTURE_REUSE=1
# keeps each stage that has its output and rewrites the page).
fixture-report: deps
	@$(SUBMAKE) all $(BUILD)/tools/suitecheck
	@scripts/fixture_report.sh $(BUILD) > docs/fixture-report.md.tmp && mv docs/fixture-report.md.tmp docs/fixture-report.md
	@echo "wrote docs/fixture-report.md"

# squint eval --realistic over Spider dev: EX-test, EX-verified exact and
# realistic, refutations by kind (docs/realistic-report.md; about half an
# hour on 2 cores; a stopped run resumes from build/realistic-eval.jsonl,
# REALISTIC_REUSE=1 rewrites the page from the records as they are).
template-report: deps
	@$(SUBMAKE) all
	@scripts/template_report.sh $(BUILD) > docs/template-report.md.tmp && mv docs/template-report.md.tmp docs/template-report.md
	@echo "wrote docs/template-report.md"

expand-report: deps
	@$(SUBMAKE) all
	@scripts/expand_report.sh $(BUILD) > docs/expand-report.md.tmp && mv docs/expand-report.md.tmp docs/expand-report.md
	@echo "wrote docs/expand-report.md"

realistic-report: deps
	@$(SUBMAKE) all
	@scripts/realistic_report.sh $(BUILD) > docs/realistic-report.md.tmp && mv docs/realistic-report.md.tmp docs/realistic-report.md
	@echo "wrote docs/realistic-report.md"

coverage-report: deps
	@$(SUBMAKE) all $(BUILD)/tools/equiv_coverage
	@scripts/coverage_report.sh $(BUILD) > docs/coverage.md.tmp && mv docs/coverage.md.tmp docs/coverage.md
	@echo "wrote docs/coverage.md"

bench: deps
	@$(SUBMAKE) all $(BUILD)/tools/bench_parse $(BUILD)/tools/bench_long \
	    $(BUILD)/tools/bench_lint $(BUILD)/tools/bench_equiv $(BUILD)/tools/bench_compile
	@bench/run.sh $(BUILD)
	@bench/compile/run.sh $(BUILD)
	@scripts/deps.sh curl
	@bench/llm_bench.sh $(BUILD)

# libFuzzer targets (tests/fuzz/README.md): parse check lint bench tables
# config equiv; FUZZ_TARGETS picks some.  fuzz-long: FUZZ_RUNS executions
# each (default: 10 million for the parser and the readers, 1 million for
# check and lint, 100,000 pairs for equiv), FUZZ_SECONDS=S caps each target
# at S seconds.  fuzz-smoke needs clang already there (CI): without it, it
# says so and succeeds.
fuzz:
	@scripts/deps.sh clang libclang-rt-14-dev
	@tests/fuzz/run.sh -t $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-long:
	@scripts/deps.sh clang libclang-rt-14-dev
	@tests/fuzz/run.sh -l $(if $(FUZZ_RUNS),-n $(FUZZ_RUNS)) \
	    $(if $(filter command line environment,$(origin FUZZ_SECONDS)),-t $(FUZZ_SECONDS)) $(FUZZ_TARGETS)

fuzz-smoke:
	@tests/fuzz/smoke.sh $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

clean:
	rm -rf build build-san build-fuzz
