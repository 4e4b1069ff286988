/* tools/games.h - whole self-play games as the network trainer's data: the
 * file `hexe datagen` writes by default, which the trainer filters into
 * training positions as it reads it (docs/nnue.md, "Data format").
 *
 * A file (little-endian): bytes 0-7 "HEXEGAME", bytes 8-11 the version (u32,
 * 1), then one record per game:
 *
 *   bytes 0-31     the start position as a 32-byte record (packed.h), except
 *                  bytes 24-25: the number of plies N (u16, 1..GAMES_MAX_PLIES)
 *                  byte  26:    the result for White: 0 loss, 1 draw, 2 win
 *   N x 4 bytes    each ply: the move played (u16, as types.h encodes a Move:
 *                  to 0-5, from 6-11, promotion 12-13, kind 14-15), then the
 *                  search's score of the position before it (int16,
 *                  centipawns from White's view)
 *   4 bytes        FNV-1a (32 bits) of the record's bytes before it
 *
 * A game is written in one write(), so a file is whole games followed at
 * most by one cut short by a kill; readers stop at the first game that is
 * cut short or damaged (checksum, position, an illegal move) and keep every
 * game before it. */
#ifndef HEXE_GAMES_H
#define HEXE_GAMES_H

#include <stdio.h>

#include "../position.h"
#include "packed.h"

#define GAMES_MAGIC "HEXEGAME"
#define GAMES_VERSION 1
#define GAMES_HEADER 12
#define GAMES_MAX_PLIES 1024 /* datagen ends a game at 400 */

typedef struct {
    PackedPos start; /* its bytes 24-26 are left as packed_encode wrote them */
    int result;      /* 0, 1, 2 for White */
    int plies;
    Move move[GAMES_MAX_PLIES];
    int16_t score[GAMES_MAX_PLIES]; /* the search's score before the move, White's view */
    /* Filled by games_next: the training positions of the game (games_keep),
     * each a 32-byte record with its score and the game's result. */
    int npos;
    PackedPos pos[GAMES_MAX_PLIES];
} Game;

/* The file header in out. */
void games_header(uint8_t out[GAMES_HEADER]);
/* The size of a game's record of n plies. */
static inline size_t games_record_size(int plies) { return 32 + 4 * (size_t)plies + 4; }
/* g's record in buf (games_record_size(g->plies) bytes); returns its size. */
size_t games_record(const Game *g, uint8_t *buf);

/* Whether a position becomes a training position: from ply skip_plies of
 * the game on, the side to move not in check, the move played quiet (no
 * capture, en passant or promotion), and its score (either side's view) no
 * mate or tablebase score. datagen's 32-byte records and the game reader
 * both keep exactly these. */
bool games_quiet_move(const Position *pos, Move played);
bool games_keep(const Position *pos, Move played, int score, int ply, int skip_plies);

/* Reads a game file game by game. */
typedef struct {
    FILE *f;
    const char *path;
    int skip_plies;    /* the filter of games_keep */
    bool check_only;   /* set after games_open: checksums only, no replay (no positions) */
    bool cut_short;    /* the bad game ends with the file: a write cut short by a kill */
    long long offset;  /* the byte where the next game starts */
    long long games;   /* games read so far */
    Position pos;      /* the replay */
    char err[256];     /* why the last call failed */
} GameReader;

/* False, with the reason in r->err, when the file cannot be read or is not a
 * game file of a version this build reads. */
bool games_open(GameReader *r, const char *path, int skip_plies);
/* The next game into *g, replayed and its training positions filled in:
 * 1; 0 at the end of the file; -1 when the next game is cut short or
 * damaged, r->err then saying "file X: game N at byte B: <why>; the N-1
 * games before it are kept". */
int games_next(GameReader *r, Game *g);
void games_close(GameReader *r);

/* Before a run appends to the game file open (read and write) as fd at
 * path: an empty one gets its header, a last game cut short by a kill is
 * cut off (said on stderr). *kept gets the size the file had (0 when it
 * was empty). False, saying why, when it is no game file or is damaged
 * before its end: games appended after a damaged one could not be read. */
bool games_repair(int fd, const char *path, long long *kept);

/* Whether the file starts as a game file does. */
bool games_is_game_file(const char *path);

#endif
