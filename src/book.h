/* book.h - Polyglot opening books: open and validate a book file, probe it
 * for a position's moves, and pick one of them.
 *
 * A book stays open (a file descriptor) while in use; probing is a binary
 * search by key with pread(), so a book is never loaded nor scanned whole.
 * Probing a Book from several threads at once is safe (it changes nothing).
 * The position key (pos->key) is the Polyglot key, so a probe is a lookup. */
#ifndef HEXE_BOOK_H
#define HEXE_BOOK_H

#include <stddef.h>

#include "position.h"

typedef struct Book Book;

/* One book entry of the probed position, its move made a legal Hexe Move
 * (castling as Hexe's king-takes-own-rook castle move). */
typedef struct {
    Move move;
    uint16_t weight;
    uint32_t learn;
} BookEntry;

/* Selection modes of book_pick() (and of the UCI option BookSelection). */
enum {
    BOOK_BEST,     /* random among the entries of the highest weight */
    BOOK_WEIGHTED, /* random in proportion to weight */
    BOOK_UNIFORM   /* every entry alike */
};

/* BOOK_BEST, BOOK_WEIGHTED or BOOK_UNIFORM for "best", "weighted" or
 * "uniform" (any case; the BookSelection combo's values), else -1. */
int book_selection_parse(const char *name);

/* Negative results of book_probe(). */
enum {
    BOOK_ERR_READ = -1,     /* reading the file failed (I/O error, file shrank) */
    BOOK_ERR_UNSORTED = -2  /* the binary search met keys out of order */
};

/* The file name of the default book, in the folder "books" beside the executable. */
#define BOOK_DEFAULT_NAME "books/book.bin"

/* Opens and validates a Polyglot book. On failure returns NULL and err (if
 * not NULL) says why: missing or unreadable file, not a regular file, empty,
 * size not a multiple of 16 bytes, entries not sorted by key (checked on the
 * first and last entries and on 64 evenly spaced samples with their
 * neighbours). */
Book *book_open(const char *path, char *err, size_t errlen);
void book_close(Book *book);              /* NULL is fine */
uint64_t book_size(const Book *book);     /* number of entries */

/* The entries for pos (in book order) whose moves are legal in pos; illegal
 * ones are dropped. Stores at most max of them in out and returns how many it
 * stored, or BOOK_ERR_READ / BOOK_ERR_UNSORTED. */
int book_probe(const Book *book, const Position *pos, BookEntry *out, int max);
const char *book_strerror(int code);      /* text for a negative book_probe() result */

/* Chooses among n entries: only those of weight >= min_weight (and never one
 * of weight 0, Polyglot's "known but not to be played") take part, then
 * selection (BOOK_BEST, BOOK_WEIGHTED, BOOK_UNIFORM) decides. rng_state is the
 * caller's random state (any value, 0 included), advanced on each call.
 * Returns MOVE_NONE when no entry qualifies. */
Move book_choose(const BookEntry *entries, int n, int selection, int min_weight,
                 uint64_t *rng_state);

/* book_probe() then book_choose(): a book move for pos, or MOVE_NONE (no
 * entry, none qualifies, or a probe error). */
Move book_pick(const Book *book, const Position *pos, int selection, int min_weight,
               uint64_t *rng_state);

/* ---- The engine's book ---- */

/* How the engine plays from its book: the options OwnBook, BookDepth,
 * BookSelection and BookMinWeight. */
typedef struct {
    bool own;       /* play from the book at all */
    int depth;      /* up to this move number */
    int selection;  /* BOOK_BEST, BOOK_WEIGHTED or BOOK_UNIFORM */
    int min_weight; /* entries below this weight are never played */
} BookPolicy;

/* On (when a book is in use), every move number, weighted, weight >= 1. */
BookPolicy book_policy_default(void);

/* The book the engine plays from, one at a time: path (relative paths such
 * as BOOK_DEFAULT_NAME are found beside the executable first), or "" for
 * none. msg gets a line for the host: "book '...' opened: N entries", or why
 * not. On failure the engine has no book (false). */
bool book_use(const char *path, char *msg, size_t n);
bool book_in_use(void);
void book_release(void);

/* The move to play from the engine's book in pos, or MOVE_NONE: the policy
 * is off, no book, past its depth, or no entry qualifies. Only moves among
 * allowed (nallowed > 0; e.g. go searchmoves) take part. A failed probe
 * leaves a line in msg (else msg[0] is 0). */
Move book_move_for(const Position *pos, const BookPolicy *policy, const Move *allowed, int nallowed, char *msg,
                   size_t n);

#endif
