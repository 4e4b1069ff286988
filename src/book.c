/* book.c - the Polyglot opening book reader: validation on open, binary
 * search by key on probe, conversion of book moves to legal Hexe moves, and
 * the choice of one book move.
 *
 * The format (Debian polyglot's /usr/share/doc/polyglot/book_format.html):
 * 16-byte entries, every field big-endian - key u64, move u16, weight u16,
 * learn u32 - sorted by key, several entries per key. Move bits: to file 0-2,
 * to row 3-5, from file 6-8, from row 9-11, promotion 12-14 (0 none, 1
 * knight .. 4 queen); castling is king-takes-rook (e1h1), as in Hexe. */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include "book.h"
#include "files.h"
#include "movegen.h"
#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ENTRY_SIZE 16
#define SORT_SAMPLES 64 /* adjacent pairs checked on open */
#define SCAN_CHUNK 128  /* entries read at once to end a search and collect a run */

struct Book {
    int fd;
    uint64_t n; /* entries */
};

typedef struct {
    uint64_t key;
    uint16_t move, weight;
    uint32_t learn;
} RawEntry;

static uint64_t get_be(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v = v << 8 | p[i];
    return v;
}

static void decode(const unsigned char *p, RawEntry *e)
{
    e->key = get_be(p, 8);
    e->move = (uint16_t)get_be(p + 8, 2);
    e->weight = (uint16_t)get_be(p + 10, 2);
    e->learn = (uint32_t)get_be(p + 12, 4);
}

/* Reads count entries from index first on; false on an I/O error or short file. */
static bool read_entries(const Book *book, uint64_t first, int count, RawEntry *out)
{
    unsigned char buf[SCAN_CHUNK * ENTRY_SIZE];
    size_t want = (size_t)count * ENTRY_SIZE, got = 0;
    ASSERT(count > 0 && count <= SCAN_CHUNK);
    while (got < want) {
        long long r = hexe_pread(book->fd, buf + got, want - got, (long long)(first * ENTRY_SIZE + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        got += (size_t)r;
    }
    for (int i = 0; i < count; i++)
        decode(buf + (size_t)i * ENTRY_SIZE, &out[i]);
    return true;
}

static Book *fail(Book *book, char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    book_close(book);
    return NULL;
}

/* Cheap sortedness check: the first and last entries, SORT_SAMPLES evenly
 * spaced adjacent pairs, and the chain of all sampled keys (small books are
 * checked whole). When unsorted, bad[0] < bad[1] are two entries whose keys
 * are out of order. Returns false on a read error. */
static bool check_sorted(const Book *book, bool *sorted, uint64_t bad[2])
{
    RawEntry pair[2], last;
    uint64_t n = book->n;
    *sorted = true;
    if (n < 2)
        return true;
    if (!read_entries(book, 0, 1, pair) || !read_entries(book, n - 1, 1, &last))
        return false;
    uint64_t prev = pair[0].key, prev_index = 0; /* the last key checked, and where */
    if (prev > last.key) {
        *sorted = false;
        bad[0] = 0;
        bad[1] = n - 1;
        return true;
    }
    bool whole = n <= 2 * SORT_SAMPLES;
    uint64_t pairs = whole ? n - 1 : SORT_SAMPLES;
    for (uint64_t i = 0; i < pairs; i++) {
        uint64_t idx = whole ? i : (n - 2) * i / (SORT_SAMPLES - 1);
        if (!read_entries(book, idx, 2, pair))
            return false;
        if (pair[0].key < prev || pair[1].key < pair[0].key) {
            *sorted = false;
            bad[0] = pair[0].key < prev ? prev_index : idx;
            bad[1] = pair[0].key < prev ? idx : idx + 1;
            return true;
        }
        prev = pair[1].key;
        prev_index = idx + 1;
    }
    return true;
}

Book *book_open(const char *path, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!path || !*path)
        return fail(NULL, err, errlen, "no book file given");
    Book *book = malloc(sizeof *book);
    if (!book)
        return fail(NULL, err, errlen, "out of memory opening book '%s'", path);
    /* Anything but a regular file is refused before it is opened (a FIFO
     * would block open() until a writer comes), and the open itself does
     * not block should the file change in between. */
    struct stat st;
    book->fd = -1;
    book->n = 0;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return fail(book, err, errlen, "cannot read book '%s': not a regular file (%s); not opened", path,
                    S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                    : S_ISSOCK(st.st_mode) ? "a socket" : "not a plain file");
    book->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_BINARY);
    if (book->fd < 0) {
        int e = errno;
        return fail(book, err, errlen, "cannot open book '%s': %s", path,
                    e == ENOENT ? "no such file" : strerror(e));
    }
    if (fstat(book->fd, &st) != 0)
        return fail(book, err, errlen, "cannot read book '%s': %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return fail(book, err, errlen, "cannot read book '%s': it is a directory", path);
    if (!S_ISREG(st.st_mode))
        return fail(book, err, errlen, "cannot read book '%s': not a regular file", path);
    fd_set_blocking(book->fd);
    if (st.st_size == 0)
        return fail(book, err, errlen, "book '%s' is empty", path);
    if (st.st_size % ENTRY_SIZE)
        return fail(book, err, errlen,
                    "book '%s' is %lld bytes, not a multiple of 16: truncated, or not a Polyglot book",
                    path, (long long)st.st_size);
    book->n = (uint64_t)st.st_size / ENTRY_SIZE;
    bool sorted;
    uint64_t bad[2] = {0, 0};
    errno = 0;
    if (!check_sorted(book, &sorted, bad))
        return fail(book, err, errlen, "cannot read book '%s': %s", path,
                    errno ? strerror(errno) : "unexpected end of file");
    if (!sorted)
        return fail(book, err, errlen,
                    "book '%s' is not sorted by key (entries %llu and %llu out of order): "
                    "not a Polyglot book, or a damaged one",
                    path, (unsigned long long)bad[0], (unsigned long long)bad[1]);
    return book;
}

void book_close(Book *book)
{
    if (!book)
        return;
    if (book->fd >= 0)
        close(book->fd);
    free(book);
}

uint64_t book_size(const Book *book)
{
    return book ? book->n : 0;
}

const char *book_strerror(int code)
{
    switch (code) {
    case BOOK_ERR_READ:
        return "reading the book failed";
    case BOOK_ERR_UNSORTED:
        return "the book is not sorted by key (found while probing)";
    default:
        return code < 0 ? "unknown book error" : "no error";
    }
}

int book_selection_parse(const char *name)
{
    static const char *const names[] = {"best", "weighted", "uniform"};
    for (int i = 0; name && i < 3; i++) {
        const char *a = name, *b = names[i];
        while (*a && (*a | 0x20) == *b)
            a++, b++;
        if (!*a && !*b)
            return i;
    }
    return -1;
}

/* The legal move a Polyglot move names in pos, or MOVE_NONE. Castling is
 * king-takes-rook in both encodings, so it needs no special case. */
static Move convert(const MoveList *legal, uint16_t pm)
{
    int to = SQ(pm & 7, (pm >> 3) & 7);
    int from = SQ((pm >> 6) & 7, (pm >> 9) & 7);
    int promo = (pm >> 12) & 7; /* 0 none, 1 knight .. 4 queen */
    if (promo > 4)
        return MOVE_NONE;
    for (int i = 0; i < legal->count; i++) {
        Move m = legal->moves[i];
        if (MOVE_FROM(m) != from || MOVE_TO(m) != to)
            continue;
        if (MOVE_KIND(m) == MK_PROMO ? promo && MOVE_PROMO(m) == KNIGHT + promo - 1 : !promo)
            return m;
    }
    return MOVE_NONE;
}

int book_probe(const Book *book, const Position *pos, BookEntry *out, int max)
{
    if (!book || !pos)
        return 0;
    const uint64_t key = pos->key;

    /* 1. Binary search, one entry per read, until at most SCAN_CHUNK entries
     * remain: the first entry with a key >= key is then in [lo, hi]. Every
     * key read must lie between those already read at lo - 1 and at hi. */
    uint64_t lo = 0, hi = book->n, lokey = 0, hikey = UINT64_MAX;
    RawEntry e[SCAN_CHUNK];
    while (hi - lo > SCAN_CHUNK) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (!read_entries(book, mid, 1, e))
            return BOOK_ERR_READ;
        if (e[0].key < lokey || e[0].key > hikey)
            return BOOK_ERR_UNSORTED;
        if (e[0].key < key) {
            lo = mid + 1;
            lokey = e[0].key;
        } else {
            hi = mid;
            hikey = e[0].key;
        }
    }

    /* 2. Read on from lo in chunks: skip the smaller keys, collect the run
     * of this key. Keys must not decrease, nor pass hikey before index hi. */
    MoveList legal;
    bool generated = false;
    int stored = 0;
    uint64_t prev = lokey;
    for (uint64_t i = lo; i < book->n;) {
        int count = book->n - i < SCAN_CHUNK ? (int)(book->n - i) : SCAN_CHUNK;
        if (!read_entries(book, i, count, e))
            return BOOK_ERR_READ;
        for (int j = 0; j < count; j++) {
            if (e[j].key < prev || (i + (uint64_t)j < hi && e[j].key > hikey))
                return BOOK_ERR_UNSORTED;
            prev = e[j].key;
            if (e[j].key < key)
                continue;
            if (e[j].key > key)
                return stored;
            if (!generated) {
                gen_legal(pos, &legal);
                generated = true;
            }
            Move m = convert(&legal, e[j].move);
            if (m != MOVE_NONE && stored < max)
                out[stored++] = (BookEntry){m, e[j].weight, e[j].learn};
        }
        i += (uint64_t)count;
    }
    return stored;
}

/* splitmix64: any seed, 0 included, gives a good sequence. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0, without modulo bias. */
static uint64_t random_below(uint64_t *state, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n, r;
    do
        r = next_random(state);
    while (r >= limit);
    return r % n;
}

Move book_choose(const BookEntry *entries, int n, int selection, int min_weight,
                 uint64_t *rng_state)
{
    uint64_t local = 0, *rng = rng_state ? rng_state : &local;
    int min_w = min_weight < 1 ? 1 : min_weight;
    int candidates = 0, best = 0, nbest = 0;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        int w = entries[i].weight;
        if (w < min_w)
            continue;
        candidates++;
        total += (uint64_t)w;
        if (w > best) {
            best = w;
            nbest = 0;
        }
        nbest += w == best;
    }
    if (!candidates)
        return MOVE_NONE;

    uint64_t r;
    switch (selection) {
    case BOOK_BEST:
        r = random_below(rng, (uint64_t)nbest);
        for (int i = 0; i < n; i++)
            if (entries[i].weight == best && r-- == 0)
                return entries[i].move;
        break;
    case BOOK_WEIGHTED:
        r = random_below(rng, total);
        for (int i = 0; i < n; i++) {
            if (entries[i].weight < min_w)
                continue;
            if (r < entries[i].weight)
                return entries[i].move;
            r -= entries[i].weight;
        }
        break;
    case BOOK_UNIFORM:
        r = random_below(rng, (uint64_t)candidates);
        for (int i = 0; i < n; i++)
            if (entries[i].weight >= min_w && r-- == 0)
                return entries[i].move;
        break;
    default:
        break;
    }
    return MOVE_NONE;
}

Move book_pick(const Book *book, const Position *pos, int selection, int min_weight,
               uint64_t *rng_state)
{
    BookEntry entries[MAX_MOVES];
    int n = book_probe(book, pos, entries, MAX_MOVES);
    return n > 0 ? book_choose(entries, n, selection, min_weight, rng_state) : MOVE_NONE;
}

/* ---- The engine's book ---- */

static Book *engine_book;
static uint64_t engine_rng;

BookPolicy book_policy_default(void)
{
    return (BookPolicy){.own = true, .depth = 255, .selection = BOOK_WEIGHTED, .min_weight = 1};
}

bool book_use(const char *path, char *msg, size_t n)
{
    book_release();
    if (!engine_rng) /* different games from one book in different runs */
        engine_rng = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)getpid();
    if (!path[0]) {
        snprintf(msg, n, "no opening book");
        return true;
    }
    char err[256], full[1200];
    path = beside_exe(path, full, sizeof full);
    engine_book = book_open(path, err, sizeof err);
    if (!engine_book) {
        snprintf(msg, n, "book '%s' not used: %s; Hexe searches every move", path, err);
        return false;
    }
    snprintf(msg, n, "book '%s' opened: %llu entries", path, (unsigned long long)book_size(engine_book));
    return true;
}

bool book_in_use(void) { return engine_book != NULL; }

void book_release(void)
{
    book_close(engine_book);
    engine_book = NULL;
}

Move book_move_for(const Position *pos, const BookPolicy *policy, const Move *allowed, int nallowed, char *msg,
                   size_t n)
{
    msg[0] = '\0';
    if (!policy->own || !engine_book || pos->fullmove > policy->depth)
        return MOVE_NONE;
    BookEntry e[MAX_MOVES];
    int count = book_probe(engine_book, pos, e, MAX_MOVES);
    if (count < 0) {
        snprintf(msg, n, "book not used: %s", book_strerror(count));
        return MOVE_NONE;
    }
    if (nallowed) { /* each entry kept at most once, so k <= i */
        int k = 0;
        for (int i = 0; i < count; i++)
            for (int j = 0; j < nallowed; j++)
                if (e[i].move == allowed[j]) {
                    e[k++] = e[i];
                    break;
                }
        count = k;
    }
    return book_choose(e, count, policy->selection, policy->min_weight, &engine_rng);
}
