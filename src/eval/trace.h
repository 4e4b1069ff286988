/* trace.h - the common layout of the evaluators' explain output. */
#ifndef HEXE_EVAL_TRACE_H
#define HEXE_EVAL_TRACE_H

#include <stdio.h>

#include "../position.h"

/* One-column tables: term, White, Black, White - Black (centipawns). */
void trace_header(FILE *out, const char *title);
void trace_row(FILE *out, const char *term, int white, int black);
void trace_rule(FILE *out);

/* Tapered tables: each of White, Black and total as a middlegame/endgame pair. */
void trace_header2(FILE *out, const char *title);
void trace_row2(FILE *out, const char *term, int wmg, int weg, int bmg, int beg);
void trace_rule2(FILE *out);

/* The closing line: the score from White's view and from the side to move's view. */
void trace_final(FILE *out, const Position *pos, int white_score);

#endif
