/* san.h - Standard Algebraic Notation (SAN): writing a legal move as "Nbd2",
 * "exd5", "e8=Q+", "O-O-O#", and reading it back, leniently. */
#ifndef HEXE_SAN_H
#define HEXE_SAN_H

#include "position.h"

#define SAN_MAX 12 /* room for any SAN and its terminator (the longest, "Qh4xe1#", has 7) */

/* Writes the legal move m in SAN into buf (at least SAN_MAX bytes): piece
 * letter, the least disambiguation (file, else rank, else both), x for a
 * capture, =Q for a promotion, O-O / O-O-O for castling (Chess960 too), and
 * + or # when the move gives check or mate. Returns buf. */
char *move_to_san(const Position *pos, Move m, char *buf);

typedef enum {
    SAN_OK,        /* exactly one legal move matches */
    SAN_SYNTAX,    /* not SAN at all */
    SAN_ILLEGAL,   /* well formed, but no legal move matches */
    SAN_AMBIGUOUS  /* several legal moves match */
} SanStatus;

/* Reads SAN, leniently: "x" may be left out (not put in where nothing is
 * taken), "+", "#", "!", "?" and "e.p." are ignored, a promotion may be
 * written "e8=Q", "e8Q" or "e8q", castling "O-O", "0-0" or "o-o", and a pawn
 * capture "exd5" or "ed5". Piece letters are capitals, except that n, r, q
 * and k are also taken (they cannot be files); a lower-case b is the b-pawn,
 * or a bishop where no b-pawn move fits ("bc5": bxc5, else Bc5). *out gets the move
 * on SAN_OK; matches (may be NULL) gets every matching move (several on
 * SAN_AMBIGUOUS). */
SanStatus san_parse(const Position *pos, const char *s, Move *out, MoveList *matches);

/* The legal move that s names in SAN, or MOVE_NONE (also when ambiguous). */
Move parse_san(const Position *pos, const char *s);

#endif
