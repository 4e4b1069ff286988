/* net.h - a small learnt correction added to the `hexe` evaluation.
 *
 * Two halves of NET_HIDDEN units see the pieces (768 inputs: own/enemy x
 * piece type x square) from the side to move's and from the other side's
 * point of view; their clipped sums feed one output in centipawns:
 *
 *     correction = b2 + W2 . [crelu(b1 + W1 rows of the stm's view),
 *                             crelu(b1 + W1 rows of the other view)]
 *
 * It is fitted by `hexe nettrain` to what the hand-made terms get wrong on
 * Stockfish-labelled positions (docs/tuning.md); the integer weights live
 * in hexe_net.inc, written by that command. */
#ifndef HEXE_EVAL_NET_H
#define HEXE_EVAL_NET_H

#include "../position.h"

#define NET_INPUTS 768
#define NET_Q1 8192 /* first-layer weights and biases: units of 1/NET_Q1; an activation is clipped to [0, NET_Q1] */
#define NET_Q2 256  /* output weights: units of 1/NET_Q2 centipawn per full activation */

/* Input index of a piece of `colour`, `type` (PAWN..KING) on `sq` (0..63, a1 = 0), seen from `view`. */
static inline int net_input(int view, int colour, int type, int sq)
{
    return (colour == view ? 0 : 384) + (type - PAWN) * 64 + (sq ^ (view == BLACK ? 56 : 0));
}

/* The sums of the last position a thread evaluated (part of its HexeCache):
 * NULL when out of memory. */
typedef struct NetSums NetSums;
NetSums *net_sums_new(void);
void net_sums_free(NetSums *s);
/* Drops the kept sums: the next call sums from scratch. */
void net_sums_forget(NetSums *s);

/* The correction in centipawns, from the side to move's point of view. */
int net_correction(NetSums *s, const Position *pos);

#endif
