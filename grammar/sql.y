/*
** sql.y -- bison grammar for SQLite 3.40's SQL dialect.
**
** Layer: grammar.  A pure push parser: parse.c lexes, decides whether a
** keyword stands for an identifier, and pushes tokens one at a time.
**
** The rules follow the structure of SQLite's own grammar (src/parse.y)
** nonterminal for nonterminal, including its empty "scanpt" markers.  That
** is deliberate: SQLite's parser stack holds 100 entries, and statements
** nested deeply enough to overflow it are rejected; keeping the same rules
** keeps the same stack depth, so squint accepts exactly what SQLite
** accepts.  Differences from Lemon that matter:
**   - Lemon takes a rule's precedence from its first precedence token,
**     bison from its last: rules with two such tokens carry an explicit
**     %prec.
**   - Lemon resolves reduce/reduce conflicts by precedence, bison by rule
**     order, and bison cannot declare an expected count for them in an LALR
**     parser.  There are exactly 62, in two states, and the Makefile fails
**     the build if that number changes:
**       50 in "x IS NOT y": IS NOT (rule first) beats NOT y, as IS > NOT;
**       12 in "x BETWEEN a AND b AND c": BETWEEN (rule first) beats AND.
**     In both the rule listed first is the one with the higher precedence,
**     which is the rule Lemon picks.  Shift/reduce conflicts: none left
**     unresolved (-Werror).
**   - Lemon's %fallback and %wildcard are done by the driver in parse.c.
**
** Actions are one constructor call each (ast.c); checks that SQLite makes
** while parsing (compound ORDER BY placement, join keywords, ...) happen in
** those constructors and are reported through the context.
*/
%require "3.8"
%define api.pure full
%define api.push-pull push
%define api.prefix {sq_yy}
%define api.token.prefix {TK_}
%define api.location.type {SqLoc}
%define parse.error custom
%define parse.lac full
%locations
%parse-param {ParseCtx *ctx}

%code requires {
#include "grammar/parse_types.h"
}

%union {
    LexTok tok;
    int ival;
    AstStmt *stmt;
    AstName name;
    AstTypeName type;
    AstFullName fullname;
    AstSelect *sel;
    AstResultList *rlist;
    AstFrom *from;
    AstOnUsing onusing;
    AstOrderList *olist;
    AstExprList *elist;
    AstExpr *expr;
    AstLimit limit;
    AstCaseList *cases;
    AstNameList *nlist;
    AstLikeOp likeop;
    AstWith *with;
    AstCte *cte;
    AstWindow *win;
    AstWindowList *wlist;
    AstFilterOver fo;
    AstFrameBound bound;
    AstSetList *setl;
    AstUpsert *upsert;
    AstTrigEvent trig;
}

%code {
#include "grammar/parse_int.h"

/* SQLite's parser stack holds 100 entries; bison refuses to grow past
** YYMAXDEPTH - 1, so this makes the same statements overflow. */
#define YYINITDEPTH 101
#define YYMAXDEPTH 101

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                  \
    do {                                                             \
        if (N) {                                                     \
            (Cur).start = YYRHSLOC(Rhs, 1).start;                    \
            (Cur).end = YYRHSLOC(Rhs, N).end;                        \
        } else {                                                     \
            (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;          \
        }                                                            \
    } while (0)

static void yyerror(const SqLoc *loc, ParseCtx *ctx, const char *msg);

/* A DML statement's location: from its WITH, or without one from its
** verb.  An empty rule takes the end of the symbol below it on the stack,
** which at a statement's start is not the statement's own first token. */
static inline SqLoc dml_loc(const void *with, SqLoc whole, SqLoc verb) {
    if (!with) whole.start = verb.start;
    return whole;
}
}

/* ------------------------------------------------------------------ */
/* Tokens.  Aliases are the names used in "expected ..." messages.      */
/* ------------------------------------------------------------------ */

%token <tok> SEMI ";" EXPLAIN "EXPLAIN" QUERY "QUERY" PLAN "PLAN"
%token <tok> BEGIN "BEGIN" TRANSACTION "TRANSACTION" DEFERRED "DEFERRED"
%token <tok> IMMEDIATE "IMMEDIATE" EXCLUSIVE "EXCLUSIVE" COMMIT "COMMIT"
%token <tok> END "END" ROLLBACK "ROLLBACK" SAVEPOINT "SAVEPOINT"
%token <tok> RELEASE "RELEASE" TO "TO" TABLE "TABLE" CREATE "CREATE"
%token <tok> IF "IF" NOT "NOT" EXISTS "EXISTS" TEMP "TEMP" LP "(" RP ")"
%token <tok> AS "AS" COMMA "," WITHOUT "WITHOUT" ABORT "ABORT"
%token <tok> ACTION "ACTION" AFTER "AFTER" ANALYZE "ANALYZE" ASC "ASC"
%token <tok> ATTACH "ATTACH" BEFORE "BEFORE" BY "BY" CASCADE "CASCADE"
%token <tok> CAST "CAST" CONFLICT "CONFLICT" DATABASE "DATABASE"
%token <tok> DESC "DESC" DETACH "DETACH" EACH "EACH" FAIL "FAIL"
%token <tok> OR "OR" AND "AND" IS "IS" MATCH "MATCH" LIKE_KW "LIKE"
%token <tok> BETWEEN "BETWEEN" IN "IN" ISNULL "ISNULL" NOTNULL "NOTNULL"
%token <tok> NE "!=" EQ "=" GT ">" LE "<=" LT "<" GE ">=" ESCAPE "ESCAPE"
%token <tok> ID "a name" COLUMNKW "COLUMN" DO "DO" FOR "FOR"
%token <tok> IGNORE "IGNORE" INITIALLY "INITIALLY" INSTEAD "INSTEAD"
%token <tok> NO "NO" KEY "KEY" OF "OF" OFFSET "OFFSET" PRAGMA "PRAGMA"
%token <tok> RAISE "RAISE" RECURSIVE "RECURSIVE" REPLACE "REPLACE"
%token <tok> RESTRICT "RESTRICT" ROW "ROW" ROWS "ROWS" TRIGGER "TRIGGER"
%token <tok> VACUUM "VACUUM" VIEW "VIEW" VIRTUAL "VIRTUAL" WITH "WITH"
%token <tok> NULLS "NULLS" FIRST "FIRST" LAST "LAST" CURRENT "CURRENT"
%token <tok> FOLLOWING "FOLLOWING" PARTITION "PARTITION"
%token <tok> PRECEDING "PRECEDING" RANGE "RANGE" UNBOUNDED "UNBOUNDED"
%token <tok> EXCLUDE "EXCLUDE" GROUPS "GROUPS" OTHERS "OTHERS" TIES "TIES"
%token <tok> GENERATED "GENERATED" ALWAYS "ALWAYS"
%token <tok> MATERIALIZED "MATERIALIZED" REINDEX "REINDEX" RENAME "RENAME"
%token <tok> CTIME_KW "a CURRENT_* keyword" ANY "any token"
%token <tok> BITAND "&" BITOR "|" LSHIFT "<<" RSHIFT ">>" PLUS "+"
%token <tok> MINUS "-" STAR "*" SLASH "/" REM "%" CONCAT "||" PTR "->"
%token <tok> COLLATE "COLLATE" BITNOT "~" ON "ON" INDEXED "INDEXED"
%token <tok> STRING "a string" JOIN_KW "a join keyword"
%token <tok> CONSTRAINT "CONSTRAINT" DEFAULT "DEFAULT" NULL "NULL"
%token <tok> PRIMARY "PRIMARY" UNIQUE "UNIQUE" CHECK "CHECK"
%token <tok> REFERENCES "REFERENCES" AUTOINCR "AUTOINCREMENT"
%token <tok> INSERT "INSERT" DELETE "DELETE" UPDATE "UPDATE" SET "SET"
%token <tok> DEFERRABLE "DEFERRABLE" FOREIGN "FOREIGN" DROP "DROP"
%token <tok> UNION "UNION" ALL "ALL" EXCEPT "EXCEPT" INTERSECT "INTERSECT"
%token <tok> SELECT "SELECT" VALUES "VALUES" DISTINCT "DISTINCT" DOT "."
%token <tok> FROM "FROM" JOIN "JOIN" USING "USING" ORDER "ORDER"
%token <tok> GROUP "GROUP" HAVING "HAVING" LIMIT "LIMIT" WHERE "WHERE"
%token <tok> RETURNING "RETURNING" INTO "INTO" NOTHING "NOTHING"
%token <tok> FLOAT "a number" BLOB "a blob" INTEGER "an integer"
%token <tok> VARIABLE "a parameter" CASE "CASE" WHEN "WHEN" THEN "THEN"
%token <tok> ELSE "ELSE" INDEX "INDEX" ALTER "ALTER" ADD "ADD"
%token <tok> WINDOW "WINDOW" OVER "OVER" FILTER "FILTER"

/* SQLite's operator precedence, loosest first. */
%left OR
%left AND
%right NOT
%left IS MATCH LIKE_KW BETWEEN IN ISNULL NOTNULL NE EQ
%left GT LE LT GE
%precedence ESCAPE
%left BITAND BITOR LSHIFT RSHIFT
%left PLUS MINUS
%left STAR SLASH REM
%left CONCAT PTR
%precedence COLLATE
%precedence BITNOT
%precedence ON

%type <stmt> cmd
%type <ival> transtype ifnotexists temp table_option_set table_option autoinc
%type <ival> refargs refarg refact defer_subclause init_deferred_pred_opt
%type <ival> defer_subclause_opt onconf orconf resolvetype raisetype ifexists
%type <ival> multiselect_op distinct joinop sortorder nulls insert_cmd
%type <ival> uniqueflag collate wqas range_or_rows frame_exclude_opt
%type <ival> frame_exclude trigger_time foreach_clause
%type <trig> trigger_event
%type <name> nm id ids dbnm as indexed_opt indexed_by trnm
%type <type> typetoken
%type <fullname> fullname xfullname
%type <sel> select selectnowith oneselect values
%type <rlist> selcollist sclp
%type <from> from seltablist stl_prefix
%type <onusing> on_using
%type <olist> orderby_opt sortlist
%type <elist> groupby_opt exprlist nexprlist paren_exprlist
%type <expr> expr term where_opt where_opt_ret having_opt case_else
%type <expr> case_operand filter_clause when_clause vinto key_opt
%type <limit> limit_opt
%type <cases> case_exprlist
%type <nlist> idlist idlist_opt eidlist eidlist_opt
%type <likeop> likeop
%type <ival> between_op in_op
%type <with> wqlist
%type <cte> wqitem
%type <win> window windowdefn over_clause frame_opt
%type <fo> filter_over
%type <wlist> windowdefn_list window_clause
%type <bound> frame_bound frame_bound_s frame_bound_e
%type <setl> setlist
%type <upsert> upsert
%type <rlist> returning
%type <tok> plus_num minus_num number nmnum signed
%type <stmt> trigger_cmd_list trigger_cmd
%type <with> with

%start input

%%

/* ------------------------------------------------------------------ */
/* Statement lists                                                     */
/* ------------------------------------------------------------------ */

input: cmdlist ;
cmdlist: cmdlist ecmd | ecmd ;
ecmd: SEMI
    | cmdx SEMI
    | explain cmdx SEMI
    ;
explain: EXPLAIN              { ast_explain(ctx, 1); }
       | EXPLAIN QUERY PLAN   { ast_explain(ctx, 2); }
       ;
cmdx: cmd                     { ast_stmt_finish(ctx, $1, @1); } ;

/* ------------------------------------------------------------------ */
/* Transactions                                                        */
/* ------------------------------------------------------------------ */

cmd: BEGIN transtype trans_opt   { $$ = ast_stmt_txn(ctx, AST_TXN_BEGIN, $2, NULL, @$); } ;
trans_opt: %empty | TRANSACTION | TRANSACTION nm ;
transtype: %empty       { $$ = AST_TXN_DEFAULT; }
         | DEFERRED     { $$ = AST_TXN_DEFERRED; }
         | IMMEDIATE    { $$ = AST_TXN_IMMEDIATE; }
         | EXCLUSIVE    { $$ = AST_TXN_EXCLUSIVE; }
         ;
cmd: COMMIT trans_opt          { $$ = ast_stmt_txn(ctx, AST_TXN_COMMIT, 0, NULL, @$); }
   | END trans_opt             { $$ = ast_stmt_txn(ctx, AST_TXN_COMMIT, 0, NULL, @$); }
   | ROLLBACK trans_opt        { $$ = ast_stmt_txn(ctx, AST_TXN_ROLLBACK, 0, NULL, @$); }
   ;
savepoint_opt: SAVEPOINT | %empty ;
cmd: SAVEPOINT nm              { $$ = ast_stmt_txn(ctx, AST_TXN_SAVEPOINT, 0, &$2, @$); }
   | RELEASE savepoint_opt nm  { $$ = ast_stmt_txn(ctx, AST_TXN_RELEASE, 0, &$3, @$); }
   | ROLLBACK trans_opt TO savepoint_opt nm
                               { $$ = ast_stmt_txn(ctx, AST_TXN_ROLLBACK_TO, 0, &$5, @$); }
   ;

/* ------------------------------------------------------------------ */
/* CREATE TABLE                                                        */
/* ------------------------------------------------------------------ */

cmd: create_table create_table_args   { $$ = ast_table_finish(ctx, @$); } ;
create_table: createkw temp TABLE ifnotexists nm dbnm
                                      { ast_table_start(ctx, $2, $4, &$5, &$6); } ;
createkw: CREATE ;
ifnotexists: %empty           { $$ = 0; }
           | IF NOT EXISTS    { $$ = 1; }
           ;
temp: TEMP                    { $$ = 1; }
    | %empty                  { $$ = 0; }
    ;
create_table_args: LP columnlist conslist_opt RP table_option_set
                                      { ast_table_options(ctx, $5); }
                 | AS select          { ast_table_as_select(ctx, $2); }
                 ;
table_option_set: %empty                              { $$ = 0; }
                | table_option                        { $$ = $1; }
                | table_option_set COMMA table_option { $$ = $1 | $3; }
                ;
table_option: WITHOUT nm      { $$ = ast_table_option(ctx, &$2, 1); }
            | nm              { $$ = ast_table_option(ctx, &$1, 0); }
            ;
columnlist: columnlist COMMA columnname carglist
          | columnname carglist
          ;
columnname: nm typetoken      { ast_table_add_column(ctx, &$1, &$2, @$); } ;

/* Names.  SQLite lets strings and join keywords name things too. */
id: ID                        { $$ = ast_name(ctx, $1); }
  | INDEXED                   { $$ = ast_name(ctx, $1); }
  ;
ids: ID                       { $$ = ast_name(ctx, $1); }
   | STRING                   { $$ = ast_name(ctx, $1); }
   ;
nm: id                        { $$ = $1; }
  | STRING                    { $$ = ast_name(ctx, $1); }
  | JOIN_KW                   { $$ = ast_name(ctx, $1); }
  ;

typetoken: %empty                              { $$ = ast_typename(ctx, @$, 0); }
         | typename                            { $$ = ast_typename(ctx, @$, 1); }
         | typename LP signed RP               { $$ = ast_typename(ctx, @$, 1); }
         | typename LP signed COMMA signed RP  { $$ = ast_typename(ctx, @$, 1); }
         ;
typename: ids | typename ids ;
signed: plus_num              { $$ = $1; }
      | minus_num             { $$ = $1; }
      ;

/* Empty markers kept from SQLite's grammar for identical stack depth. */
scanpt: %empty ;
scantok: %empty ;

carglist: carglist ccons | %empty ;
ccons: CONSTRAINT nm                  { ast_cons_name(ctx, &$2); }
     | DEFAULT scantok term           { ast_col_default(ctx, $3, @$); }
     | DEFAULT LP expr RP             { ast_col_default(ctx, ast_paren(ctx, $3, @2, @4), @$); }
     | DEFAULT PLUS scantok term      { ast_col_default(ctx, ast_unary(ctx, AST_OP_POS, $4, @2), @$); }
     | DEFAULT MINUS scantok term     { ast_col_default(ctx, ast_unary(ctx, AST_OP_NEG, $4, @2), @$); }
     | DEFAULT scantok id             { ast_col_default(ctx, ast_default_word(ctx, &$3), @$); }
     | NULL onconf                    { ast_col_cons(ctx, AST_CC_NULL, $2, @$); }
     | NOT NULL onconf                { ast_col_cons(ctx, AST_CC_NOT_NULL, $3, @$); }
     | PRIMARY KEY sortorder onconf autoinc
                                      { ast_col_primary_key(ctx, $3, $4, $5, @$); }
     | UNIQUE onconf                  { ast_col_cons(ctx, AST_CC_UNIQUE, $2, @$); }
     | CHECK LP expr RP               { ast_col_check(ctx, $3, @$); }
     | REFERENCES nm eidlist_opt refargs
                                      { ast_col_references(ctx, &$2, $3, $4, @$); }
     | defer_subclause                { ast_col_deferrable(ctx, $1, @$); }
     | COLLATE ids                    { ast_col_collate(ctx, &$2, @$); }
     | GENERATED ALWAYS AS generated
     | AS generated
     ;
generated: LP expr RP                 { ast_col_generated(ctx, $2, NULL, @$); }
         | LP expr RP ID              { AstName w = ast_name(ctx, $4);
                                        ast_col_generated(ctx, $2, &w, @$); }
         ;
autoinc: %empty               { $$ = 0; }
       | AUTOINCR             { $$ = 1; }
       ;

/* refargs packs ON DELETE in the low byte and ON UPDATE in the next. */
refargs: %empty               { $$ = 0; }
       | refargs refarg       { $$ = ($2 & 0xff) ? (($1 & ~0xff) | ($2 & 0xff))
                                   : ($2 & 0xff00) ? (($1 & ~0xff00) | ($2 & 0xff00))
                                   : $1; }
       ;
refarg: MATCH nm              { $$ = 0; }
      | ON INSERT refact      { $$ = 0; }
      | ON DELETE refact      { $$ = $3; }
      | ON UPDATE refact      { $$ = $3 << 8; }
      ;
refact: SET NULL              { $$ = AST_FK_SET_NULL; }
      | SET DEFAULT           { $$ = AST_FK_SET_DEFAULT; }
      | CASCADE               { $$ = AST_FK_CASCADE; }
      | RESTRICT              { $$ = AST_FK_RESTRICT; }
      | NO ACTION             { $$ = AST_FK_NO_ACTION; }
      ;
defer_subclause: NOT DEFERRABLE init_deferred_pred_opt { $$ = 0; }
               | DEFERRABLE init_deferred_pred_opt     { $$ = $2; }
               ;
init_deferred_pred_opt: %empty               { $$ = 0; }
                      | INITIALLY DEFERRED   { $$ = 1; }
                      | INITIALLY IMMEDIATE  { $$ = 0; }
                      ;
conslist_opt: %empty | COMMA conslist ;
conslist: conslist tconscomma tcons | tcons ;
tconscomma: COMMA             { ast_cons_name_clear(ctx); }
          | %empty
          ;
tcons: CONSTRAINT nm          { ast_cons_name(ctx, &$2); }
     | PRIMARY KEY LP sortlist autoinc RP onconf
                              { ast_table_primary_key(ctx, $4, $5, $7, @$); }
     | UNIQUE LP sortlist RP onconf
                              { ast_table_unique(ctx, $3, $5, @$); }
     | CHECK LP expr RP onconf
                              { ast_table_check(ctx, $3, @$); }
     | FOREIGN KEY LP eidlist RP REFERENCES nm eidlist_opt refargs defer_subclause_opt
                              { ast_table_foreign_key(ctx, $4, &$7, $8, $9, $10, @$); }
     ;
defer_subclause_opt: %empty            { $$ = 0; }
                   | defer_subclause   { $$ = $1; }
                   ;
onconf: %empty                          { $$ = AST_CONFLICT_DEFAULT; }
      | ON CONFLICT resolvetype         { $$ = $3; }
      ;
orconf: %empty                          { $$ = AST_CONFLICT_DEFAULT; }
      | OR resolvetype                  { $$ = $2; }
      ;
resolvetype: raisetype                  { $$ = $1; }
           | IGNORE                     { $$ = AST_CONFLICT_IGNORE; }
           | REPLACE                    { $$ = AST_CONFLICT_REPLACE; }
           ;

/* ------------------------------------------------------------------ */
/* DROP, CREATE VIEW                                                   */
/* ------------------------------------------------------------------ */

cmd: DROP TABLE ifexists fullname     { $$ = ast_stmt_drop(ctx, AST_DROP_TABLE, $3, &$4, @$); } ;
ifexists: IF EXISTS                   { $$ = 1; }
        | %empty                      { $$ = 0; }
        ;
cmd: createkw temp VIEW ifnotexists nm dbnm eidlist_opt AS select
                                      { $$ = ast_stmt_create_view(ctx, $2, $4, &$5, &$6, $7, $9, @$); }
   | DROP VIEW ifexists fullname      { $$ = ast_stmt_drop(ctx, AST_DROP_VIEW, $3, &$4, @$); }
   ;

/* ------------------------------------------------------------------ */
/* SELECT                                                              */
/* ------------------------------------------------------------------ */

cmd: select                           { $$ = ast_stmt_select(ctx, $1, @$); } ;

select: WITH wqlist selectnowith      { $$ = ast_select_with(ctx, $3, $2, 0, @$); }
      | WITH RECURSIVE wqlist selectnowith
                                      { $$ = ast_select_with(ctx, $4, $3, 1, @$); }
      | selectnowith                  { $$ = ast_select_finish(ctx, $1); }
      ;
selectnowith: oneselect               { $$ = $1; }
            | selectnowith multiselect_op oneselect
                                      { $$ = ast_compound(ctx, $2, $1, $3, @$); }
            ;
multiselect_op: UNION                 { $$ = AST_SET_UNION; }
              | UNION ALL             { $$ = AST_SET_UNION_ALL; }
              | EXCEPT                { $$ = AST_SET_EXCEPT; }
              | INTERSECT             { $$ = AST_SET_INTERSECT; }
              ;
oneselect: SELECT distinct selcollist from where_opt groupby_opt having_opt
           orderby_opt limit_opt
                 { $$ = ast_select_core(ctx, $2, $3, $4, $5, $6, $7, NULL, $8, $9, @$); }
         | SELECT distinct selcollist from where_opt groupby_opt having_opt
           window_clause orderby_opt limit_opt
                 { $$ = ast_select_core(ctx, $2, $3, $4, $5, $6, $7, $8, $9, $10, @$); }
         | values                     { $$ = $1; }
         ;
values: VALUES LP nexprlist RP        { $$ = ast_values(ctx, NULL, $3, @$); }
      | values COMMA LP nexprlist RP  { $$ = ast_values(ctx, $1, $4, @$); }
      ;
distinct: DISTINCT                    { $$ = AST_SELF_DISTINCT; }
        | ALL                         { $$ = AST_SELF_ALL; }
        | %empty                      { $$ = 0; }
        ;
sclp: selcollist COMMA                { $$ = $1; }
    | %empty                          { $$ = NULL; }
    ;
selcollist: sclp scanpt expr scanpt as
                                      { $$ = ast_result_expr(ctx, $1, $3, &$5, @$); }
          | sclp scanpt STAR          { $$ = ast_result_star(ctx, $1, NULL, @3); }
          | sclp scanpt nm DOT STAR   { $$ = ast_result_star(ctx, $1, &$3, @$); }
          ;
as: AS nm                             { $$ = $2; $$.flags |= AST_NAMEF_AS; }
  | ids                               { $$ = $1; }
  | %empty                            { $$ = ast_name_none(); }
  ;

from: %empty                          { $$ = NULL; }
    | FROM seltablist                 { $$ = $2; }
    ;
stl_prefix: seltablist joinop         { $$ = ast_from_join(ctx, $1, $2, @2); }
          | %empty                    { $$ = NULL; }
          ;
seltablist: stl_prefix nm dbnm as on_using
                { $$ = ast_from_table(ctx, $1, &$2, &$3, &$4, NULL, NULL, &$5, @$); }
          | stl_prefix nm dbnm as indexed_by on_using
                { $$ = ast_from_table(ctx, $1, &$2, &$3, &$4, &$5, NULL, &$6, @$); }
          | stl_prefix nm dbnm LP exprlist RP as on_using
                { $$ = ast_from_table(ctx, $1, &$2, &$3, &$7, NULL, ast_args(ctx, $5), &$8, @$); }
          | stl_prefix LP select RP as on_using
                { $$ = ast_from_subquery(ctx, $1, $3, &$5, &$6, @2, @$); }
          | stl_prefix LP seltablist RP as on_using
                { $$ = ast_from_nested(ctx, $1, $3, &$5, &$6, @2, @$); }
          ;
dbnm: %empty                          { $$ = ast_name_none(); }
    | DOT nm                          { $$ = $2; }
    ;
fullname: nm                          { $$ = ast_fullname(ctx, &$1, NULL, NULL); }
        | nm DOT nm                   { $$ = ast_fullname(ctx, &$1, &$3, NULL); }
        ;
xfullname: nm                         { $$ = ast_fullname(ctx, &$1, NULL, NULL); }
         | nm DOT nm                  { $$ = ast_fullname(ctx, &$1, &$3, NULL); }
         | nm DOT nm AS nm            { $$ = ast_fullname(ctx, &$1, &$3, &$5); }
         | nm AS nm                   { $$ = ast_fullname(ctx, &$1, NULL, &$3); }
         ;
joinop: COMMA                         { $$ = AST_JT_INNER | AST_JT_COMMA; }
      | JOIN                          { $$ = AST_JT_INNER | AST_JT_JOIN; }
      | JOIN_KW JOIN                  { $$ = ast_join_type(ctx, &$1, NULL, NULL); }
      | JOIN_KW nm JOIN               { $$ = ast_join_type(ctx, &$1, &$2, NULL); }
      | JOIN_KW nm nm JOIN            { $$ = ast_join_type(ctx, &$1, &$2, &$3); }
      ;
/* ON here always belongs to the join (SQLite's [OR] mark), never to an
** upsert's ON CONFLICT. */
on_using: ON expr                     { $$ = ast_on_using($2, NULL, @$); }
        | USING LP idlist RP          { $$ = ast_on_using(NULL, $3, @$); }
        | %empty %prec OR             { $$ = ast_on_using(NULL, NULL, @$); }
        ;
indexed_opt: %empty                   { $$ = ast_name_none(); }
           | indexed_by               { $$ = $1; }
           ;
indexed_by: INDEXED BY nm             { $$ = $3; }
          | NOT INDEXED               { $$ = ast_name_not_indexed(ctx, @$); }
          ;
orderby_opt: %empty                   { $$ = NULL; }
           | ORDER BY sortlist        { $$ = ast_order_clause(ctx, $3, @$); }
           ;
sortlist: sortlist COMMA expr sortorder nulls
                                      { $$ = ast_order_add(ctx, $1, $3, $4, $5, @3, @$); }
        | expr sortorder nulls        { $$ = ast_order_add(ctx, NULL, $1, $2, $3, @1, @$); }
        ;
sortorder: ASC                        { $$ = AST_SORT_ASC; }
         | DESC                       { $$ = AST_SORT_DESC; }
         | %empty                     { $$ = AST_SORT_DEFAULT; }
         ;
nulls: NULLS FIRST                    { $$ = AST_NULLS_FIRST; }
     | NULLS LAST                     { $$ = AST_NULLS_LAST; }
     | %empty                         { $$ = AST_NULLS_DEFAULT; }
     ;
groupby_opt: %empty                   { $$ = NULL; }
           | GROUP BY nexprlist       { $$ = $3; }
           ;
having_opt: %empty                    { $$ = NULL; }
          | HAVING expr               { $$ = $2; }
          ;
/* LIMIT count OFFSET skip, or LIMIT skip, count: count first in both. */
limit_opt: %empty                     { $$ = ast_limit(NULL, NULL, 0, @$); }
         | LIMIT expr                 { $$ = ast_limit($2, NULL, 0, @$); }
         | LIMIT expr OFFSET expr     { $$ = ast_limit($2, $4, 0, @$); }
         | LIMIT expr COMMA expr      { $$ = ast_limit($4, $2, 1, @$); }
         ;

/* ------------------------------------------------------------------ */
/* DELETE, UPDATE, INSERT                                              */
/* ------------------------------------------------------------------ */

cmd: with DELETE FROM xfullname indexed_opt where_opt_ret orderby_opt limit_opt
        { $$ = ast_stmt_delete(ctx, $1, &$4, &$5, $6, $7, $8, dml_loc($1, @$, @2)); } ;
where_opt: %empty                     { $$ = NULL; }
         | WHERE expr                 { $$ = $2; }
         ;
where_opt_ret: %empty                 { $$ = NULL; }
             | WHERE expr             { $$ = $2; }
             | RETURNING selcollist   { ast_returning(ctx, $2); $$ = NULL; }
             | WHERE expr RETURNING selcollist
                                      { ast_returning(ctx, $4); $$ = $2; }
             ;
cmd: with UPDATE orconf xfullname indexed_opt SET setlist from where_opt_ret
     orderby_opt limit_opt
        { $$ = ast_stmt_update(ctx, $1, $3, &$4, &$5, $7, $8, $9, $10, $11, dml_loc($1, @$, @2)); } ;
setlist: setlist COMMA nm EQ expr             { $$ = ast_set_add(ctx, $1, ast_idlist(ctx, NULL, &$3), $5); }
       | setlist COMMA LP idlist RP EQ expr   { $$ = ast_set_add(ctx, $1, $4, $7); }
       | nm EQ expr                           { $$ = ast_set_add(ctx, NULL, ast_idlist(ctx, NULL, &$1), $3); }
       | LP idlist RP EQ expr                 { $$ = ast_set_add(ctx, NULL, $2, $5); }
       ;
cmd: with insert_cmd INTO xfullname idlist_opt select upsert
        { $$ = ast_stmt_insert(ctx, $1, $2, &$4, $5, $6, $7, dml_loc($1, @$, @2)); }
   | with insert_cmd INTO xfullname idlist_opt DEFAULT VALUES returning
        { $$ = ast_stmt_insert(ctx, $1, $2, &$4, $5, NULL, NULL, dml_loc($1, @$, @2)); }
   ;
upsert: %empty                        { $$ = NULL; }
      | RETURNING selcollist          { ast_returning(ctx, $2); $$ = NULL; }
      | ON CONFLICT LP sortlist RP where_opt DO UPDATE SET setlist where_opt upsert
                                      { $$ = ast_upsert(ctx, $4, $6, 1, $10, $11, $12); }
      | ON CONFLICT LP sortlist RP where_opt DO NOTHING upsert
                                      { $$ = ast_upsert(ctx, $4, $6, 0, NULL, NULL, $9); }
      | ON CONFLICT DO NOTHING returning
                                      { $$ = ast_upsert(ctx, NULL, NULL, 0, NULL, NULL, NULL); }
      | ON CONFLICT DO UPDATE SET setlist where_opt returning
                                      { $$ = ast_upsert(ctx, NULL, NULL, 1, $6, $7, NULL); }
      ;
returning: RETURNING selcollist       { ast_returning(ctx, $2); $$ = $2; }
         | %empty                     { $$ = NULL; }
         ;
insert_cmd: INSERT orconf             { $$ = $2; }
          | REPLACE                   { $$ = AST_CONFLICT_REPLACE; }
          ;
idlist_opt: %empty                    { $$ = NULL; }
          | LP idlist RP              { $$ = $2; }
          ;
idlist: idlist COMMA nm               { $$ = ast_idlist(ctx, $1, &$3); }
      | nm                            { $$ = ast_idlist(ctx, NULL, &$1); }
      ;

/* ------------------------------------------------------------------ */
/* Expressions                                                         */
/* ------------------------------------------------------------------ */

expr: term                            { $$ = $1; }
    | LP expr RP                      { $$ = ast_paren(ctx, $2, @1, @3); }
    | id                              { $$ = ast_column_ref(ctx, NULL, NULL, &$1); }
    | JOIN_KW                         { AstName n = ast_name(ctx, $1);
                                        $$ = ast_column_ref(ctx, NULL, NULL, &n); }
    | nm DOT nm                       { $$ = ast_column_ref(ctx, NULL, &$1, &$3); }
    | nm DOT nm DOT nm                { $$ = ast_column_ref(ctx, &$1, &$3, &$5); }
    ;
term: NULL                            { $$ = ast_literal(ctx, AE_NULL, $1); }
    | FLOAT                           { $$ = ast_literal(ctx, AE_FLOAT, $1); }
    | BLOB                            { $$ = ast_literal(ctx, AE_BLOB, $1); }
    | STRING                          { $$ = ast_literal(ctx, AE_STRING, $1); }
    | INTEGER                         { $$ = ast_literal(ctx, AE_INTEGER, $1); }
    ;
expr: VARIABLE                        { $$ = ast_param(ctx, $1); }
    | expr COLLATE ids                { $$ = ast_collate(ctx, $1, &$3, @$); }
    | CAST LP expr AS typetoken RP    { $$ = ast_cast(ctx, $3, &$5, @$); }
    | id LP distinct exprlist RP      { $$ = ast_func(ctx, &$1, $3, $4, 0, @$); }
    | id LP STAR RP                   { $$ = ast_func(ctx, &$1, 0, NULL, 1, @$); }
    | id LP distinct exprlist RP filter_over
                                      { $$ = ast_func_over(ctx, ast_func(ctx, &$1, $3, $4, 0, @$), &$6); }
    | id LP STAR RP filter_over       { $$ = ast_func_over(ctx, ast_func(ctx, &$1, 0, NULL, 1, @$), &$5); }
    ;
term: CTIME_KW                        { $$ = ast_ctime(ctx, $1); } ;
expr: LP nexprlist COMMA expr RP      { $$ = ast_vector(ctx, $2, $4, @$); }
    /* BETWEEN first: it must win the reduce/reduce conflict with AND. */
    | expr between_op expr AND expr %prec BETWEEN
                                      { $$ = ast_between(ctx, $1, $2, $3, $5, @$); }
    | expr AND expr                   { $$ = ast_binary(ctx, AST_OP_AND, $1, $3, @$); }
    | expr OR expr                    { $$ = ast_binary(ctx, AST_OP_OR, $1, $3, @$); }
    | expr LT expr                    { $$ = ast_binary(ctx, AST_OP_LT, $1, $3, @$); }
    | expr GT expr                    { $$ = ast_binary(ctx, AST_OP_GT, $1, $3, @$); }
    | expr GE expr                    { $$ = ast_binary(ctx, AST_OP_GE, $1, $3, @$); }
    | expr LE expr                    { $$ = ast_binary(ctx, AST_OP_LE, $1, $3, @$); }
    | expr EQ expr                    { $$ = ast_binary_tok(ctx, AST_OP_EQ, $1, &$2, $3, @$); }
    | expr NE expr                    { $$ = ast_binary_tok(ctx, AST_OP_NE, $1, &$2, $3, @$); }
    | expr BITAND expr                { $$ = ast_binary(ctx, AST_OP_BITAND, $1, $3, @$); }
    | expr BITOR expr                 { $$ = ast_binary(ctx, AST_OP_BITOR, $1, $3, @$); }
    | expr LSHIFT expr                { $$ = ast_binary(ctx, AST_OP_LSHIFT, $1, $3, @$); }
    | expr RSHIFT expr                { $$ = ast_binary(ctx, AST_OP_RSHIFT, $1, $3, @$); }
    | expr PLUS expr                  { $$ = ast_binary(ctx, AST_OP_ADD, $1, $3, @$); }
    | expr MINUS expr                 { $$ = ast_binary(ctx, AST_OP_SUB, $1, $3, @$); }
    | expr STAR expr                  { $$ = ast_binary(ctx, AST_OP_MUL, $1, $3, @$); }
    | expr SLASH expr                 { $$ = ast_binary(ctx, AST_OP_DIV, $1, $3, @$); }
    | expr REM expr                   { $$ = ast_binary(ctx, AST_OP_MOD, $1, $3, @$); }
    | expr CONCAT expr                { $$ = ast_binary(ctx, AST_OP_CONCAT, $1, $3, @$); }
    ;
likeop: LIKE_KW                       { $$ = ast_likeop($1, 0); }
      | MATCH                         { $$ = ast_likeop($1, 0); }
      | NOT LIKE_KW                   { $$ = ast_likeop($2, 1); }
      | NOT MATCH                     { $$ = ast_likeop($2, 1); }
      ;
expr: expr likeop expr %prec LIKE_KW  { $$ = ast_like(ctx, $1, &$2, $3, NULL, @$); }
    | expr likeop expr ESCAPE expr %prec LIKE_KW
                                      { $$ = ast_like(ctx, $1, &$2, $3, $5, @$); }
    | expr ISNULL                     { $$ = ast_isnull(ctx, $1, 0, 0, @$); }
    | expr NOTNULL                    { $$ = ast_isnull(ctx, $1, 1, 0, @$); }
    | expr NOT NULL                   { $$ = ast_isnull(ctx, $1, 1, 1, @$); }
    | expr IS expr                    { $$ = ast_is(ctx, $1, 0, 0, $3, @$); }
    | expr IS NOT expr %prec IS       { $$ = ast_is(ctx, $1, 1, 0, $4, @$); }
    | expr IS NOT DISTINCT FROM expr %prec IS
                                      { $$ = ast_is(ctx, $1, 0, 1, $6, @$); }
    | expr IS DISTINCT FROM expr %prec IS
                                      { $$ = ast_is(ctx, $1, 1, 1, $5, @$); }
    | NOT expr                        { $$ = ast_unary(ctx, AST_OP_NOT, $2, @$); }
    | BITNOT expr                     { $$ = ast_unary(ctx, AST_OP_BITNOT, $2, @$); }
    | PLUS expr %prec BITNOT          { $$ = ast_unary(ctx, AST_OP_POS, $2, @$); }
    | MINUS expr %prec BITNOT         { $$ = ast_unary(ctx, AST_OP_NEG, $2, @$); }
    | expr PTR expr                   { $$ = ast_ptr(ctx, $1, &$2, $3, @$); }
    ;
between_op: BETWEEN                   { $$ = 0; }
          | NOT BETWEEN               { $$ = 1; }
          ;
in_op: IN                             { $$ = 0; }
     | NOT IN                         { $$ = 1; }
     ;
expr: expr in_op LP exprlist RP %prec IN
                                      { $$ = ast_in_list(ctx, $1, $2, $4, @$); }
    | LP select RP                    { $$ = ast_subquery(ctx, AE_SUBQUERY, NULL, 0, $2, @$); }
    | expr in_op LP select RP %prec IN
                                      { $$ = ast_subquery(ctx, AE_IN_SELECT, $1, $2, $4, @$); }
    | expr in_op nm dbnm paren_exprlist %prec IN
                                      { $$ = ast_in_table(ctx, $1, $2, &$3, &$4, $5, @$); }
    | EXISTS LP select RP             { $$ = ast_subquery(ctx, AE_EXISTS, NULL, 0, $3, @$); }
    | CASE case_operand case_exprlist case_else END
                                      { $$ = ast_case(ctx, $2, $3, $4, @$); }
    ;
case_exprlist: case_exprlist WHEN expr THEN expr   { $$ = ast_case_arm(ctx, $1, $3, $5); }
             | WHEN expr THEN expr                 { $$ = ast_case_arm(ctx, NULL, $2, $4); }
             ;
case_else: ELSE expr                  { $$ = $2; }
         | %empty                     { $$ = NULL; }
         ;
case_operand: expr                    { $$ = $1; }
            | %empty                  { $$ = NULL; }
            ;
exprlist: nexprlist                   { $$ = $1; }
        | %empty                      { $$ = NULL; }
        ;
nexprlist: nexprlist COMMA expr       { $$ = ast_list_add(ctx, $1, $3); }
         | expr                       { $$ = ast_list_add(ctx, NULL, $1); }
         ;
paren_exprlist: %empty                { $$ = NULL; }
              | LP exprlist RP        { $$ = ast_args(ctx, $2); }
              ;

/* ------------------------------------------------------------------ */
/* CREATE INDEX, name lists                                            */
/* ------------------------------------------------------------------ */

cmd: createkw uniqueflag INDEX ifnotexists nm dbnm ON nm LP sortlist RP where_opt
        { $$ = ast_stmt_create_index(ctx, $2, $4, &$5, &$6, &$8, $10, $12, @$); } ;
uniqueflag: UNIQUE                    { $$ = 1; }
          | %empty                    { $$ = 0; }
          ;
eidlist_opt: %empty                   { $$ = NULL; }
           | LP eidlist RP            { $$ = $2; }
           ;
eidlist: eidlist COMMA nm collate sortorder
                                      { $$ = ast_eidlist(ctx, $1, &$3, $4, $5); }
       | nm collate sortorder         { $$ = ast_eidlist(ctx, NULL, &$1, $2, $3); }
       ;
collate: %empty                       { $$ = 0; }
       | COLLATE ids                  { $$ = 1; }
       ;

cmd: DROP INDEX ifexists fullname     { $$ = ast_stmt_drop(ctx, AST_DROP_INDEX, $3, &$4, @$); } ;

/* ------------------------------------------------------------------ */
/* VACUUM, PRAGMA                                                      */
/* ------------------------------------------------------------------ */

cmd: VACUUM vinto                     { $$ = ast_stmt_other(ctx, AST_STMT_VACUUM, NULL, NULL, @$); }
   | VACUUM nm vinto                  { $$ = ast_stmt_other(ctx, AST_STMT_VACUUM, &$2, NULL, @$); }
   ;
vinto: INTO expr                      { $$ = $2; }
     | %empty                         { $$ = NULL; }
     ;
cmd: PRAGMA nm dbnm                   { $$ = ast_stmt_pragma(ctx, &$2, &$3, NULL, 0, @$); }
   | PRAGMA nm dbnm EQ nmnum          { $$ = ast_stmt_pragma(ctx, &$2, &$3, &$5, 0, @$); }
   | PRAGMA nm dbnm LP nmnum RP       { $$ = ast_stmt_pragma(ctx, &$2, &$3, &$5, 0, @$); }
   | PRAGMA nm dbnm EQ minus_num      { $$ = ast_stmt_pragma(ctx, &$2, &$3, &$5, 1, @$); }
   | PRAGMA nm dbnm LP minus_num RP   { $$ = ast_stmt_pragma(ctx, &$2, &$3, &$5, 1, @$); }
   ;
nmnum: plus_num                       { $$ = $1; }
     | nm                             { $$ = ast_name_tok($1); }
     | ON                             { $$ = $1; }
     | DELETE                         { $$ = $1; }
     | DEFAULT                        { $$ = $1; }
     ;
number: INTEGER                       { $$ = $1; }
      | FLOAT                         { $$ = $1; }
      ;
plus_num: PLUS number                 { $$ = ast_tok_span($1, $2); }
        | number                      { $$ = $1; }
        ;
minus_num: MINUS number               { $$ = ast_tok_span($1, $2); } ;

/* ------------------------------------------------------------------ */
/* CREATE TRIGGER                                                      */
/* ------------------------------------------------------------------ */

cmd: createkw trigger_decl BEGIN trigger_cmd_list END
                                      { $$ = ast_trigger_finish(ctx, $4, @$); } ;
trigger_decl: temp TRIGGER ifnotexists nm dbnm trigger_time trigger_event
              ON fullname foreach_clause when_clause
                      { ast_trigger_start(ctx, $1, $3, &$4, &$5, $6, &$7, &$9, $10, $11); } ;
trigger_time: BEFORE                  { $$ = AST_TRIG_BEFORE; }
            | AFTER                   { $$ = AST_TRIG_AFTER; }
            | INSTEAD OF              { $$ = AST_TRIG_INSTEAD_OF; }
            | %empty                  { $$ = AST_TRIG_DEFAULT; }
            ;
trigger_event: DELETE                 { $$ = ast_trig_event(AST_TRIG_DELETE, NULL); }
             | INSERT                 { $$ = ast_trig_event(AST_TRIG_INSERT, NULL); }
             | UPDATE                 { $$ = ast_trig_event(AST_TRIG_UPDATE, NULL); }
             | UPDATE OF idlist       { $$ = ast_trig_event(AST_TRIG_UPDATE, $3); }
             ;
foreach_clause: %empty                { $$ = 0; }
              | FOR EACH ROW          { $$ = 1; }
              ;
when_clause: %empty                   { $$ = NULL; }
           | WHEN expr                { $$ = $2; }
           ;
trigger_cmd_list: trigger_cmd_list trigger_cmd SEMI
                                      { $$ = ast_trigger_add(ctx, $2); }
                | trigger_cmd SEMI    { $$ = ast_trigger_add(ctx, $1); }
                ;
trnm: nm                              { $$ = $1; }
    | nm DOT nm                       { $$ = $3; ast_trigger_error(ctx, 0, @$); }
    ;
tridxby: %empty
       | INDEXED BY nm                { ast_trigger_error(ctx, 1, @$); }
       | NOT INDEXED                  { ast_trigger_error(ctx, 2, @$); }
       ;
trigger_cmd: UPDATE orconf trnm tridxby SET setlist from where_opt scanpt
                { AstFullName t = ast_fullname(ctx, &$3, NULL, NULL);
                  $$ = ast_stmt_update(ctx, NULL, $2, &t, NULL, $6, $7, $8, NULL, ast_limit(NULL, NULL, 0, @$), @$); }
           | scanpt insert_cmd INTO trnm idlist_opt select upsert scanpt
                { AstFullName t = ast_fullname(ctx, &$4, NULL, NULL);
                  $$ = ast_stmt_insert(ctx, NULL, $2, &t, $5, $6, $7, @$); }
           | DELETE FROM trnm tridxby where_opt scanpt
                { AstFullName t = ast_fullname(ctx, &$3, NULL, NULL);
                  $$ = ast_stmt_delete(ctx, NULL, &t, NULL, $5, NULL, ast_limit(NULL, NULL, 0, @$), @$); }
           | scanpt select scanpt     { $$ = ast_stmt_select(ctx, $2, @$); }
           ;
expr: RAISE LP IGNORE RP              { $$ = ast_raise(ctx, AST_OP_RAISE_IGNORE, NULL, @$); }
    | RAISE LP raisetype COMMA nm RP  { $$ = ast_raise(ctx, $3, &$5, @$); }
    ;
raisetype: ROLLBACK                   { $$ = AST_CONFLICT_ROLLBACK; }
         | ABORT                      { $$ = AST_CONFLICT_ABORT; }
         | FAIL                       { $$ = AST_CONFLICT_FAIL; }
         ;
cmd: DROP TRIGGER ifexists fullname   { $$ = ast_stmt_drop(ctx, AST_DROP_TRIGGER, $3, &$4, @$); } ;

/* ------------------------------------------------------------------ */
/* ATTACH, DETACH, REINDEX, ANALYZE, ALTER, CREATE VIRTUAL TABLE        */
/* ------------------------------------------------------------------ */

cmd: ATTACH database_kw_opt expr AS expr key_opt
                                      { $$ = ast_stmt_other(ctx, AST_STMT_ATTACH, NULL, NULL, @$); }
   | DETACH database_kw_opt expr      { $$ = ast_stmt_other(ctx, AST_STMT_DETACH, NULL, NULL, @$); }
   ;
key_opt: %empty                       { $$ = NULL; }
       | KEY expr                     { $$ = $2; }
       ;
database_kw_opt: DATABASE | %empty ;
cmd: REINDEX                          { $$ = ast_stmt_other(ctx, AST_STMT_REINDEX, NULL, NULL, @$); }
   | REINDEX nm dbnm                  { $$ = ast_stmt_other(ctx, AST_STMT_REINDEX, &$2, &$3, @$); }
   | ANALYZE                          { $$ = ast_stmt_other(ctx, AST_STMT_ANALYZE, NULL, NULL, @$); }
   | ANALYZE nm dbnm                  { $$ = ast_stmt_other(ctx, AST_STMT_ANALYZE, &$2, &$3, @$); }
   | ALTER TABLE fullname RENAME TO nm
                                      { $$ = ast_stmt_alter(ctx, &$3, @$); }
   | ALTER TABLE add_column_fullname ADD kwcolumn_opt columnname carglist
                                      { $$ = ast_stmt_alter_add(ctx, @$); }
   | ALTER TABLE fullname DROP kwcolumn_opt nm
                                      { $$ = ast_stmt_alter(ctx, &$3, @$); }
   | ALTER TABLE fullname RENAME kwcolumn_opt nm TO nm
                                      { $$ = ast_stmt_alter(ctx, &$3, @$); }
   ;
add_column_fullname: fullname         { ast_alter_add_start(ctx, &$1); } ;
kwcolumn_opt: %empty | COLUMNKW ;
cmd: create_vtab                      { $$ = ast_vtab_finish(ctx, @$); }
   | create_vtab LP vtabarglist RP    { $$ = ast_vtab_finish(ctx, @$); }
   ;
create_vtab: createkw VIRTUAL TABLE ifnotexists nm dbnm USING nm
                                      { ast_vtab_start(ctx, &$5, &$6, &$8); } ;
vtabarglist: vtabarg                  { ast_vtab_arg(ctx, @1); }
           | vtabarglist COMMA vtabarg { ast_vtab_arg(ctx, @3); }
           ;
vtabarg: %empty | vtabarg vtabargtoken ;
vtabargtoken: ANY | lp anylist RP ;
lp: LP ;
anylist: %empty | anylist LP anylist RP | anylist ANY ;

/* ------------------------------------------------------------------ */
/* Common table expressions                                            */
/* ------------------------------------------------------------------ */

with: %empty                          { $$ = NULL; }
    | WITH wqlist                     { $$ = ast_with_finish($2, 0, @$); }
    | WITH RECURSIVE wqlist           { $$ = ast_with_finish($3, 1, @$); }
    ;
wqas: AS                              { $$ = AST_MAT_ANY; }
    | AS MATERIALIZED                 { $$ = AST_MAT_YES; }
    | AS NOT MATERIALIZED             { $$ = AST_MAT_NO; }
    ;
wqitem: nm eidlist_opt wqas LP select RP
                                      { $$ = ast_cte(ctx, &$1, $2, $3, $5, @$); } ;
wqlist: wqitem                        { $$ = ast_with_add(ctx, NULL, $1); }
      | wqlist COMMA wqitem           { $$ = ast_with_add(ctx, $1, $3); }
      ;

/* ------------------------------------------------------------------ */
/* Window functions                                                    */
/* ------------------------------------------------------------------ */

windowdefn_list: windowdefn                          { $$ = ast_window_list(ctx, NULL, $1); }
               | windowdefn_list COMMA windowdefn    { $$ = ast_window_list(ctx, $1, $3); }
               ;
windowdefn: nm AS LP window RP        { $$ = ast_window_name(ctx, $4, &$1, @$); } ;
window: PARTITION BY nexprlist orderby_opt frame_opt
                                      { $$ = ast_window(ctx, $5, $3, $4, NULL, @$); }
      | nm PARTITION BY nexprlist orderby_opt frame_opt
                                      { $$ = ast_window(ctx, $6, $4, $5, &$1, @$); }
      | ORDER BY sortlist frame_opt   { $$ = ast_window(ctx, $4, NULL, $3, NULL, @$); }
      | nm ORDER BY sortlist frame_opt
                                      { $$ = ast_window(ctx, $5, NULL, $4, &$1, @$); }
      | frame_opt                     { $$ = ast_window(ctx, $1, NULL, NULL, NULL, @$); }
      | nm frame_opt                  { $$ = ast_window(ctx, $2, NULL, NULL, &$1, @$); }
      ;
frame_opt: %empty                     { $$ = ast_frame(ctx, 0, NULL, NULL, 0, @$); }
         | range_or_rows frame_bound_s frame_exclude_opt
                                      { $$ = ast_frame(ctx, $1, &$2, NULL, $3, @$); }
         | range_or_rows BETWEEN frame_bound_s AND frame_bound_e frame_exclude_opt
                                      { $$ = ast_frame(ctx, $1, &$3, &$5, $6, @$); }
         ;
range_or_rows: RANGE                  { $$ = AST_FRAME_RANGE; }
             | ROWS                   { $$ = AST_FRAME_ROWS; }
             | GROUPS                 { $$ = AST_FRAME_GROUPS; }
             ;
frame_bound_s: frame_bound            { $$ = $1; }
             | UNBOUNDED PRECEDING    { $$ = ast_bound(AST_BOUND_UNBOUNDED_PRECEDING, NULL); }
             ;
frame_bound_e: frame_bound            { $$ = $1; }
             | UNBOUNDED FOLLOWING    { $$ = ast_bound(AST_BOUND_UNBOUNDED_FOLLOWING, NULL); }
             ;
frame_bound: expr PRECEDING           { $$ = ast_bound(AST_BOUND_PRECEDING, $1); }
           | expr FOLLOWING           { $$ = ast_bound(AST_BOUND_FOLLOWING, $1); }
           | CURRENT ROW              { $$ = ast_bound(AST_BOUND_CURRENT_ROW, NULL); }
           ;
frame_exclude_opt: %empty             { $$ = AST_EXCLUDE_NONE; }
                 | EXCLUDE frame_exclude   { $$ = $2; }
                 ;
frame_exclude: NO OTHERS              { $$ = AST_EXCLUDE_NO_OTHERS; }
             | CURRENT ROW            { $$ = AST_EXCLUDE_CURRENT_ROW; }
             | GROUP                  { $$ = AST_EXCLUDE_GROUP; }
             | TIES                   { $$ = AST_EXCLUDE_TIES; }
             ;
window_clause: WINDOW windowdefn_list { $$ = $2; } ;
filter_over: filter_clause over_clause { $$ = ast_filter_over($1, $2); }
           | over_clause               { $$ = ast_filter_over(NULL, $1); }
           | filter_clause             { $$ = ast_filter_over($1, NULL); }
           ;
over_clause: OVER LP window RP        { $$ = $3; }
           | OVER nm                  { $$ = ast_window_ref(ctx, &$2, @$); }
           ;
filter_clause: FILTER LP WHERE expr RP { $$ = $4; } ;

%%

/* Bison reports stack exhaustion ("memory exhausted") through yyerror; with
** YYMAXDEPTH at 101 that is SQLite's parser stack overflow. */
static void yyerror(const SqLoc *loc, ParseCtx *ctx, const char *msg) {
    (void)msg;
    ast_stack_exhausted(ctx, *loc);
}

/* Collect what the parser expected and let the context word the message. */
static int yyreport_syntax_error(const yypcontext_t *yyctx, ParseCtx *ctx) {
    enum { MAX_EXPECTED = 64 };
    yysymbol_kind_t kinds[MAX_EXPECTED];
    const char *names[MAX_EXPECTED];
    int n = yypcontext_expected_tokens(yyctx, kinds, MAX_EXPECTED);
    if (n < 0) n = 0;
    for (int i = 0; i < n; i++) names[i] = yysymbol_name(kinds[i]);
    ast_syntax_error(ctx, *yypcontext_location(yyctx), yypcontext_token(yyctx),
                     names, n);
    return 0;
}

/* Lemon's %fallback and %wildcard need to know, before a token is pushed,
** whether the parser can use it here.  Bison's LAC routine answers exactly
** that from the current state stack without touching it. */
int sq_yy_would_shift(struct sq_yypstate *ps, int tok) {
    yy_state_t esa[20];
    yy_state_t *es = esa;
    YYPTRDIFF_T cap = 20;
    int r = yy_lac(esa, &es, &cap, ps->yyssp, YYTRANSLATE(tok));
    if (es != esa) YYSTACK_FREE(es);
    return r == 0;
}

const char *sq_yy_token_name(int tok) { return yysymbol_name(YYTRANSLATE(tok)); }

/* The action for symbol 'sym' in state 'st' if the tables list one for it
** (as opposed to the state's default reduction).  Sets *act to bison's
** table value: > 0 shift, < 0 reduce by -*act, error value for an error. */
static int explicit_action(int st, yysymbol_kind_t sym, int *act) {
    int i = yypact[st];
    if (yypact_value_is_default(i)) return 0;
    i += sym;
    if (i < 0 || YYLAST < i || yycheck[i] != sym) return 0;
    *act = yytable[i];
    return 1;
}

/* SQLite's %fallback, as Lemon implements it: in each state the parser
** passes through, a keyword uses its own action if the state lists one,
** else the action listed for the identifier it falls back to, else the
** state's default reduction.  The two automata are the same (the grammar
** mirrors SQLite's) and both make the most common reduction of a state its
** default, so this replays Lemon's choice on a scratch copy of the top of
** the state stack and says which token to push: 'tok' or 'alt'. */
int sq_yy_fallback_token(struct sq_yypstate *ps, int tok, int alt) {
    enum { OVERLAY = 64 };
    yysymbol_kind_t k = YYTRANSLATE(tok), a = YYTRANSLATE(alt);
    yy_state_t over[OVERLAY];
    int n_over = 0;
    YYPTRDIFF_T depth = ps->yyssp - ps->yyss + 1;
    for (int steps = 0; steps < 4 * OVERLAY; steps++) {
        int st = n_over ? over[n_over - 1] : ps->yyss[depth - 1];
        int act, used_alt = 0;
        if (!explicit_action(st, k, &act)) {
            used_alt = explicit_action(st, a, &act);
            if (!used_alt) {
                if (yydefact[st] == 0) return tok;
                act = -yydefact[st];
            }
        }
        if (act == 0 || yytable_value_is_error(act)) return tok;
        if (act > 0) return used_alt ? alt : tok;
        int rule = -act, len = yyr2[rule];
        if (len <= n_over) {
            n_over -= len;
        } else {
            depth -= len - n_over;
            n_over = 0;
            if (depth < 1) return tok;
        }
        int lhs = yyr1[rule] - YYNTOKENS;
        int top = n_over ? over[n_over - 1] : ps->yyss[depth - 1];
        int gi = yypgoto[lhs] + top;
        int next = (0 <= gi && gi <= YYLAST && yycheck[gi] == top) ? yytable[gi]
                                                                   : yydefgoto[lhs];
        if (n_over == OVERLAY) return tok;
        over[n_over++] = (yy_state_t)next;
    }
    return tok;
}
