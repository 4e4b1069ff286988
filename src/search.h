/* search.h - the search itself: iterative deepening with aspiration windows
 * over a principal variation search and quiescence, run by every search
 * thread (Lazy SMP: they share the transposition table). The engine
 * (engine.h) sets the threads up, starts them and answers the host. */
#ifndef HEXE_SEARCH_H
#define HEXE_SEARCH_H

#include "worker.h"

/* The reduction table; once, before the first search. */
void search_init_tables(void);

/* Iterative deepening from the thread's root moves until a limit in
 * search_state is reached or the search is stopped. The main thread (id 0)
 * reports each iteration and wakes the helpers after depth 1. */
void search_iterate(Thread *t);

/* One `info depth ... pv ...` line for root move rm, shown as PV number idx
 * (0-based) with this score and bound. */
void search_report(const Thread *t, int depth, int idx, int score, bool lower, bool upper, const RootMove *rm);

/* The line to show for root move rm once the search is over: rm itself when
 * its score is exact, else the same move's exact line from the last completed
 * iteration, else rm with its bound (a move that failed high or low in an
 * iteration the stop cut short, with no exact score before). NULL when rm
 * has no score at all. */
const RootMove *search_final_line(const Thread *t, const RootMove *rm);

#endif
