/* test_book.c - the Polyglot book reader: published keys, probes of
 * lasker-trap.bin, games.bin, the default books/book.bin and (from
 * $HEXE_TEST_DATA, skipped without it) the large performance.bin against an
 * independent reference reader's lists (tests/data/book/ *.ref, made by
 * ref_reader.py), move conversion (castling, promotions), every bad-file
 * case, the selection modes (on the default book too), the default-path
 * lookup, and the time one book pick takes. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime, readlink */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "book.h"
#include "files.h"
#include "check.h"
#include "fen.h"
#include "movegen.h"
#include "position.h"
#include "zobrist.h"

#define DATA "tests/data/book/"
#define LASKER DATA "lasker-trap.bin"
#define DEFAULT_BOOK "books/book.bin"

/* The large performance.bin in $HEXE_TEST_DATA/books, or NULL. */
static const char *performance;
static char performance_buf[4096];

static char tmpdir[256];

static bool set_fen(Position *pos, const char *fen)
{
    char err[160];
    if (pos_set_fen(pos, fen, err, sizeof err))
        return true;
    printf("bad FEN '%s': %s\n", fen, err);
    return false;
}

/* Plays UCI moves (space separated) from the start position. */
static bool play_line(Position *pos, const char *moves)
{
    if (!set_fen(pos, START_FEN))
        return false;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
        Move m = parse_move(pos, tok);
        if (m == MOVE_NONE) {
            printf("illegal move '%s' in line '%s'\n", tok, moves);
            return false;
        }
        make_move(pos, m);
    }
    return true;
}

/* A Hexe move in Polyglot's notation: squares as stored (castling is
 * king-takes-rook in both), promotion letter appended. */
static const char *poly_string(Move m, char *buf)
{
    int from = MOVE_FROM(m), to = MOVE_TO(m);
    buf[0] = (char)('a' + FILE_OF(from));
    buf[1] = (char)('1' + RANK_OF(from));
    buf[2] = (char)('a' + FILE_OF(to));
    buf[3] = (char)('1' + RANK_OF(to));
    buf[4] = MOVE_KIND(m) == MK_PROMO ? "nbrq"[MOVE_PROMO(m) - KNIGHT] : '\0';
    buf[5] = '\0';
    return buf;
}

/* ---- 1. The published Polyglot keys (book_format.html) ---- */

static void test_published_keys(void)
{
    static const struct {
        const char *fen, *moves;
        uint64_t key;
    } t[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "", 0x463b96181691fc9cULL},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "e2e4", 0x823c9b50fd114196ULL},
        {"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "e2e4 d7d5",
         0x0756b94461c50fb0ULL},
        {"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", "e2e4 d7d5 e4e5",
         0x662fafb965db29d4ULL},
        {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e2e4 d7d5 e4e5 f7f5",
         0x22a48b5a8e47ff78ULL},
        {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", "e2e4 d7d5 e4e5 f7f5 e1e2",
         0x652a607ca3f242c1ULL},
        {"rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
         "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9ULL},
        {"rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
         "a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637ULL},
        {"rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
         "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560ULL},
    };
    Position pos = {0};
    pos_init(&pos);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        CHECK(set_fen(&pos, t[i].fen) && pos.key == t[i].key, "FEN %s: key %016llx, want %016llx",
              t[i].fen, (unsigned long long)pos.key, (unsigned long long)t[i].key);
        CHECK(play_line(&pos, t[i].moves) && pos.key == t[i].key,
              "moves '%s': key %016llx, want %016llx", t[i].moves, (unsigned long long)pos.key,
              (unsigned long long)t[i].key);
    }
    pos_free(&pos);
}

/* ---- 2. Probes against the reference reader's lists ---- */

/* Checks every position of a .ref file (see ref_reader.py) against book_probe
 * on the book; returns the number of positions checked. */
static int check_reference(const char *book_path, const char *ref_path, int *entries_seen)
{
    char err[256];
    Book *book = book_open(book_path, err, sizeof err);
    CHECK(book != NULL, "open %s: %s", book_path, err);
    FILE *f = fopen(ref_path, "r");
    CHECK(f != NULL, "cannot open %s", ref_path);
    if (!book || !f) {
        book_close(book);
        if (f)
            fclose(f);
        return 0;
    }
    Position pos = {0};
    pos_init(&pos);
    char line[1024], fen[1024] = "", moves[1024] = "", want[64][8];
    unsigned long wweight[64], wlearn[64];
    unsigned long long key = 0;
    int nwant = 0, positions = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!strncmp(line, "fen ", 4)) {
            snprintf(fen, sizeof fen, "%s", line + 4);
            nwant = 0;
        } else if (!strncmp(line, "moves", 5)) {
            snprintf(moves, sizeof moves, "%s", line[5] ? line + 6 : "");
        } else if (!strncmp(line, "key ", 4)) {
            key = strtoull(line + 4, NULL, 16);
        } else if (!strncmp(line, "entry ", 6) && nwant < 64) {
            if (sscanf(line + 6, "%7s %lu %lu", want[nwant], &wweight[nwant], &wlearn[nwant]) == 3)
                nwant++;
        } else if (!strcmp(line, "end")) {
            positions++;
            CHECK(set_fen(&pos, fen) && pos.key == key, "%s: key %016llx, reference %016llx", fen,
                  (unsigned long long)pos.key, key);
            if (moves[0]) {
                Position line_pos = {0};
                pos_init(&line_pos);
                CHECK(play_line(&line_pos, moves) && line_pos.key == key,
                      "line '%s' reaches key %016llx, reference %016llx", moves,
                      (unsigned long long)line_pos.key, key);
                pos_free(&line_pos);
            }
            BookEntry got[64];
            int n = book_probe(book, &pos, got, 64);
            CHECK(n == nwant, "%s: %d entries, reference %d", fen, n, nwant);
            for (int i = 0; i < n && i < nwant; i++) {
                char s[8];
                poly_string(got[i].move, s);
                CHECK(!strcmp(s, want[i]) && got[i].weight == wweight[i] &&
                          got[i].learn == wlearn[i],
                      "%s entry %d: %s %u %lu, reference %s %lu %lu", fen, i, s, got[i].weight,
                      (unsigned long)got[i].learn, want[i], wweight[i], wlearn[i]);
                /* Castling comes out as Hexe's castle move. */
                bool castle_str = !strcmp(s, "e1h1") || !strcmp(s, "e1a1") ||
                                  !strcmp(s, "e8h8") || !strcmp(s, "e8a8");
                if (castle_str) {
                    char uci[8];
                    move_to_uci(got[i].move, false, uci);
                    CHECK(MOVE_KIND(got[i].move) == MK_CASTLE && uci[2] == (s[2] == 'h' ? 'g' : 'c'),
                          "%s: castling %s became kind %d, uci %s", fen, s, MOVE_KIND(got[i].move),
                          uci);
                }
                *entries_seen += 1;
            }
        }
    }
    fclose(f);
    pos_free(&pos);
    book_close(book);
    return positions;
}

static void test_reference(void)
{
    int entries = 0, n = 0;
    if (performance) {
        n = check_reference(performance, DATA "performance.ref", &entries);
        CHECK(n >= 10, "only %d positions in performance.ref", n);
    } else {
        SKIP(1, "performance.bin reference (no books/performance.bin in $HEXE_TEST_DATA)");
    }
    int lasker_entries = 0;
    int m = check_reference(LASKER, DATA "lasker-trap.ref", &lasker_entries);
    CHECK(m >= 10 && lasker_entries == 7, "lasker-trap.ref: %d positions, %d entries", m,
          lasker_entries);
    int games_entries = 0;
    int g = check_reference(DATA "games.bin", DATA "games.ref", &games_entries);
    CHECK(g >= 10 && games_entries >= 12, "games.ref: %d positions, %d entries", g, games_entries);
    int default_entries = 0;
    int d = check_reference(DEFAULT_BOOK, DATA "default.ref", &default_entries);
    CHECK(d >= 15 && default_entries >= 20, "default.ref: %d positions, %d entries", d,
          default_entries);
    printf("reference: %d positions (%d entries) in performance.bin, %d (%d) in lasker-trap.bin, "
           "%d (%d) in games.bin, %d (%d) in " DEFAULT_BOOK "\n",
           n, entries, m, lasker_entries, g, games_entries, d, default_entries);
}

/* The shipped default book (scripts/gnu-book) and, where Debian's
 * gnuchess-book is installed, GNU Chess's Polyglot book open and probe. */
static void test_other_books(void)
{
    static const char *const books[] = {DEFAULT_BOOK, "/usr/share/games/gnuchess/book.bin"};
    /* The first (up to three) moves from the start position, best first. */
    static const char *const first[] = {"e2e4 d2d4", "e2e4 d2d4 g1f3"};
    for (int b = 0; b < 2; b++) {
        if (access(books[b], F_OK) != 0) {
            SKIP(2, "%s: not present", books[b]);
            continue;
        }
        char err[300], text[64] = "";
        Book *book = book_open(books[b], err, sizeof err);
        CHECK(book != NULL, "open %s: %s", books[b], err);
        Position pos = {0};
        pos_init(&pos);
        set_fen(&pos, START_FEN);
        BookEntry e[64];
        int n = book_probe(book, &pos, e, 64);
        for (int i = 0; i < n && i < 3; i++) {
            char s[8];
            snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", i ? " " : "",
                     poly_string(e[i].move, s));
        }
        CHECK(!strcmp(text, first[b]), "%s: %d entries, first '%s'", books[b], n, text);
        printf("%s: %llu entries, %d from the start position (%s ...)\n", books[b],
               (unsigned long long)book_size(book), n, text);
        pos_free(&pos);
        book_close(book);
    }
}

/* scripts/make-book rebuilds games.bin byte for byte from games.pgn (when
 * Debian's polyglot is installed; the committed games.bin is probed above). */
static void test_make_book(void)
{
    if (system("command -v polyglot >/dev/null 2>&1 || test -x /usr/games/polyglot") != 0) {
        SKIP(4, "make-book: polyglot is not installed");
        return;
    }
    char out[300], cmd[800];
    snprintf(out, sizeof out, "%s/made.bin", tmpdir);
    snprintf(cmd, sizeof cmd,
             "sh scripts/make-book -pgn " DATA "games.pgn -bin %s -min-game 1 >/dev/null 2>&1", out);
    CHECK(system(cmd) == 0, "%s failed", cmd);
    snprintf(cmd, sizeof cmd, "cmp -s %s " DATA "games.bin", out);
    CHECK(system(cmd) == 0, "scripts/make-book output differs from " DATA "games.bin");
    char err[300];
    Book *book = book_open(out, err, sizeof err);
    CHECK(book && book_size(book) == 36, "open the made book: %s", err);
    book_close(book);
    unlink(out);
    /* Too strict a filter leaves nothing: the script fails and says why. */
    snprintf(cmd, sizeof cmd,
             "sh scripts/make-book -pgn " DATA "games.pgn -bin %s -min-game 50 >/dev/null 2>&1", out);
    CHECK(system(cmd) != 0 && access(out, F_OK) != 0, "make-book with -min-game 50 should fail");
    printf("make-book: games.pgn -> games.bin reproduced\n");
}

/* ---- Synthetic books ---- */

typedef struct {
    uint64_t key;
    uint16_t move, weight;
    uint32_t learn;
    int order;
} Entry;

static int cmp_entry(const void *a, const void *b)
{
    const Entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->order - y->order;
}

static void put_be(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)v;
}

/* Writes entries to path in the given order (sort them first for a valid book). */
static bool write_book(const char *path, const Entry *e, int n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    for (int i = 0; i < n; i++) {
        unsigned char b[16];
        put_be(b, e[i].key, 8);
        put_be(b + 8, e[i].move, 2);
        put_be(b + 10, e[i].weight, 2);
        put_be(b + 12, e[i].learn, 4);
        fwrite(b, 1, 16, f);
    }
    return fclose(f) == 0;
}

static const char *tmp_path(const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", tmpdir, name);
    return buf;
}

/* A Polyglot move from UCI-like squares, e.g. pmove("e1h1", 0). */
static uint16_t pmove(const char *s, int promo)
{
    int ff = s[0] - 'a', fr = s[1] - '1', tf = s[2] - 'a', tr = s[3] - '1';
    return (uint16_t)(tf | tr << 3 | ff << 6 | fr << 9 | promo << 12);
}

static uint64_t key_of(const char *fen)
{
    Position pos = {0};
    pos_init(&pos);
    uint64_t k = set_fen(&pos, fen) ? pos.key : 0;
    pos_free(&pos);
    return k;
}

#define FEN_CASTLE_W "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
#define FEN_CASTLE_B "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"
#define FEN_PROMO_W "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
#define FEN_PROMO_B "4k3/8/8/8/8/8/6p1/4K2R b K - 0 1"
#define FEN_960 "4k2r/8/8/8/8/8/8/RK6 w Ah - 0 1"

/* Probes fen in book and returns the entries as "move weight" text. */
static const char *probe_text(const Book *book, const char *fen, char *out, size_t n)
{
    Position pos = {0};
    pos_init(&pos);
    out[0] = '\0';
    if (set_fen(&pos, fen)) {
        BookEntry e[32];
        int cnt = book_probe(book, &pos, e, 32);
        size_t len = 0;
        for (int i = 0; i < cnt; i++) {
            char s[8], u[8];
            len += (size_t)snprintf(out + len, n - len, "%s%s/%s:%u", i ? " " : "",
                                    poly_string(e[i].move, s), move_to_uci(e[i].move, false, u),
                                    e[i].weight);
        }
        if (cnt < 0)
            snprintf(out, n, "error %d", cnt);
    }
    pos_free(&pos);
    return out;
}

static void test_conversion(void)
{
    Entry e[] = {
        /* White castles both ways; e1g1 is no Polyglot castle (dropped: the
         * king cannot walk two squares), e1f1 is a plain king move. */
        {key_of(FEN_CASTLE_W), pmove("e1h1", 0), 10, 1, 0},
        {key_of(FEN_CASTLE_W), pmove("e1a1", 0), 9, 2, 0},
        {key_of(FEN_CASTLE_W), pmove("e1g1", 0), 8, 3, 0},
        {key_of(FEN_CASTLE_W), pmove("e1f1", 0), 7, 4, 0},
        {key_of(FEN_CASTLE_W), pmove("a1a8", 0), 6, 5, 0},
        {key_of(FEN_CASTLE_B), pmove("e8h8", 0), 5, 6, 0},
        {key_of(FEN_CASTLE_B), pmove("e8a8", 0), 4, 7, 0},
        {key_of(FEN_CASTLE_B), pmove("e8c8", 0), 3, 8, 0},
        /* Promotions, all four pieces, plus bad promotion codes and a non-promotion. */
        {key_of(FEN_PROMO_W), pmove("b7b8", 4), 40, 0, 0},
        {key_of(FEN_PROMO_W), pmove("b7b8", 1), 10, 0, 0},
        {key_of(FEN_PROMO_W), pmove("b7b8", 3), 30, 0, 0},
        {key_of(FEN_PROMO_W), pmove("b7b8", 2), 20, 0, 0},
        {key_of(FEN_PROMO_W), pmove("b7b8", 5), 50, 0, 0},
        {key_of(FEN_PROMO_W), pmove("b7b8", 0), 60, 0, 0},
        {key_of(FEN_PROMO_B), pmove("g2h1", 4), 3, 0, 0},
        {key_of(FEN_PROMO_B), pmove("g2g1", 1), 2, 0, 0},
        {key_of(FEN_PROMO_B), pmove("e1h1", 0), 1, 0, 0}, /* Black's turn: dropped */
        /* Chess960 castling, king b1 takes rook a1. */
        {key_of(FEN_960), pmove("b1a1", 0), 1, 0, 0},
        /* Start position: illegal and null moves are dropped. */
        {key_of(START_FEN), pmove("e2e5", 0), 1, 0, 0},
        {key_of(START_FEN), 0, 1, 0, 0},
        {key_of(START_FEN), pmove("g1f3", 0), 2, 0, 0},
    };
    int n = (int)(sizeof e / sizeof e[0]);
    for (int i = 0; i < n; i++)
        e[i].order = i;
    qsort(e, (size_t)n, sizeof e[0], cmp_entry);
    char path[300], err[300], text[512];
    CHECK(write_book(tmp_path("synthetic.bin", path, sizeof path), e, n), "cannot write %s", path);
    Book *book = book_open(path, err, sizeof err);
    CHECK(book && book_size(book) == (uint64_t)n, "open synthetic book: %s", err);
    if (!book)
        return;
    probe_text(book, FEN_CASTLE_W, text, sizeof text);
    CHECK(!strcmp(text, "e1h1/e1g1:10 e1a1/e1c1:9 e1f1/e1f1:7 a1a8/a1a8:6"), "white castling: %s",
          text);
    probe_text(book, FEN_CASTLE_B, text, sizeof text);
    CHECK(!strcmp(text, "e8h8/e8g8:5 e8a8/e8c8:4"), "black castling: %s", text);
    probe_text(book, FEN_PROMO_W, text, sizeof text);
    CHECK(!strcmp(text, "b7b8q/b7b8q:40 b7b8n/b7b8n:10 b7b8r/b7b8r:30 b7b8b/b7b8b:20"),
          "white promotions: %s", text);
    probe_text(book, FEN_PROMO_B, text, sizeof text);
    CHECK(!strcmp(text, "g2h1q/g2h1q:3 g2g1n/g2g1n:2"), "black promotions: %s", text);
    probe_text(book, FEN_960, text, sizeof text);
    CHECK(!strcmp(text, "b1a1/b1c1:1"), "chess960 castling: %s", text);
    probe_text(book, START_FEN, text, sizeof text);
    CHECK(!strcmp(text, "g1f3/g1f3:2"), "start position: %s", text);
    probe_text(book, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", text, sizeof text);
    CHECK(!strcmp(text, ""), "absent position: %s", text);

    /* The kinds behind the strings. */
    Position pos = {0};
    pos_init(&pos);
    BookEntry be[8];
    set_fen(&pos, FEN_CASTLE_W);
    int cnt = book_probe(book, &pos, be, 8);
    CHECK(cnt == 4 && MOVE_KIND(be[0].move) == MK_CASTLE && MOVE_KIND(be[1].move) == MK_CASTLE &&
              MOVE_KIND(be[2].move) == MK_NORMAL && be[0].learn == 1 && be[1].learn == 2,
          "castle kinds");
    CHECK(book_probe(book, &pos, be, 2) == 2, "max caps the count");
    set_fen(&pos, FEN_PROMO_W);
    cnt = book_probe(book, &pos, be, 8);
    CHECK(cnt == 4 && MOVE_KIND(be[0].move) == MK_PROMO && MOVE_PROMO(be[0].move) == QUEEN &&
              MOVE_PROMO(be[1].move) == KNIGHT && MOVE_PROMO(be[2].move) == ROOK &&
              MOVE_PROMO(be[3].move) == BISHOP,
          "promotion kinds");
    for (int i = 0; i < cnt; i++)
        CHECK(move_is_legal(&pos, be[i].move), "book move %d not legal", i);
    /* Picking plays the book move through make_move. */
    uint64_t rng = 7;
    Move m = book_pick(book, &pos, BOOK_BEST, 1, &rng);
    CHECK(m == be[0].move, "best promotion is the queen");
    pos_free(&pos);
    book_close(book);
    unlink(path);
}

/* ---- 3. Bad files ---- */

static void expect_open_fails(const char *path, const char *reason, const char *what)
{
    char err[300] = "";
    Book *book = book_open(path, err, sizeof err);
    CHECK(book == NULL && strstr(err, reason) != NULL, "%s: opened=%d, reason '%s', want '%s'",
          what, book != NULL, err, reason);
    if (book == NULL)
        printf("  %-22s -> %s\n", what, err);
    book_close(book);
}

static void test_bad_files(void)
{
    char path[300], dir[300];
    Entry e[300];
    for (int i = 0; i < 300; i++)
        e[i] = (Entry){(uint64_t)(i + 1) * 0x0123456789ULL, pmove("e2e4", 0), 1, 0, i};

    expect_open_fails(tmp_path("missing.bin", path, sizeof path), "no such file", "missing");
    expect_open_fails(NULL, "no book file", "no path");
    expect_open_fails("", "no book file", "empty path");

    /* Unreadable: chmod 000 works unless we are root; a directory always fails. */
    tmp_path("unreadable.bin", path, sizeof path);
    write_book(path, e, 4);
    chmod(path, 0);
    FILE *probe = fopen(path, "rb");
    if (probe)
        fclose(probe); /* root reads anyway: that case cannot be made here */
    else
        expect_open_fails(path, "Permission denied", "unreadable (chmod 000)");
    unlink(path);
    tmp_path("adir", dir, sizeof dir);
    mkdir(dir, 0700);
    expect_open_fails(dir, "directory", "unreadable (directory)");
    rmdir(dir);
    expect_open_fails("/dev/null", "not a regular file", "not a regular file");

    write_book(tmp_path("empty.bin", path, sizeof path), e, 0);
    expect_open_fails(path, "empty", "empty");
    unlink(path);

    write_book(tmp_path("truncated.bin", path, sizeof path), e, 5);
    CHECK(truncate(path, 5 * 16 - 9) == 0, "truncate");
    expect_open_fails(path, "not a multiple of 16", "truncated");
    unlink(path);

    /* Unsorted: reversed, two sorted halves swapped, small with one swap. */
    Entry r[300];
    for (int i = 0; i < 300; i++)
        r[i] = e[299 - i];
    write_book(tmp_path("reversed.bin", path, sizeof path), r, 300);
    expect_open_fails(path, "not sorted", "unsorted (reversed)");
    for (int i = 0; i < 300; i++)
        r[i] = e[(i + 150) % 300];
    write_book(path, r, 300);
    expect_open_fails(path, "not sorted", "unsorted (halves)");
    memcpy(r, e, sizeof r);
    r[40] = e[41];
    r[41] = e[40];
    write_book(path, r, 100);
    expect_open_fails(path, "entries 40 and 41", "unsorted (small swap)");
    unlink(path);

    /* A sorted book of one entry and of two equal keys is fine. */
    write_book(path, e, 1);
    Book *book = book_open(path, NULL, 0);
    CHECK(book && book_size(book) == 1, "one-entry book");
    book_close(book);
    unlink(path);
}

/* Local disorder that the sample check on open misses is caught by a probe. */
static void test_local_disorder(void)
{
    enum { N = 8192, A = 3000, B = 3100 }; /* samples fall every ~130 entries */
    static Entry e[N];
    uint64_t base = key_of(START_FEN) - 5000 * 1000ULL;
    for (int i = 0; i < N; i++)
        e[i] = (Entry){base + (uint64_t)i * 1000, pmove("e2e4", 0), 1, 0, i};
    /* Entry 5000 holds the start position's key; reverse a block around it
     * that lies between two samples. */
    int a = 0, b = 0;
    for (int s = 0; s < 63; s++) { /* the gap between samples that holds 5000 */
        int lo = (N - 2) * s / 63 + 2, hi = (N - 2) * (s + 1) / 63 - 1;
        if (lo <= 5000 && 5000 < hi)
            a = lo, b = hi;
    }
    CHECK(b - a > 50, "sample gap %d..%d", a, b);
    for (int i = a, j = b - 1; i < j; i++, j--) {
        Entry t = e[i];
        e[i] = e[j];
        e[j] = t;
    }
    char path[300], err[300];
    write_book(tmp_path("local.bin", path, sizeof path), e, N);
    Book *book = book_open(path, err, sizeof err);
    CHECK(book != NULL, "local disorder passes the sample check: %s", err);
    Position pos = {0};
    pos_init(&pos);
    set_fen(&pos, START_FEN);
    BookEntry be[8];
    int got = book_probe(book, &pos, be, 8);
    CHECK(got == BOOK_ERR_UNSORTED, "probe in the disordered block: %d", got);
    printf("  %-22s -> %s\n", "local disorder", book_strerror(got));
    uint64_t rng = 1;
    CHECK(book_pick(book, &pos, BOOK_WEIGHTED, 1, &rng) == MOVE_NONE, "pick on disorder");
    /* Outside the block the book still works: entry 100's key. */
    pos.key = base + 100 * 1000;
    CHECK(book_probe(book, &pos, be, 8) == 1, "probe outside the block");
    pos_free(&pos);
    book_close(book);
    unlink(path);
    CHECK(book_strerror(BOOK_ERR_READ)[0] && book_probe(NULL, &pos, be, 8) == 0, "null book");
}

/* ---- 4. Selection modes ---- */

static void test_selection(void)
{
    /* Moves are just labels here: 1..6. */
    const BookEntry e[] = {{1, 100, 0}, {2, 100, 0}, {3, 50, 0}, {4, 25, 0}, {5, 1, 0}, {6, 0, 0}};
    const int n = 6, picks = 100000;
    int count[8];
    uint64_t rng = 12345;

    memset(count, 0, sizeof count);
    for (int i = 0; i < picks; i++)
        count[book_choose(e, n, BOOK_BEST, 0, &rng)]++;
    CHECK(count[1] + count[2] == picks && count[1] > picks * 45 / 100 && count[2] > picks * 45 / 100,
          "best: %d %d of %d", count[1], count[2], picks);

    memset(count, 0, sizeof count);
    for (int i = 0; i < picks; i++)
        count[book_choose(e, n, BOOK_WEIGHTED, 0, &rng)]++;
    const int total = 276;
    for (int k = 0; k < n; k++) {
        double want = (double)picks * e[k].weight / total;
        double tol = 6 * sqrt(want > 1 ? want : 1) + 1;
        CHECK(count[e[k].move] >= want - tol && count[e[k].move] <= want + tol,
              "weighted: move %d weight %d picked %d, expected %.0f", e[k].move, e[k].weight,
              count[e[k].move], want);
    }
    printf("weighted picks over %d: %d %d %d %d %d %d (weights 100 100 50 25 1 0)\n", picks,
           count[1], count[2], count[3], count[4], count[5], count[6]);

    memset(count, 0, sizeof count);
    for (int i = 0; i < picks; i++)
        count[book_choose(e, n, BOOK_UNIFORM, 0, &rng)]++;
    for (int k = 1; k <= 5; k++)
        CHECK(count[k] > picks / 5 * 95 / 100 && count[k] < picks / 5 * 105 / 100,
              "uniform: move %d picked %d", k, count[k]);
    CHECK(count[6] == 0 && count[0] == 0, "uniform: weight 0 never picked (%d)", count[6]);

    /* min_weight filters every mode. */
    memset(count, 0, sizeof count);
    for (int i = 0; i < picks; i++) {
        count[book_choose(e, n, BOOK_UNIFORM, 30, &rng)]++;
        count[book_choose(e, n, BOOK_WEIGHTED, 30, &rng)]++;
    }
    CHECK(count[4] == 0 && count[5] == 0 && count[0] == 0 && count[3] > picks / 3,
          "min weight 30: %d %d %d %d %d", count[1], count[2], count[3], count[4], count[5]);
    CHECK(book_choose(e, n, BOOK_BEST, 101, &rng) == MOVE_NONE &&
              book_choose(e, n, BOOK_WEIGHTED, 101, &rng) == MOVE_NONE &&
              book_choose(e, n, BOOK_UNIFORM, 101, &rng) == MOVE_NONE,
          "min weight above all: none");
    CHECK(book_choose(e, 0, BOOK_BEST, 0, &rng) == MOVE_NONE, "no entries");
    CHECK(book_choose(e + 5, 1, BOOK_UNIFORM, 0, &rng) == MOVE_NONE, "only weight 0");
    CHECK(book_choose(e, n, 99, 0, &rng) == MOVE_NONE, "unknown selection");
    CHECK(book_choose(e + 2, 1, BOOK_WEIGHTED, 0, NULL) == 3, "NULL rng state");

    CHECK(book_selection_parse("best") == BOOK_BEST &&
              book_selection_parse("Weighted") == BOOK_WEIGHTED &&
              book_selection_parse("UNIFORM") == BOOK_UNIFORM && book_selection_parse("bes") == -1 &&
              book_selection_parse("bestx") == -1 && book_selection_parse("") == -1 &&
              book_selection_parse(NULL) == -1,
          "selection names");

    /* A fixed seed gives a fixed sequence. */
    uint64_t s1 = 42, s2 = 42;
    bool same = true;
    for (int i = 0; i < 100; i++)
        same &= book_choose(e, n, BOOK_WEIGHTED, 0, &s1) == book_choose(e, n, BOOK_WEIGHTED, 0, &s2);
    CHECK(same && s1 == s2, "seeded sequences differ");

    /* On the shipped book, after 1.d4 d5 2.c4: e6 (weight 3264) and c6 (2584). */
    Book *book = book_open(DEFAULT_BOOK, NULL, 0);
    CHECK(book != NULL, "open " DEFAULT_BOOK);
    Position pos = {0};
    pos_init(&pos);
    play_line(&pos, "d2d4 d7d5 c2c4");
    const Move e6 = parse_move(&pos, "e7e6"), c6 = parse_move(&pos, "c7c6");
    rng = 3;
    bool ok = book != NULL;
    for (int i = 0; i < 200 && ok; i++)
        ok = book_pick(book, &pos, BOOK_BEST, 1, &rng) == e6;
    CHECK(ok, "best after 1.d4 d5 2.c4 is always e6");
    int ne6 = 0, nc6 = 0, other = 0;
    for (int i = 0; i < 4000 && book; i++) {
        Move m = book_pick(book, &pos, BOOK_WEIGHTED, 1, &rng);
        ne6 += m == e6;
        nc6 += m == c6;
        other += m != e6 && m != c6;
    }
    /* Expected 4000 * 3264 / 5848 = 2233 e6; 6 standard deviations is 190. */
    CHECK(ne6 > 2233 - 190 && ne6 < 2233 + 190 && nc6 == 4000 - ne6 && other == 0,
          "weighted after 1.d4 d5 2.c4: e6 %d c6 %d other %d", ne6, nc6, other);
    ok = book != NULL;
    for (int i = 0; i < 200 && ok; i++)
        ok = book_pick(book, &pos, BOOK_UNIFORM, 3000, &rng) == e6;
    CHECK(ok, "min weight 3000 excludes c6 (weight 2584)");
    pos_free(&pos);
    book_close(book);
}

/* ---- 5. The default path ---- */

static void test_default_path(void)
{
    char exe[4096], path[4200];
    CHECK(exe_dir(0, exe, sizeof exe), "exe_dir");
    CHECK(!exe_dir(0, exe, 3), "exe_dir: too small a buffer");
    if (!exe_dir(0, exe, sizeof exe))
        return;
    char want[4200], dir[4200], cwd[4096];
    snprintf(want, sizeof want, "%s/%s", exe, BOOK_DEFAULT_NAME);
    snprintf(dir, sizeof dir, "%s/books", exe);
    CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
    /* Make one beside the test binary (unless there is one), then look for
     * it from a folder without books/. */
    struct stat st;
    bool made = false;
    if (stat(want, &st) != 0 && (mkdir(dir, 0755) == 0 || errno == EEXIST)) {
        FILE *src = fopen(LASKER, "rb"), *dst = fopen(want, "wb");
        char buf[256];
        size_t r;
        while (src && dst && (r = fread(buf, 1, sizeof buf, src)) > 0)
            fwrite(buf, 1, r, dst);
        if (src)
            fclose(src);
        if (dst)
            fclose(dst);
        made = true;
    }
    CHECK(chdir("/") == 0, "chdir /");
    const char *p = beside_exe(BOOK_DEFAULT_NAME, path, sizeof path);
    CHECK(!strcmp(p, want), "default book found beside the executable: '%s', want '%s'", p, want);
    if (made) {
        Book *book = book_open(p, NULL, 0);
        CHECK(book && book_size(book) == 7, "default book opens");
        book_close(book);
    }
    CHECK(!strcmp(beside_exe("no/such/book.bin", path, sizeof path), "no/such/book.bin"), "missing: kept as given");
    CHECK(!strcmp(beside_exe("/abs/book.bin", path, sizeof path), "/abs/book.bin"), "absolute: kept as given");
    CHECK(!strcmp(beside_exe(BOOK_DEFAULT_NAME, path, 8), BOOK_DEFAULT_NAME), "too small a buffer: kept as given");
    CHECK(chdir(cwd) == 0, "chdir back");
    if (made) {
        unlink(want);
        rmdir(dir);
    }
}

/* ---- 6. Timing ---- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void test_timing(void)
{
    double t0 = now();
    Book *book = book_open(DEFAULT_BOOK, NULL, 0);
    double t_open = now() - t0;
    Position pos = {0};
    pos_init(&pos);
    set_fen(&pos, START_FEN);
    uint64_t rng = 99;
    const int reps = 20000;
    int found = 0;
    t0 = now();
    for (int i = 0; i < reps && book; i++)
        found += book_pick(book, &pos, BOOK_WEIGHTED, 1, &rng) != MOVE_NONE;
    double per = (now() - t0) / reps * 1e6;
    CHECK(found == reps, "picks found %d of %d", found, reps);
    CHECK(per < 1000, "a pick takes %.1f us", per);
    printf("timing: open " DEFAULT_BOOK " %.1f us; pick from the start position %.2f us (%d picks)\n",
           t_open * 1e6, per, reps);
    pos_free(&pos);
    book_close(book);
}

int main(void)
{
    zobrist_init();
    attack_init();
    performance = test_data_path("books/performance.bin", performance_buf, sizeof performance_buf);
    snprintf(tmpdir, sizeof tmpdir, "%s", "/tmp/hexe-book-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        printf("FAIL cannot make a temporary directory: %s\n", strerror(errno));
        return 1;
    }
    test_published_keys();
    test_reference();
    test_make_book();
    test_other_books();
    test_conversion();
    test_bad_files();
    test_local_disorder();
    test_selection();
    test_default_path();
    test_timing();
    rmdir(tmpdir);
    return check_report("test_book");
}
