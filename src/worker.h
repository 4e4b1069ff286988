/* worker.h - the search threads: what each one keeps (its position, root
 * moves, stack and history tables), the state of the search they share, and
 * the pool that holds them. The search runs in these threads (search.c); the
 * engine sets them up, starts and stops them (engine.c). */
#ifndef HEXE_WORKER_H
#define HEXE_WORKER_H

#include <pthread.h>
#include <stdatomic.h>

#include "searchlimits.h"
#include "timeman.h"

typedef struct {
    Move move;
    int score, prev_score;
    int seldepth;
    uint64_t nodes; /* spent below this move, all iterations (time management) */
    bool bound_lower, bound_upper;
    int pvlen;
    Move pv[MAX_PLY + 1];
} RootMove;

typedef struct {
    int eval;
    Move move;
    int moved_piece;
    Move excluded; /* the move a singular-extension search leaves out */
    int double_ext; /* double extensions on the path to this node */
    uint64_t threats; /* squares the side not to move attacks (set when the node's moves are scored) */
} Stack;

/* Correction history: how far the search result of a position has come out
 * from its static evaluation, averaged over positions with the same pawns,
 * with the same pieces (not pawns) of one colour, with the same knights and
 * bishops, with the same rooks, queens and kings, and over positions reached
 * by the same move (piece and destination). */
#define CORR_SIZE 16384
#define CORR_GRAIN 256
#define CORR_LIMIT (64 * CORR_GRAIN)
enum { CORR_PAWN, CORR_WHITE, CORR_BLACK, CORR_MINOR, CORR_MAJOR, NCORR_KEYED }; /* the keyed tables */
typedef struct {
    /* [table][side to move][its key's low bits], in 1/CORR_GRAIN cp, keyed by
     * the pawns, White's and Black's other pieces, both sides' knights and
     * bishops, and both sides' rooks, queens and kings (pos->keys) */
    int16_t keyed[NCORR_KEYED][2][CORR_SIZE];
    int16_t cont[16 * 64]; /* by the move that led here: [its piece * 64 + its to] */
} Corrections;
/* Static evaluations of positions met lately (their TT entry gone or never
 * made): about a fifth of the calls in the bench repeat one of these. */
#define EVAL_CACHE_SIZE 65536

typedef struct Thread {
    int id;
    pthread_t handle;
    bool started; /* a helper whose pthread_create succeeded, to be joined */
    unsigned generation; /* a helper: the last search it was woken for */
    Position pos;
    _Atomic uint64_t nodes, tbhits;
    int seldepth;
    int root_depth, completed_depth;
    int pv_idx;
    int nroot;
    RootMove root[MAX_MOVES];
    int ndone;             /* lines in done[] */
    RootMove done[MAX_MOVES]; /* the last completed iteration's exact lines, best first */
    Stack stack[MAX_PLY + 4];
    Move killers[MAX_PLY + 2][2];
    Move counter[16][128];
    int16_t history[2][2][2][64][64]; /* main history: [side][from attacked][to attacked][from][to] */
    int16_t cont[16][64][16][64]; /* continuation history: [earlier piece][its to][piece][to] */
    int16_t capt[16][64][8];      /* capture history: [piece][to][captured type] */
    Corrections corr;             /* static-evaluation correction histories */
    uint64_t eval_cache[EVAL_CACHE_SIZE]; /* key's upper 48 bits | the evaluation (16 bits); 0: empty */
    EvalContext *eval; /* the evaluator this search uses, with the thread's own accumulators and caches */
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pvlen[MAX_PLY + 1];
} Thread;

/* The search under way, as the engine set it up when it started: every
 * thread reads it; only the engine writes it between searches (the flags
 * excepted). */
typedef struct {
    Limits limits;
    SearchParams params;
    TimePlan plan;
    _Atomic int64_t start_time;
    atomic_bool stop;       /* the search threads end (asked, or a limit reached) */
    atomic_bool stop_asked; /* the host sent stop (or quit) */
    atomic_bool pondering;
    /* go depth N: the first helper to complete depth N (-1: none yet). Its
     * answer is as deep as asked, so the search ends and it is reported. */
    atomic_int depth_finisher;
    bool quiet;             /* no info lines (bench, play, datagen) */
    TbRootResult tb_root;   /* the root's tablebase verdict for this search */
    bool tb_root_ok;
} SearchState;

extern SearchState search_state;
extern Thread **threads;
extern int nthreads;

/* Whether the search under way has been told to end. */
static inline bool search_stopped(void) { return atomic_load_explicit(&search_state.stop, memory_order_relaxed); }

static inline void count_node(_Atomic uint64_t *c)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1, memory_order_relaxed);
}
uint64_t total_nodes(void);
uint64_t total_tbhits(void);

/* The pool. pool_init names what a helper does when woken (once, before
 * anything else); pool_resize makes or ends threads (only between searches;
 * thread 0, the main thread, is run by the engine, not by the pool) and gives
 * back to the system the memory of the threads it ends. */
void pool_init(void (*work)(Thread *));
void pool_resize(int n);
void pool_release(void); /* wakes the helpers for this search (once per search) */
void pool_wait(void);    /* waits until every helper woken for this search has stopped */
void pool_free(void);    /* ends the helpers and frees every thread */

#endif
