/* tt.c - the transposition table. Entries pack move, score, static eval, depth,
 * bound and age into 64 bits; the stored key is key ^ data, so a torn write
 * between threads reads back as a miss. */
#include "tt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/mman.h>
#endif

#include "platform.h"

typedef struct {
    _Atomic uint64_t keyx;
    _Atomic uint64_t data;
} Entry;

#define BUCKET 4
typedef struct {
    Entry e[BUCKET];
} Bucket;

static Bucket *table;
static size_t nbuckets;
static size_t table_mb;
static uint8_t age; /* 6 bits */

/* data: move 16 | score 16 | eval 16 | depth 8 | bound 2 + age 6 */
static inline uint64_t pack(Move m, int score, int eval, int depth, int bound)
{
    return (uint64_t)m | (uint64_t)(uint16_t)(int16_t)score << 16 | (uint64_t)(uint16_t)(int16_t)eval << 32 |
           (uint64_t)(uint8_t)depth << 48 | (uint64_t)(bound | age << 2) << 56;
}

static inline int d_depth(uint64_t d) { return (uint8_t)(d >> 48); }
static inline int d_age(uint64_t d) { return (int)(d >> 58); }

/* A large table is asked for in 2 MB pages (Linux's transparent huge
 * pages, where madvise mode allows them): 512 times fewer page faults
 * when it is first cleared, and fewer TLB misses in the search. */
#define HUGE_PAGE ((size_t)2 << 20)

bool tt_resize(size_t mb, int nthreads)
{
    if (mb < 1)
        mb = 1;
    size_t bytes = mb * 1024 * 1024;
    bool huge = bytes >= HUGE_PAGE && bytes % HUGE_PAGE == 0;
    Bucket *t = hexe_aligned_alloc(huge ? HUGE_PAGE : 64, bytes);
    if (!t)
        return false;
#ifdef MADV_HUGEPAGE
    if (huge)
        madvise(t, bytes, MADV_HUGEPAGE); /* a hint: without it, 4 KB pages */
#endif
    hexe_aligned_free(table);
    table = t;
    nbuckets = bytes / sizeof(Bucket);
    table_mb = mb;
    tt_clear(nthreads);
    return true;
}

size_t tt_size_mb(void) { return table_mb; }

/* Clearing (and first touching) a large table is shared out among threads:
 * each clears a slice. Tables under 64 MB are cleared by the caller alone. */
typedef struct {
    char *from;
    size_t bytes;
} Slice;

static void *clear_slice(void *arg)
{
    Slice *s = arg;
    memset(s->from, 0, s->bytes);
    return NULL;
}

void tt_clear(int nthreads)
{
    size_t bytes = nbuckets * sizeof(Bucket);
    age = 0;
    if (nthreads > 64)
        nthreads = 64;
    if (nthreads < 2 || bytes < ((size_t)64 << 20)) {
        memset(table, 0, bytes);
        return;
    }
    Slice slices[64];
    pthread_t handles[64];
    bool started[64] = {false};
    size_t step = (nbuckets + (size_t)nthreads - 1) / (size_t)nthreads * sizeof(Bucket);
    for (int i = 0; i < nthreads; i++) {
        size_t from = (size_t)i * step;
        slices[i].from = (char *)table + (from < bytes ? from : bytes);
        slices[i].bytes = from >= bytes ? 0 : bytes - from < step ? bytes - from : step;
    }
    for (int i = 1; i < nthreads; i++)
        started[i] = pthread_create(&handles[i], NULL, clear_slice, &slices[i]) == 0;
    clear_slice(&slices[0]);
    for (int i = 1; i < nthreads; i++) {
        if (started[i])
            pthread_join(handles[i], NULL);
        else
            clear_slice(&slices[i]); /* no thread to spare: this one here */
    }
}

void tt_free(void)
{
    hexe_aligned_free(table);
    table = NULL;
    nbuckets = 0;
}

void tt_new_search(void) { age = (age + 1) & 63; }

static inline Bucket *bucket_of(uint64_t key)
{
    return &table[(size_t)(((unsigned __int128)key * nbuckets) >> 64)];
}

void tt_prefetch(uint64_t key) { __builtin_prefetch(bucket_of(key)); }

bool tt_probe(uint64_t key, TTHit *hit)
{
    Bucket *b = bucket_of(key);
    for (int i = 0; i < BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t k = atomic_load_explicit(&b->e[i].keyx, memory_order_relaxed);
        if ((k ^ d) != key || !d)
            continue;
        hit->move = (Move)d;
        hit->score = (int16_t)(d >> 16);
        hit->eval = (int16_t)(d >> 32);
        hit->depth = d_depth(d);
        hit->bound = (int)(d >> 56) & 3;
        return true;
    }
    return false;
}

void tt_store(uint64_t key, Move move, int score, int eval, int depth, int bound)
{
    Bucket *b = bucket_of(key);
    Entry *slot = &b->e[0];
    int worst = 1 << 30;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t k = atomic_load_explicit(&b->e[i].keyx, memory_order_relaxed);
        if ((k ^ d) == key && d) {
            /* Same position: keep the old move when there is no new one, and
             * keep deeper results unless this one is exact or the old is stale. */
            if (!move)
                move = (Move)d;
            if (bound != BOUND_EXACT && depth + 3 < d_depth(d) && d_age(d) == age)
                return;
            slot = &b->e[i];
            break;
        }
        /* Otherwise replace the shallowest, oldest entry. */
        int value = d ? d_depth(d) - 8 * ((age - d_age(d)) & 63) : -1000;
        if (value < worst) {
            worst = value;
            slot = &b->e[i];
        }
    }
    if (depth < 0)
        depth = 0;
    uint64_t d = pack(move, score, eval, depth, bound);
    atomic_store_explicit(&slot->data, d, memory_order_relaxed);
    atomic_store_explicit(&slot->keyx, key ^ d, memory_order_relaxed);
}

int tt_hashfull(void)
{
    int used = 0;
    size_t n = nbuckets < 250 ? nbuckets : 250;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < BUCKET; j++) {
            uint64_t d = atomic_load_explicit(&table[i].e[j].data, memory_order_relaxed);
            if (d && d_age(d) == age)
                used++;
        }
    return n ? (int)(used * 1000 / (n * BUCKET)) : 0;
}
