/* engine.h - starting, stopping and answering searches: what the front ends
 * (UCI, bench, console play, datagen) call. A search takes its position,
 * limits and parameters here; the engine copies them for the search threads. */
#ifndef HEXE_ENGINE_H
#define HEXE_ENGINE_H

#include "searchlimits.h"

/* The search tables and the first search thread; once, at start-up. */
void engine_init(void);

/* Search control, called from the host's thread. engine_go returns at once;
 * the search prints `bestmove` itself when it ends (for `infinite` and
 * `ponder` only after engine_stop or engine_ponderhit). */
void engine_go(const Position *root, const Limits *lim, const SearchParams *params);
void engine_stop(void);      /* returns once bestmove has been printed */
void engine_ponderhit(void);
/* go perft: the move counts of the root's moves, printed by the search
 * thread like a search (stop and quit end it; no bestmove). */
void engine_perft(const Position *root, int depth);
void engine_wait(void);      /* waits until the running search has ended */
bool engine_running(void);
bool engine_unbounded(void); /* running as infinite or ponder */
void engine_set_threads(int n); /* Threads: the helper threads are made now, not at go */
int engine_threads(void);    /* the search threads there are */
void engine_clear(void);     /* ucinewgame: TT, histories, evaluations */
void engine_forget_evals(void); /* another evaluation: stored and cached evaluations and corrections go */
void engine_quit(void);      /* stops any search and frees the threads */

/* A whole search in the calling thread, one search thread, no `bestmove`
 * line (info lines only when !quiet): for bench, self-play and console play.
 * Honours the limits' depth, nodes and movetime and the strength parameters. */
typedef struct {
    Move best, ponder;
    int score;     /* side to move's view */
    int depth;     /* last completed iteration */
    uint64_t nodes;
} SearchResult;
SearchResult engine_search(const Position *pos, const Limits *lim, const SearchParams *params, bool quiet);

#endif
