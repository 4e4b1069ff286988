/* search.h - limits of a search, the search threads, and what the search reports. */
#ifndef HEXE_SEARCH_H
#define HEXE_SEARCH_H

#include <stdatomic.h>

#include "position.h"
#include "tb.h"

#define INF 32000
#define MATE 31000
#define MATE_IN_MAX (MATE - MAX_PLY)
/* Tablebase scores lie between TB_WIN_BOUND (18872) and 20000: see tb.h. */

/* What `go` asked for. Times are in milliseconds; NO_TIME means "not given"
 * (a clock may be given as zero or negative). */
#define NO_TIME INT64_MIN
/* Clocks, increments and movetime are kept within +-CLOCK_LIMIT ms (about
 * 35,000 years): any 64-bit value `go` sends is clamped into it, so that it
 * never meets NO_TIME and the time arithmetic cannot overflow. */
#define CLOCK_LIMIT ((int64_t)1 << 50)
static inline int64_t clamp_clock(int64_t v) { return v < -CLOCK_LIMIT ? -CLOCK_LIMIT : v > CLOCK_LIMIT ? CLOCK_LIMIT : v; }
typedef struct {
    int64_t time[2], inc[2];
    int movestogo;
    int depth;
    uint64_t nodes;
    uint64_t soft_nodes; /* no new iteration once this many nodes are spent (datagen) */
    int mate;
    int64_t movetime;
    bool infinite, ponder;
    int nsearchmoves;
    Move searchmoves[MAX_MOVES];
    Move book_move; /* play this book move without searching */
} Limits;

void limits_init(Limits *lim);

/* Engine-wide settings that the UCI options change (only while idle). */
typedef struct {
    int threads;
    int multipv;
    int move_overhead;
    bool ponder;
    bool show_wdl;
    bool analyse_mode;
    bool chess960;
    bool limit_strength;
    int elo;
    int skill; /* 0..20; 20 is full strength */
    int syzygy_probe_depth;
    int syzygy_probe_limit;
    bool syzygy_50_move_rule;
} SearchOptions;

extern SearchOptions search_options;

/* Most pieces probed: SyzygyProbeLimit, capped at the largest table found. */
int tb_probe_limit(void);

/* Search control, called from the UCI thread. search_start returns at once;
 * the search prints `bestmove` itself when it ends (for `infinite` and `ponder`
 * only after search_stop or search_ponderhit). */
void search_init(void);
void search_start(const Position *root, const Limits *lim);
void search_stop(void);      /* returns once bestmove has been printed */
void search_ponderhit(void);
/* go perft: the move counts of the root's moves, printed by the search
 * thread like a search (stop and quit end it; no bestmove). */
void search_start_perft(const Position *root, int depth);
void search_wait(void);      /* waits until the running search has ended */
bool search_running(void);
bool search_is_unbounded(void); /* running as infinite or ponder */
void search_clear(void);     /* ucinewgame: TT, histories, evaluations */
void search_forget_evals(void); /* another evaluation: stored and cached evaluations and corrections go */
void search_quit(void);      /* frees the threads */
void search_set_threads(int n); /* Threads: the helper threads are made now, not at go */

/* A whole search in the calling thread, one search thread, no `bestmove`
 * line (info lines only when !quiet): for bench, self-play and console play.
 * Honours the limits' depth, nodes and movetime and the strength options. */
typedef struct {
    Move best, ponder;
    int score;     /* side to move's view */
    int depth;     /* last completed iteration */
    uint64_t nodes;
} SearchResult;
SearchResult search_sync(const Position *pos, const Limits *lim, bool quiet);

#endif
