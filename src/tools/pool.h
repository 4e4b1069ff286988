/* tools/pool.h - the pool: one folder outside the repository where `hexe
 * datagen` appends its games by default, one file per network and seed,
 * kept from run to run and from network to network; `hexe pool` sums it up
 * (docs/nnue.md, "The pool").
 *
 * A file is named n<nodes>-<tag>-s<seed>.hxg (games.h), where the tag is
 * the first 12 hex digits of the FNV-1a hash (64 bits) of the network that
 * played, as a network file holds it, or the evaluator's name when no
 * network played. Beside it, <name>.cmd holds one line per run: the command
 * that plays the same games again, then "# wrote G games, P positions; ..."
 * with the date, the build and the network. */
#ifndef HEXE_POOL_H
#define HEXE_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "../eval.h"

/* The pool's folder in buf: $HEXE_DATA, else $XDG_DATA_HOME/hexe/pool, else
 * $HOME/.local/share/hexe/pool; *from names the variable it came from.
 * NULL when none of them is set. */
const char *pool_dir(char *buf, size_t n, const char **from);
/* Makes the folder and its parents; false (errno set) when it cannot. */
bool pool_mkdir(const char *dir);
/* Who plays: the tag of c's network, or its evaluator's name (13 bytes or
 * more in buf). */
const char *pool_tag(const EvalChoice *c, char *buf, size_t n);

/* The pool file of games played by c at `nodes` nodes a move with `seed`,
 * and its .cmd (buffers of n bytes), the folder made if need be; tag gets
 * pool_tag's (64 bytes). False, saying why on stderr, when there is no
 * pool folder to be had. */
bool pool_file(const EvalChoice *c, int nodes, int seed, char *path, char *cmd_path, size_t n, char *tag);

/* What one datagen run played into a pool file. */
typedef struct {
    int nodes, seed;
    long long games, written, positions; /* played, written, training positions */
    const char *tag, *net_name;          /* the network's tag and its file ("" for none) */
} PoolRun;

/* Appends to the .cmd file the command that plays the run's games again
 * (datagen's arguments argv[1..argc-1] with --nodes and --seed named and
 * --games the games played), then "# wrote G games, P positions; " the
 * date, the build (version and commit) and the network. */
void pool_record(const char *cmd_path, int argc, char **argv, const PoolRun *run);

/* `hexe pool`. */
int pool_main(int argc, char **argv);

#endif
