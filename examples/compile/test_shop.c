/*
** test_shop.c -- the example project's test: every function squint
** compile generated for the shop (gen/shop.h) called on a real SQLite
** database, its results and its NULL handling checked.
**
** Usage: test_shop MIGRATION...   (the files of migrations/, in order)
**
** It opens an in-memory database, applies the "Up" part of each
** migration (the text before a "-- +goose Down" line), opens the
** generated shop_db on it and runs the shop's story: customers, products,
** orders.  Each check prints one TAP-like line, "ok - ..." or
** "not ok - ..."; the exit status is 1 when any failed, 2 when the
** database could not be set up.  Everything opened is closed, so that it
** runs clean under ASan and LeakSanitizer.
**
** The story's data, which the checks below rely on:
**   customers  1 Ann (later "Ann Lee"), 2 Bob, 3 Cy
**   products   1 MUG 8.50 (a 6-byte thumbnail), 2 TEE 25.00, 3 LAMP 120.00
**              (25 % off when ordered), 4 PEN 1.50
**   orders     1 Ann 2024-03-01: 2 MUG + 1 LAMP = 107.00
**              2 Bob 2024-03-05 "gift": 3 TEE = 75.00
**              3 Bob 2023-12-24: 4 MUG = 34.00 (deleted at the end)
**              4 Ann 2024-04-01: no items
*/
#include <inttypes.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shop.h>   /* gen/shop.h, written by squint compile (cc -I gen) */

/* ---- checks ------------------------------------------------------------ */

static int n_checks;   /* checks run */
static int n_failed;   /* of which failed */

/* One check: "ok - WHAT" or "not ok - WHAT". */
static void check(bool pass, const char *what, ...) {
    va_list ap;
    va_start(ap, what);
    printf("%s - ", pass ? "ok" : "not ok");
    vprintf(what, ap);
    printf("\n");
    va_end(ap);
    n_checks++;
    n_failed += !pass;
}

/* A string check that shows what it got when it fails. */
static void check_str(const char *got, const char *want, const char *what) {
    bool pass = got && strcmp(got, want) == 0;
    if (pass) check(true, "%s", what);
    else check(false, "%s (got '%s', want '%s')", what, got ? got : "(null)", want);
}

static bool near(double a, double b) { return a - b < 1e-9 && b - a < 1e-9; }

/* Text for an optional value, "NULL" when absent (from a ring of buffers,
** so that a few may be used in one printf). */
static char *ring(void) {
    static char bufs[8][48];
    static int k;
    return bufs[k++ % 8];
}
static const char *I(bool has, int64_t v) {
    if (!has) return "NULL";
    char *b = ring();
    snprintf(b, 48, "%" PRId64, v);
    return b;
}
static const char *R(bool has, double v) {
    if (!has) return "NULL";
    char *b = ring();
    snprintf(b, 48, "%g", v);
    return b;
}
static const char *S(bool has, const char *v) { return has ? v : "NULL"; }

/* ---- the rows a :many query gave ------------------------------------------ */

/* The rows a :many callback saw, each formatted as text and joined with
** '|', so that a check compares one string.  A callback returns nonzero
** (stopping the query) once stop_after rows were seen, when that is set. */
typedef struct Rows {
    int n;            /* rows seen */
    int stop_after;   /* stop after this many rows; 0: never */
    shop_db *q;       /* for the callback that calls back in */
    int inner_rc;     /* what that inner call returned */
    char text[1024];  /* the rows, '|' between them */
} Rows;

static int add_row(Rows *r, const char *fmt, ...) {
    size_t len = strlen(r->text);
    if (r->n && len + 1 < sizeof r->text) r->text[len++] = '|';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->text + len, sizeof r->text - len, fmt, ap);
    va_end(ap);
    r->n++;
    return r->stop_after && r->n >= r->stop_after;
}

/* ---- setting up ------------------------------------------------------------ */

/* The text of a file, cut at its "-- +goose Down" line; NULL when it
** cannot be read.  The caller frees it. */
static char *read_up(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    size_t got;
    while (s && (got = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *t = realloc(s, cap *= 2);
            if (!t) free(s);
            s = t;
        }
    }
    fclose(f);
    if (!s) return NULL;
    s[len] = '\0';
    char *down = strstr(s, "-- +goose Down");
    if (down) *down = '\0';
    return s;
}

/* A new in-memory database with the migrations applied, or NULL. */
static sqlite3 *open_db(int n_paths, char **paths) {
    sqlite3 *db = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        fprintf(stderr, "test_shop: cannot open a database\n");
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    for (int i = 0; i < n_paths; i++) {
        char *sql = read_up(paths[i]), *err = NULL;
        if (!sql || sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
            fprintf(stderr, "test_shop: %s: %s\n", paths[i], sql ? err : "cannot read it");
            sqlite3_free(err);
            free(sql);
            sqlite3_close(db);
            return NULL;
        }
        free(sql);
    }
    return db;
}

/* ---- customers ---------------------------------------------------------------- */

static void test_create_customer(shop_db *q) {
    int64_t id = 0;
    int rc = shop_CreateCustomer(q, "ann@example.com", "Ann", NULL, &id);
    check(rc == SQLITE_OK && id == 1, "CreateCustomer: :execlastid gives the new rowid (1), phone NULL");
    rc = shop_CreateCustomer(q, "bob@example.com", "Bob", "555-0101", &id);
    check(rc == SQLITE_OK && id == 2, "CreateCustomer: a second customer is rowid 2");
    rc = shop_CreateCustomer(q, "bob@example.com", "Bobby", NULL, &id);
    check((rc & 0xff) == SQLITE_CONSTRAINT, "CreateCustomer: a taken email is SQLITE_CONSTRAINT (rc %d)", rc);
    rc = shop_CreateCustomer(q, "cy@example.com", NULL, NULL, &id);
    check((rc & 0xff) == SQLITE_CONSTRAINT, "CreateCustomer: a NULL pointer for a NOT NULL text binds NULL (SQLITE_CONSTRAINT)");
}

static void test_get_customer(shop_db *q) {
    shop_GetCustomerRow row;
    int rc = shop_GetCustomer(q, 1, &row);
    check(rc == SQLITE_ROW && row.customer_id == 1, "GetCustomer: :one finds customer 1 (SQLITE_ROW)");
    check_str(row.email, "ann@example.com", "GetCustomer: email");
    check(!row.has_phone && row.phone == NULL, "GetCustomer: a NULL phone is has_phone false, phone NULL");
    check(row.loyalty_points == 0, "GetCustomer: a column added by migration 003 has its default");
    shop_GetCustomerRow_free(&row);
    rc = shop_GetCustomer(q, 2, &row);
    check(rc == SQLITE_ROW && row.has_phone, "GetCustomer: Bob's phone is has_phone true");
    check_str(row.phone, "555-0101", "GetCustomer: ... and its text");
    shop_GetCustomerRow_free(&row);
    shop_GetCustomerRow_free(&row);   /* safe on a row freed before */
    rc = shop_GetCustomer(q, 99, &row);
    check(rc == SQLITE_DONE, "GetCustomer: no such customer is SQLITE_DONE");
    check(row.customer_id == 0 && row.email == NULL && row.name == NULL && !row.has_phone,
          "GetCustomer: ... with the row zeroed");
    shop_GetCustomerRow_free(&row);   /* safe on a zeroed row */
    shop_GetCustomerByEmailRow byemail;
    rc = shop_GetCustomerByEmail(q, "bob@example.com", &byemail);
    check(rc == SQLITE_ROW && byemail.customer_id == 2, "GetCustomerByEmail: @email finds Bob");
    check_str(byemail.name, "Bob", "GetCustomerByEmail: name");
    shop_GetCustomerByEmailRow_free(&byemail);
    rc = shop_GetCustomerByEmail(q, NULL, &byemail);
    check(rc == SQLITE_DONE, "GetCustomerByEmail: a NULL email matches nothing (email = NULL)");
    shop_GetCustomerByEmailRow_free(&byemail);
}

static void test_upsert_customer(shop_db *q) {
    shop_UpsertCustomerRow row;
    int rc = shop_UpsertCustomer(q, "cy@example.com", "Cy", NULL, &row);
    check(rc == SQLITE_ROW && row.customer_id == 3 && !row.has_phone,
          "UpsertCustomer: a new email inserts (RETURNING customer 3, phone NULL)");
    shop_UpsertCustomerRow_free(&row);
    rc = shop_UpsertCustomer(q, "ann@example.com", "Ann Lee", "555-0102", &row);
    check(rc == SQLITE_ROW && row.customer_id == 1, "UpsertCustomer: a known email updates customer 1");
    check_str(row.name, "Ann Lee", "UpsertCustomer: ... its name is excluded.name");
    check(row.has_phone && row.phone && strcmp(row.phone, "555-0102") == 0, "UpsertCustomer: ... and its phone set");
    shop_UpsertCustomerRow_free(&row);
    rc = shop_UpsertCustomer(q, "ann@example.com", "Ann Lee", NULL, &row);
    check(rc == SQLITE_ROW && row.has_phone && strcmp(row.phone, "555-0102") == 0,
          "UpsertCustomer: a NULL phone keeps the old one (coalesce(excluded.phone, phone))");
    shop_UpsertCustomerRow_free(&row);
}

static int each_customer(void *ctx, const shop_ListCustomersRow *row) {
    return add_row(ctx, "%" PRId64 " %s %s", row->customer_id, row->name, row->phone);
}

/* A callback that calls its own query again: SQLITE_MISUSE. */
static int each_customer_reenter(void *ctx, const shop_ListCustomersRow *row) {
    Rows *r = ctx;
    r->inner_rc = shop_ListCustomers(r->q, 10, 0, each_customer, &(Rows){0});
    return add_row(r, "%s", row->name);
}

static void test_list_customers(shop_db *q) {
    Rows r = {0};
    int rc = shop_ListCustomers(q, 10, 0, each_customer, &r);
    check(rc == SQLITE_OK, "ListCustomers: :many returns SQLITE_OK after every row");
    check_str(r.text, "1 Ann Lee 555-0102|2 Bob 555-0101|3 Cy -", "ListCustomers: the rows in order, coalesce(phone, '-')");
    r = (Rows){0};
    rc = shop_ListCustomers(q, 1, 1, each_customer, &r);
    check(rc == SQLITE_OK && r.n == 1, "ListCustomers: LIMIT 1 OFFSET 1 is one row");
    check_str(r.text, "2 Bob 555-0101", "ListCustomers: ... the second");
    r = (Rows){.stop_after = 1};
    rc = shop_ListCustomers(q, 10, 0, each_customer, &r);
    check(rc == SQLITE_ABORT && r.n == 1, "ListCustomers: a callback returning nonzero stops it (SQLITE_ABORT after 1 row)");
    r = (Rows){0};
    rc = shop_ListCustomers(q, 10, 0, each_customer, &r);
    check(rc == SQLITE_OK && r.n == 3, "ListCustomers: ... and the next call starts afresh (3 rows)");
    r = (Rows){.stop_after = 1, .q = q};
    rc = shop_ListCustomers(q, 10, 0, each_customer_reenter, &r);
    check(r.inner_rc == SQLITE_MISUSE && rc == SQLITE_ABORT,
          "ListCustomers: called from its own callback is SQLITE_MISUSE (got %d)", r.inner_rc);
    r = (Rows){0};
    rc = shop_ListCustomers(q, 0, 0, each_customer, &r);
    check(rc == SQLITE_OK && r.n == 0, "ListCustomers: LIMIT 0 calls back never");
}

static void test_loyalty(shop_db *q) {
    int64_t changes = -1;
    int rc = shop_AddLoyaltyPoints(q, 10, NULL, 0, &changes);
    check(rc == SQLITE_OK && changes == 0, "AddLoyaltyPoints: an empty slice changes no row");
    rc = shop_AddLoyaltyPoints(q, 10, (const int64_t[]){1}, 1, &changes);
    check(rc == SQLITE_OK && changes == 1, "AddLoyaltyPoints: a slice of one id changes 1 row");
    rc = shop_AddLoyaltyPoints(q, 5, (const int64_t[]){1, 2, 3}, 3, &changes);
    check(rc == SQLITE_OK && changes == 3, "AddLoyaltyPoints: a slice of three ids changes 3 rows");
    rc = shop_AddLoyaltyPoints(q, 5, (const int64_t[]){2, 99, 2, 98}, 4, &changes);
    check(rc == SQLITE_OK && changes == 1, "AddLoyaltyPoints: unknown and repeated ids: 1 row changed");
    int64_t want[] = {15, 10, 5};
    for (int64_t id = 1; id <= 3; id++) {
        shop_GetCustomerRow row;
        rc = shop_GetCustomer(q, id, &row);
        check(rc == SQLITE_ROW && row.loyalty_points == want[id - 1],
              "AddLoyaltyPoints: customer %" PRId64 " has %" PRId64 " points (got %" PRId64 ")", id,
              want[id - 1], row.loyalty_points);
        shop_GetCustomerRow_free(&row);
    }
}

/* ---- products ------------------------------------------------------------------- */

static const unsigned char png[6] = {0x89, 'P', 'N', 'G', 0x00, 0x01};   /* a NUL inside */

static void test_add_product(shop_db *q) {
    shop_value thumb = {.type = SQLITE_BLOB, .p = (const void *)png, .len = sizeof png};
    shop_AddProductRow row;
    int rc = shop_AddProduct(q, "MUG", "Mug", 8.5, 3, &thumb, &row);
    check(rc == SQLITE_ROW && row.product_id == 1 && near(row.price, 8.5) && row.stock == 3,
          "AddProduct: INSERT ... RETURNING gives the new row (product 1)");
    check(row.has_thumbnail && row.thumbnail.type == SQLITE_BLOB && row.thumbnail.len == sizeof png &&
              memcmp(row.thumbnail.p, png, sizeof png) == 0,
          "AddProduct: the BLOB comes back whole, NUL byte included");
    shop_AddProductRow_free(&row);
    rc = shop_AddProduct(q, "TEE", "T-shirt", 25.0, 0, NULL, &row);
    check(rc == SQLITE_ROW && row.product_id == 2 && !row.has_thumbnail && row.thumbnail.type == SQLITE_NULL,
          "AddProduct: a NULL pointer thumbnail is NULL (has_thumbnail false, type SQLITE_NULL)");
    shop_AddProductRow_free(&row);
    rc = shop_AddProduct(q, "LAMP", "Lamp", 120.0, 1, &(shop_value){.type = SQLITE_NULL}, &row);
    check(rc == SQLITE_ROW && row.product_id == 3 && !row.has_thumbnail,
          "AddProduct: a value of type SQLITE_NULL binds NULL");
    shop_AddProductRow_free(&row);
    rc = shop_AddProduct(q, "PEN", "Pen", 1.5, 50, NULL, &row);
    check(rc == SQLITE_ROW && row.product_id == 4, "AddProduct: product 4");
    shop_AddProductRow_free(&row);
    rc = shop_AddProduct(q, "BAD", "Bad", -1.0, 0, NULL, &row);
    check((rc & 0xff) == SQLITE_CONSTRAINT, "AddProduct: a negative price breaks the CHECK (SQLITE_CONSTRAINT)");
    shop_AddProductRow_free(&row);
}

static void test_thumbnail(shop_db *q) {
    shop_GetThumbnailRow row;
    int rc = shop_GetThumbnail(q, "MUG", &row);
    check(rc == SQLITE_ROW && row.has_thumbnail && row.thumbnail.type == SQLITE_BLOB &&
              row.thumbnail.len == sizeof png && memcmp(row.thumbnail.p, png, sizeof png) == 0,
          "GetThumbnail: the BLOB column read back (a tagged value)");
    check(row.has_image && row.image_len == sizeof png && memcmp(row.image, png, sizeof png) == 0,
          "GetThumbnail: CAST(thumbnail AS BLOB) read as bytes and length");
    check(row.has_size && row.size == 6, "GetThumbnail: length() of it");
    shop_GetThumbnailRow_free(&row);
    rc = shop_GetThumbnail(q, "TEE", &row);
    check(rc == SQLITE_ROW && !row.has_thumbnail && !row.has_image && row.image == NULL && row.image_len == 0 &&
              !row.has_size,
          "GetThumbnail: no thumbnail: every column NULL");
    shop_GetThumbnailRow_free(&row);
    rc = shop_GetThumbnail(q, "NOPE", &row);
    check(rc == SQLITE_DONE, "GetThumbnail: an unknown sku is SQLITE_DONE");
    shop_GetThumbnailRow_free(&row);
}

static int each_product(void *ctx, const shop_ProductsByIdsRow *row) {
    return add_row(ctx, "%s %g %s %g", row->sku, row->price, R(row->has_discount, row->discount), row->final_price);
}

static void test_products_by_ids(shop_db *q) {
    Rows r = {0};
    int rc = shop_ProductsByIds(q, NULL, 0, each_product, &r);
    check(rc == SQLITE_OK && r.n == 0, "ProductsByIds: an empty slice is no row (x IN ())");
    r = (Rows){0};
    rc = shop_ProductsByIds(q, (const int64_t[]){2}, 1, each_product, &r);
    check_str(r.text, "TEE 25 NULL 25", "ProductsByIds: one id");
    r = (Rows){0};
    rc = shop_ProductsByIds(q, (const int64_t[]){4, 1, 3, 77}, 4, each_product, &r);
    check(rc == SQLITE_OK, "ProductsByIds: several ids");
    check_str(r.text, "MUG 8.5 NULL 8.5|LAMP 120 NULL 120|PEN 1.5 NULL 1.5", "ProductsByIds: ... the rows, discount NULL");
    /* the slice is prepared per call: a shorter one after a longer */
    r = (Rows){0};
    shop_ProductsByIds(q, (const int64_t[]){1, 2}, 2, each_product, &r);
    check(r.n == 2, "ProductsByIds: two ids after four: 2 rows");
}

static void test_discount(shop_db *q) {
    Rows r = {0};
    int rc = shop_SetDiscount(q, &(double){0.1}, "LAMP");
    shop_ProductsByIds(q, (const int64_t[]){3}, 1, each_product, &r);
    check(rc == SQLITE_OK, "SetDiscount: :exec is SQLITE_OK");
    check_str(r.text, "LAMP 120 0.1 108", "SetDiscount: sqlc.narg(discount) through a pointer");
    rc = shop_SetDiscount(q, NULL, "LAMP");
    r = (Rows){0};
    shop_ProductsByIds(q, (const int64_t[]){3}, 1, each_product, &r);
    check_str(r.text, "LAMP 120 NULL 120", "SetDiscount: a NULL pointer sets NULL");
    rc = shop_SetDiscount(q, &(double){0.25}, "LAMP");
    check(rc == SQLITE_OK, "SetDiscount: LAMP 25 %% off");
    rc = shop_SetDiscount(q, &(double){0.5}, "NOPE");
    check(rc == SQLITE_OK, "SetDiscount: no such sku is still SQLITE_OK");
}

static int each_restocked(void *ctx, const shop_RestockRow *row) {
    return add_row(ctx, "%s %" PRId64, row->sku, row->stock);
}

static void test_restock(shop_db *q) {
    Rows r = {0};
    int rc = shop_Restock(q, 2, 10, each_restocked, &r);   /* ?1: below 2, ?2: add 10 */
    check(rc == SQLITE_OK && r.n == 2, "Restock: UPDATE ... RETURNING, ?1 and ?2: 2 rows");
    check(strstr(r.text, "TEE 10") && strstr(r.text, "LAMP 11"), "Restock: ... TEE 10 and LAMP 11 (%s)", r.text);
    r = (Rows){0};
    rc = shop_Restock(q, 0, 10, each_restocked, &r);
    check(rc == SQLITE_OK && r.n == 0, "Restock: nothing below 0: no row");
}

static int each_band(void *ctx, const shop_PriceBandsRow *row) {
    /* min, max, avg, sum and group_concat of NOT NULL columns per group:
       never NULL, so no has_x */
    return add_row(ctx, "%s %" PRId64 " %s %s %s %s %s %s", row->band, row->n, R(true, row->lowest),
                   R(true, row->highest), R(true, row->mean),
                   I(row->has_mean_rounded, row->mean_rounded), I(true, row->stock), S(true, row->skus));
}

static void test_price_bands(shop_db *q) {
    Rows r = {0};
    int rc = shop_PriceBands(q, each_band, &r);
    check(rc == SQLITE_OK && r.n == 3, "PriceBands: CASE, GROUP BY: 3 bands");
    check_str(r.text, "cheap 2 1.5 8.5 5 5 53 MUG,PEN|mid 1 25 25 25 25 10 TEE|dear 1 120 120 120 120 11 LAMP",
              "PriceBands: count, min, max, avg, CAST, sum, group_concat");
}

/* ---- orders ------------------------------------------------------------------------ */

static void test_place_orders(shop_db *q) {
    int64_t id = 0, n = -1;
    int rc = shop_PlaceOrder(q, 1, "2024-03-01", NULL, &id);
    check(rc == SQLITE_OK && id == 1, "PlaceOrder: order 1, note NULL");
    rc = shop_PlaceOrder(q, 2, "2024-03-05", "gift", &id);
    check(rc == SQLITE_OK && id == 2, "PlaceOrder: order 2, with a note");
    rc = shop_PlaceOrder(q, 2, "2023-12-24", NULL, &id);
    check(rc == SQLITE_OK && id == 3, "PlaceOrder: order 3");
    rc = shop_PlaceOrder(q, 1, "2024-04-01", NULL, &id);
    check(rc == SQLITE_OK && id == 4, "PlaceOrder: order 4");
    rc = shop_PlaceOrder(q, 99, "2024-04-02", NULL, &id);
    check((rc & 0xff) == SQLITE_CONSTRAINT, "PlaceOrder: an unknown customer breaks the foreign key");
    struct { int64_t order, qty; const char *sku; int64_t want; } items[] = {
        {1, 2, "MUG", 1}, {1, 1, "LAMP", 1}, {2, 3, "TEE", 1}, {3, 4, "MUG", 1}, {2, 1, "NOPE", 0},
    };
    for (size_t i = 0; i < sizeof items / sizeof *items; i++) {
        rc = shop_AddOrderItem(q, items[i].order, items[i].qty, items[i].sku, &n);
        check(rc == SQLITE_OK && n == items[i].want, "AddOrderItem: INSERT ... SELECT %s into order %" PRId64
              ": %" PRId64 " row", items[i].sku, items[i].order, items[i].want);
    }
    rc = shop_AddOrderItem(q, 1, 5, "MUG", &n);
    check((rc & 0xff) == SQLITE_CONSTRAINT, "AddOrderItem: the same product twice breaks the primary key");
}

static void test_get_order(shop_db *q) {
    shop_GetOrderRow row;
    int rc = shop_GetOrder(q, 1, &row);
    check(rc == SQLITE_ROW && row.order_id == 1 && !row.has_note, "GetOrder: order 1, note NULL");
    check_str(row.status, "open", "GetOrder: status default 'open'");
    check_str(row.customer, "Ann Lee", "GetOrder: the customer through the JOIN");
    check(row.n_items == 2 && row.has_total && near(row.total, 107.0),   /* a count is never NULL: no has_n_items */
          "GetOrder: scalar subqueries: 2 items, 107.00 (the discounted lamp at 90)");
    shop_GetOrderRow_free(&row);
    rc = shop_GetOrder(q, 2, &row);
    check(rc == SQLITE_ROW && row.has_note && strcmp(row.note, "gift") == 0, "GetOrder: order 2's note");
    shop_GetOrderRow_free(&row);
    rc = shop_GetOrder(q, 4, &row);
    check(rc == SQLITE_ROW && row.n_items == 0 && !row.has_total,
          "GetOrder: no items: count 0, sum NULL (has_total false)");
    shop_GetOrderRow_free(&row);
    rc = shop_GetOrder(q, 99, &row);
    check(rc == SQLITE_DONE && row.status == NULL, "GetOrder: no such order: SQLITE_DONE, row zeroed");
    shop_GetOrderRow_free(&row);
}

static int each_line(void *ctx, const shop_OrderLinesRow *row) {
    return add_row(ctx, "%s %s %" PRId64 " %g %g", row->sku, row->title, row->quantity, row->unit_price, row->amount);
}

static void test_order_lines(shop_db *q) {
    Rows r = {0};
    int rc = shop_OrderLines(q, 1, each_line, &r);
    check(rc == SQLITE_OK, "OrderLines: SQLITE_OK");
    check_str(r.text, "LAMP Lamp 1 90 90|MUG Mug 2 8.5 17", "OrderLines: order 1's lines");
    r = (Rows){0};
    rc = shop_OrderLines(q, 4, each_line, &r);
    check(rc == SQLITE_OK && r.n == 0, "OrderLines: an order without lines: no callback");
}

static int each_summary(void *ctx, const shop_CustomerSummaryRow *row) {
    return add_row(ctx, "%" PRId64 " %s %" PRId64 " %s %s", row->customer_id, row->name, row->n_orders,
                   R(row->has_spent, row->spent), S(row->has_last_placed, row->last_placed));
}

static int each_sale(void *ctx, const shop_ProductSalesRow *row) {
    return add_row(ctx, "%s %s %s", row->sku, I(row->has_order_id, row->order_id), I(row->has_quantity, row->quantity));
}

static void test_left_joins(shop_db *q) {
    Rows r = {0};
    int rc = shop_CustomerSummary(q, each_summary, &r);
    check(rc == SQLITE_OK, "CustomerSummary: a query without parameters");
    check_str(r.text, "1 Ann Lee 2 107 2024-04-01|2 Bob 2 109 2024-03-05|3 Cy 0 NULL NULL",
              "CustomerSummary: LEFT JOIN and aggregates; Cy without orders gets NULLs");
    r = (Rows){0};
    rc = shop_ProductSales(q, "%", each_sale, &r);
    check_str(r.text, "LAMP 1 1|MUG 1 2|MUG 3 4|PEN NULL NULL|TEE 2 3",
              "ProductSales: LEFT JOIN: the unsold pen has NULL order and quantity");
    r = (Rows){0};
    rc = shop_ProductSales(q, "P%", each_sale, &r);
    check(rc == SQLITE_OK, "ProductSales: LIKE :pattern");
    check_str(r.text, "PEN NULL NULL", "ProductSales: ... only the pen");
}

static int each_spender(void *ctx, const shop_TopSpendersRow *row) {
    return add_row(ctx, "%s %s", row->name, R(row->has_total, row->total));
}

static void test_top_spenders(shop_db *q) {
    Rows r = {0};
    int rc = shop_TopSpenders(q, 100.0, 10, each_spender, &r);
    check(rc == SQLITE_OK, "TopSpenders: a CTE, SQLITE_OK");
    check_str(r.text, "Bob 109|Ann Lee 107", "TopSpenders: both over 100, most first");
    r = (Rows){0};
    shop_TopSpenders(q, 100.0, 1, each_spender, &r);
    check_str(r.text, "Bob 109", "TopSpenders: LIMIT :n of 1");
    r = (Rows){0};
    shop_TopSpenders(q, 108.0, 10, each_spender, &r);
    check_str(r.text, "Bob 109", "TopSpenders: :min_total 108");
    r = (Rows){0};
    shop_TopSpenders(q, 1000.0, 10, each_spender, &r);
    check(r.n == 0, "TopSpenders: nobody over 1000");
}

static int each_status(void *ctx, const shop_CountByStatusRow *row) {
    return add_row(ctx, "%s %" PRId64, row->status, row->n);
}

static void test_close_orders(shop_db *q) {
    shop_CloseOrderRow row;
    int rc = shop_CloseOrder(q, "paid", 1, &row);
    check(rc == SQLITE_ROW && row.order_id == 1 && row.has_note, "CloseOrder: UPDATE ... RETURNING the closed order");
    check_str(row.status, "closed", "CloseOrder: status");
    check_str(row.note, "paid", "CloseOrder: note set");
    shop_CloseOrderRow_free(&row);
    rc = shop_CloseOrder(q, NULL, 2, &row);
    check(rc == SQLITE_ROW && !row.has_note && row.note == NULL, "CloseOrder: a NULL note clears order 2's");
    shop_CloseOrderRow_free(&row);
    rc = shop_CloseOrder(q, "again", 1, &row);
    check(rc == SQLITE_DONE, "CloseOrder: an order closed before: no row (SQLITE_DONE)");
    shop_CloseOrderRow_free(&row);
    Rows r = {0};
    rc = shop_CountByStatus(q, "2024-01-01", "2024-12-31", each_status, &r);
    check(rc == SQLITE_OK, "CountByStatus: BETWEEN @from AND @to");
    check_str(r.text, "closed 2|open 1", "CountByStatus: 2024's orders by status");
    r = (Rows){0};
    shop_CountByStatus(q, "2023-01-01", "2023-12-31", each_status, &r);
    check_str(r.text, "open 1", "CountByStatus: 2023's");
}

static void test_deletes(shop_db *q) {
    int64_t n = -1;
    int rc = shop_DeleteOpenOrdersBefore(q, "2024-01-01", &n);
    check(rc == SQLITE_OK && n == 1, "DeleteOpenOrdersBefore: :execrows counts 1 row");
    rc = shop_DeleteOpenOrdersBefore(q, "2024-01-01", &n);
    check(rc == SQLITE_OK && n == 0, "DeleteOpenOrdersBefore: ... then 0");
    Rows r = {0};
    shop_ProductSales(q, "MUG", each_sale, &r);
    check_str(r.text, "MUG 1 2", "DeleteOpenOrdersBefore: its lines went too (ON DELETE CASCADE)");
    rc = shop_DeleteCustomerWithoutOrders(q, 2, &n);
    check(rc == SQLITE_OK && n == 0, "DeleteCustomerWithoutOrders: Bob has orders: 0 rows");
    rc = shop_DeleteCustomerWithoutOrders(q, 3, &n);
    check(rc == SQLITE_OK && n == 1, "DeleteCustomerWithoutOrders: Cy has none: 1 row");
    shop_GetCustomerRow row;
    rc = shop_GetCustomer(q, 3, &row);
    check(rc == SQLITE_DONE, "DeleteCustomerWithoutOrders: ... and Cy is gone");
    shop_GetCustomerRow_free(&row);
}

/* ---- main ---------------------------------------------------------------------------- */

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_shop MIGRATION...\n");
        return 2;
    }
    sqlite3 *db = open_db(argc - 1, argv + 1);
    if (!db) return 2;
    shop_db *q = shop_open(db);
    check(q != NULL, "shop_open");
    if (!q) {
        sqlite3_close(db);
        return 1;
    }
    test_create_customer(q);
    test_get_customer(q);
    test_upsert_customer(q);
    test_list_customers(q);
    test_loyalty(q);
    test_add_product(q);
    test_thumbnail(q);
    test_products_by_ids(q);
    test_discount(q);
    test_restock(q);
    test_price_bands(q);
    test_place_orders(q);
    test_get_order(q);
    test_order_lines(q);
    test_left_joins(q);
    test_top_spenders(q);
    test_close_orders(q);
    test_deletes(q);
    shop_close(q);
    check(sqlite3_close(db) == SQLITE_OK, "sqlite3_close: shop_close finalized every statement");
    printf("# %d checks, %d failed\n", n_checks, n_failed);
    return n_failed ? 1 : 0;
}
