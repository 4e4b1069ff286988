/* tools/datagen.c - `hexe datagen`: fast self-play games from the balanced openings,
 * in one or more worker processes, writing each whole game (games.h: the
 * start, every move with the search's score, the result) for the network
 * trainer (train.c), by default into the pool (pool.h); or each game's quiet
 * positions with the game's result: as "<FEN> | <result>" lines (result from
 * White's point of view: 1.0, 0.5 or 0.0) for the Texel tuner (tune.c) and
 * the correction's trainer (nettrain.c), or as 32-byte records with the
 * search's score (packed.h). With --pgn it plays nothing and takes the
 * positions of the games of a PGN file instead (e.g. a match against
 * Stockfish, to be labelled by scripts/sf-label). */
#include "datagen.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../args.h"
#include "../engine.h"
#include "../eval.h"
#include "../fen.h"
#include "../movegen.h"
#include "../san.h"
#include "../syzygy/probe.h"
#include "../timeman.h"
#include "../tt.h"
#include "../eval/nnue.h"
#include "games.h"
#include "packed.h"
#include "pool.h"


enum { FORMAT_TEXT, FORMAT_BIN, FORMAT_GAMES };

typedef struct {
    const char *openings, *out, *pgn, *eval, *format, *evalfile;
    int games, nodes, hard_nodes, seed, skip_plies, random_plies, per_game, threads;
    int64_t target;   /* --positions: stop once this many were written (0: no target) */
    long long resumed; /* bytes already in the file: a second run with the same seed plays other games */
    int kind;          /* FORMAT_* */
    bool binary;       /* 32-byte records */
    SearchParams params; /* full strength, one thread, the default tablebase limits */
} DatagenArgs;

static const char usage[] =
            "usage: hexe datagen [--games N] [--positions N] [--threads N] [--nodes N] [--hard-nodes N]\n"
            "                    [--openings FILE.epd] [--out FILE] [--format games|bin|text] [--seed N]\n"
            "                    [--eval NAME] [--evalfile FILE] [--random-plies N] [--per-game N]\n"
            "                    [--skip-plies N]\n"
            "       hexe datagen --pgn FILE [--out FILE] [--skip-plies N] [--per-game N] [--seed N]\n"
            "Plays self-play games from random openings of --openings FILE (default: the\n"
            "start position) and appends them to --out FILE. Without --out the games go\n"
            "to the pool (`hexe pool` says where), into n<nodes>-<network>-s<seed>.hxg,\n"
            "with the command that re-creates them in the .cmd file beside it. Each move\n"
            "is a search of --nodes N nodes (default 5000; no new iteration after that\n"
            "many) capped at --hard-nodes (default 8 x N).\n"
            "--games N: stop after N games (default 1000 for text, 0 = no limit else);\n"
            "--positions N: stop once N training positions were written, with an ETA.\n"
            "--threads N: N games at once, one worker process each (default 1).\n"
            "--format: games writes each game whole, its moves with the search's scores\n"
            "(the network trainer's data, which it filters as it reads, docs/nnue.md);\n"
            "bin writes the training positions as 32-byte records with the search's score\n"
            "and the result; text writes '<FEN> | <result>' lines (the tuner's data).\n"
            "Default: bin when FILE ends in .bin, games for .hxg or no --out, text else.\n"
            "--eval NAME: the evaluator both sides play with; --evalfile FILE: the nnue\n"
            "evaluator with that network (default: the one built in).\n"
            "A run appends; Ctrl-C or a kill leaves a valid file (a record cut short is\n"
            "dropped by the next run).\n"
            "--random-plies N: random legal moves played after the opening (default 4; 8\n"
            "from the start position), so that games from the same opening differ; a game\n"
            "whose first search then scores beyond 3 pawns is dropped.\n"
            "bin and text only: --per-game N: keep at most N positions of a game, picked\n"
            "at random (default 0: all). --skip-plies N: none from a game's first N plies\n"
            "(default 8; for games the trainer's --skip-plies applies).\n"
            "--pgn FILE: no games are played; the quiet positions (not in check, the move\n"
            "played not a capture or promotion) of the finished games of FILE are written\n"
            "with each game's result instead (text only).\n";

static char **load_openings(const char *path, int *n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    int cap = 256;
    char **list = malloc((size_t)cap * sizeof *list);
    char line[512];
    *n = 0;
    while (list && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n;")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        if (*n == cap) {
            char **nl = realloc(list, (size_t)(cap *= 2) * sizeof *list);
            if (!nl)
                break;
            list = nl;
        }
        list[(*n)++] = strdup(line);
    }
    fclose(f);
    return list;
}

/* Plays n random legal moves; false when the game ends on the way. */
static bool random_plies(Position *pos, int n, uint64_t *rng)
{
    for (int i = 0; i < n; i++) {
        MoveList l;
        gen_legal(pos, &l);
        if (l.count == 0)
            return false;
        pos_reserve(pos, 1);
        make_move(pos, l.moves[xorshift64(rng) % (uint64_t)l.count]);
    }
    return true;
}

/* A kept position: as a FEN (text) and as a record without its result (bin). */
#define MAX_SAMPLES 600
typedef struct {
    char fen[100];
    PackedPos rec;
} Sample;

/* Writes all of buf, whatever signals arrive. */
static bool write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        buf += w, len -= (size_t)w;
    }
    return true;
}

/* Writes len bytes in one write() so that workers sharing the file never
 * interleave inside a game; a signal that ends the worker waits until they
 * are written whole: a short write would shift every record another worker
 * appends. */
static bool write_game_bytes(int fd, const char *buf, size_t len)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigprocmask(SIG_BLOCK, &block, &old);
    bool ok = write_all(fd, buf, len);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return ok;
}

/* Writes up to a->per_game of the n samples (all, in the order of the game,
 * when per_game is 0), a random subset by a partial Fisher-Yates shuffle,
 * with the game's result (for White: 0, 0.5 or 1). Returns the number
 * written, -1 on a write error. */
static long write_sample(Sample *s, int n, double result, const DatagenArgs *a, uint64_t *rng, int fd)
{
    int keep = a->per_game > 0 && a->per_game < n ? a->per_game : n;
    char *buf = malloc((size_t)keep * 112 + 1), *p = buf;
    if (!buf)
        return -1;
    for (int i = 0; i < keep; i++) {
        if (keep < n) {
            int j = i + (int)(xorshift64(rng) % (uint64_t)(n - i));
            Sample tmp = s[i];
            s[i] = s[j], s[j] = tmp;
        }
        if (a->binary) {
            s[i].rec.b[26] = (uint8_t)(result * 2);
            memcpy(p, s[i].rec.b, PACKED_SIZE);
            p += PACKED_SIZE;
        } else {
            p += sprintf(p, "%s | %.1f\n", s[i].fen, result);
        }
    }
    bool ok = write_game_bytes(fd, buf, (size_t)(p - buf));
    free(buf);
    return ok ? keep : -1;
}

/* Writes a whole game (games.h) that kept `kept` training positions;
 * returns kept, -1 on a write error. */
static long write_game(Game *g, double result, int kept, int fd)
{
    uint8_t *buf = malloc(games_record_size(g->plies));
    if (!buf)
        return -1;
    g->result = (int)(result * 2);
    size_t len = games_record(g, buf);
    bool ok = write_game_bytes(fd, (const char *)buf, len);
    free(buf);
    return ok ? kept : -1;
}

/* The game's result for White from the tablebases (0, 0.5, 1), or -1 when
 * they cannot tell (no table, castling rights, halfmove clock not zero). */
static double tb_result(const Position *pos)
{
    int pieces = pos->npieces[WHITE] + pos->npieces[BLACK] + pos->npawns[WHITE] + pos->npawns[BLACK];
    if (pieces > tb_max_pieces() || pos->castle)
        return -1;
    int wdl = tb_probe_wdl_pos(pos);
    if (wdl < 0)
        return -1;
    double stm = wdl == TB_WIN ? 1.0 : wdl == TB_LOSS ? 0.0 : 0.5; /* cursed or blessed: drawn */
    return pos->side == WHITE ? stm : 1.0 - stm;
}

/* Plays one game from pos and writes it whole (games), or up to per_game of
 * its quiet positions with the result. Returns the result for White (0, 0.5,
 * 1), or -1 when the start was too lopsided or the game was over at once
 * (nothing written). *written gets the number of training positions written
 * (-1 on a write error). */
static double play_game(Position *pos, const DatagenArgs *a, uint64_t *rng, int fd, long *written)
{
    engine_clear();
    Game *game = a->kind == FORMAT_GAMES ? malloc(sizeof *game) : NULL;
    Sample *samples = game ? NULL : malloc(MAX_SAMPLES * sizeof *samples);
    int nsamples = 0, ply = 0;
    if (game && !packed_encode(pos, 0, 0, &game->start))
        ply = -1; /* more than 32 pieces: an opening no game can be written from */
    double result = 0.5;
    int lopsided = 0, drawish = 0;
    /* Mate and tablebase scores are no evaluation to learn; the tuner's text
     * data keeps to scores of less than 20 pawns. */
    int max_score = a->kind == FORMAT_TEXT ? 2000 : TB_WIN_BOUND;
    *written = 0;
    while (ply >= 0) {
        MoveList l;
        gen_legal(pos, &l);
        if (l.count == 0) {
            result = in_check(pos) ? (pos->side == WHITE ? 0.0 : 1.0) : 0.5;
            break;
        }
        if (pos->halfmove >= 100 || is_repetition(pos, 2) || insufficient_material(pos) || ply >= 400)
            break;
        double tb = ply > 0 ? tb_result(pos) : -1;
        if (tb >= 0) {
            result = tb;
            break;
        }
        Limits lim;
        limits_init(&lim);
        lim.soft_nodes = (uint64_t)a->nodes;
        lim.nodes = (uint64_t)a->hard_nodes;
        SearchResult r = engine_search(pos, &lim, &a->params, true);
        int white_score = pos->side == WHITE ? r.score : -r.score;
        if (ply == 0 && abs(r.score) > 300)
            break; /* the random plies left a lopsided start */
        /* Adjudicate clear wins and dead draws to save time. */
        lopsided = abs(white_score) >= 1500 ? lopsided + 1 : 0;
        drawish = abs(white_score) <= 5 && ply > 80 ? drawish + 1 : 0;
        if (lopsided >= 6) {
            result = white_score > 0 ? 1.0 : 0.0;
            break;
        }
        if (drawish >= 12)
            break;
        /* The training positions: the games' reader keeps the same (games_keep). */
        if (nsamples < MAX_SAMPLES && games_keep(pos, r.best, r.score, ply, a->skip_plies) &&
            abs(r.score) < max_score) {
            if (game)
                nsamples++;
            else if (a->binary ? packed_encode(pos, white_score, 0, &samples[nsamples].rec)
                               : (pos_get_fen(pos, samples[nsamples].fen), true))
                nsamples++;
        }
        if (game) {
            game->move[ply] = r.best;
            game->score[ply] = (int16_t)(white_score > INT16_MAX ? INT16_MAX : white_score < INT16_MIN ? INT16_MIN
                                                                                                        : white_score);
            game->plies = ply + 1;
        }
        pos_reserve(pos, 1);
        make_move(pos, r.best);
        ply++;
    }
    if (ply <= 0)
        result = -1;
    else if (game)
        *written = write_game(game, result, nsamples, fd);
    else
        *written = write_sample(samples, nsamples, result, a, rng, fd);
    free(samples);
    free(game);
    return result;
}

/* Counters of all workers, in memory they share. */
typedef struct {
    _Atomic long long started, games, positions;
    _Atomic long long results[3], dropped;
    _Atomic int failed; /* a worker could not write */
} Progress;

/* One worker: games until the game count or position target is reached. */
static void worker(const DatagenArgs *a, int fd, Progress *pr, int id, char **open, int nopen)
{
    uint64_t rng = 0x1234567ULL + (uint64_t)a->seed * 0x9E3779B97F4A7C15ULL + (uint64_t)id * 0xD1B54A32D192ED03ULL +
                   (uint64_t)a->resumed * 0xBF58476D1CE4E5B9ULL;
    Position pos = {0};
    for (;;) {
        if (a->target && atomic_load(&pr->positions) >= a->target)
            break;
        if (atomic_fetch_add(&pr->started, 1) >= a->games && a->games)
            break;
        char err[160];
        const char *opening = open[xorshift64(&rng) % (uint64_t)nopen];
        double result = -1;
        long written = 0;
        if (pos_set_fen(&pos, opening, err, sizeof err) && random_plies(&pos, a->random_plies, &rng))
            result = play_game(&pos, a, &rng, fd, &written);
        if (written < 0) {
            atomic_store(&pr->failed, 1);
            break;
        }
        if (result < 0)
            atomic_fetch_add(&pr->dropped, 1);
        else
            atomic_fetch_add(&pr->results[result == 1.0 ? 0 : result == 0.5 ? 1 : 2], 1);
        atomic_fetch_add(&pr->positions, written);
        atomic_fetch_add(&pr->games, 1);
    }
    pos_free(&pos);
}

static volatile sig_atomic_t interrupted;
static void on_signal(int sig) { interrupted = sig; }

static void show_progress(const DatagenArgs *a, Progress *pr, int64_t ms, bool last)
{
    long long games = atomic_load(&pr->games), pos = atomic_load(&pr->positions);
    double rate = ms > 0 ? (double)pos * 1000.0 / (double)ms : 0.0;
    char eta[48] = "";
    if (a->target && rate > 0 && pos < a->target) {
        long long s = (long long)((double)(a->target - pos) / rate);
        snprintf(eta, sizeof eta, "  ETA %lldh%02lldm%02llds", s / 3600, s / 60 % 60, s % 60);
    }
    char count[48];
    if (a->games)
        snprintf(count, sizeof count, "game %lld/%d", games, a->games);
    else
        snprintf(count, sizeof count, "games %lld", games);
    bool tty = isatty(2);
    fprintf(stderr, "%s%s  +%lld =%lld -%lld  dropped %lld  %lld positions  %.1f games/s  %.0f positions/s%s%s",
            tty ? "\r" : "", count, atomic_load(&pr->results[0]), atomic_load(&pr->results[1]),
            atomic_load(&pr->results[2]), atomic_load(&pr->dropped), pos,
            ms > 0 ? (double)games * 1000.0 / (double)ms : 0.0, rate, eta, tty && !last ? "   " : "\n");
}

/* Cuts a trailing partial record (bin) or line (text) left by a run that was
 * killed while writing, so that appending keeps the file valid; *kept gets
 * the size that stays. */
static bool repair_tail(int fd, bool binary, long long *kept)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return false;
    off_t size = st.st_size, keep = size;
    if (binary) {
        keep = size - size % PACKED_SIZE;
    } else {
        char c;
        while (keep > 0 && pread(fd, &c, 1, keep - 1) == 1 && c != '\n')
            keep--;
    }
    *kept = keep;
    if (keep == size)
        return true;
    fprintf(stderr, "datagen: dropping %lld bytes of a record cut short at the end of the file\n",
            (long long)(size - keep));
    return ftruncate(fd, keep) == 0;
}

/* Plays the games in a->threads worker processes (each with its own hash
 * table and search), all appending to one file, and shows the progress;
 * *t gets what they played and wrote. */
static int self_play(const DatagenArgs *a, int fd, PoolRun *t)
{
    int nopen = 0;
    char **open = NULL;
    if (a->openings) {
        open = load_openings(a->openings, &nopen);
    } else if ((open = malloc(sizeof *open))) { /* the start position, then random plies */
        open[0] = strdup(START_FEN);
        nopen = open[0] != NULL;
    }
    Progress *pr = open && nopen ? mmap(NULL, sizeof *pr, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)
                                 : MAP_FAILED;
    if (pr == MAP_FAILED) {
        if (!open || !nopen)
            fprintf(stderr, "datagen: cannot read openings from %s\n", a->openings ? a->openings : "memory");
        else
            fprintf(stderr, "datagen: no shared memory for the workers\n");
        for (int i = 0; i < nopen; i++)
            free(open[i]);
        free(open);
        return 1;
    }
    memset(pr, 0, sizeof *pr);
    struct sigaction sa = {0}, old_int, old_term;
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    pid_t parent = getpid();
    pid_t *pids = calloc((size_t)a->threads, sizeof *pids);
    int alive = 0;
    for (int i = 0; i < a->threads && pids; i++) {
        pid_t p = fork();
        if (p == 0) {
            /* A worker ends at the first signal, its game unwritten, and with its parent. */
            signal(SIGINT, SIG_DFL);
            signal(SIGTERM, SIG_DFL);
            prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (getppid() != parent)
                _exit(0);
            worker(a, fd, pr, i, open, nopen);
            _exit(0);
        }
        if (p > 0)
            pids[alive++] = p;
    }
    bool started = alive > 0;
    if (!started)
        fprintf(stderr, "datagen: no worker process could be started: %s\n", strerror(errno));
    int64_t t0 = now_ms(), last_shown = t0;
    bool tty = isatty(2);
    while (alive) {
        if (interrupted)
            for (int i = 0; i < alive; i++)
                kill(pids[i], SIGTERM);
        int status;
        pid_t p = waitpid(-1, &status, WNOHANG);
        if (p > 0) {
            for (int i = 0; i < alive; i++)
                if (pids[i] == p)
                    pids[i] = pids[--alive];
            continue;
        }
        if (p < 0 && errno != EINTR)
            break;
        struct timespec ts = {0, 100 * 1000000L};
        nanosleep(&ts, NULL);
        int64_t now = now_ms();
        if (now - last_shown >= (tty ? 1000 : 60000)) {
            show_progress(a, pr, now - t0, false);
            last_shown = now;
        }
    }
    show_progress(a, pr, now_ms() - t0, true);
    if (interrupted)
        fprintf(stderr, "datagen: interrupted; the file holds every finished game\n");
    int rc = atomic_load(&pr->failed) ? (fprintf(stderr, "datagen: cannot write %s\n", a->out), 1) : !started;
    t->games = atomic_load(&pr->games), t->positions = atomic_load(&pr->positions);
    t->written = atomic_load(&pr->results[0]) + atomic_load(&pr->results[1]) + atomic_load(&pr->results[2]);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    free(pids);
    munmap(pr, sizeof *pr);
    for (int i = 0; i < nopen; i++)
        free(open[i]);
    free(open);
    return rc;
}

/* --pgn: one game of a PGN file being read. */
typedef struct {
    Position pos;
    char fen[128];      /* the FEN tag ("" for the standard start) */
    double result;      /* for White from the Result tag, -1 when unfinished or missing */
    bool moves, bad;    /* movetext seen; a move could not be read */
    int ply, nfens, comment, variation;
    Sample *samples;
    char bad_move[32]; /* as long as a movetext token */
} PgnGame;

static void pgn_new_game(PgnGame *g)
{
    g->fen[0] = '\0';
    g->result = -1;
    g->moves = g->bad = false;
    g->ply = g->nfens = 0;
}

/* Reads one movetext token (a move, a move number or a result). */
static void pgn_token(PgnGame *g, const char *tok, const DatagenArgs *a)
{
    if (g->bad || !strcmp(tok, "*") || !strcmp(tok, "1-0") || !strcmp(tok, "0-1") || !strcmp(tok, "1/2-1/2"))
        return;
    if (tok[0] >= '1' && tok[0] <= '9') { /* "12." or "12...", perhaps glued to a move: "12.e4" */
        while ((*tok >= '0' && *tok <= '9') || *tok == '.')
            tok++;
        if (!*tok)
            return;
    }
    if (!g->moves) {
        char err[160];
        g->moves = true;
        if (!pos_set_fen(&g->pos, g->fen[0] ? g->fen : START_FEN, err, sizeof err)) {
            g->bad = true;
            snprintf(g->bad_move, sizeof g->bad_move, "FEN");
            return;
        }
    }
    Move m = parse_san(&g->pos, tok);
    if (m == MOVE_NONE) {
        g->bad = true;
        snprintf(g->bad_move, sizeof g->bad_move, "%s", tok);
        return;
    }
    if (g->ply >= a->skip_plies && g->nfens < MAX_SAMPLES && games_quiet_move(&g->pos, m))
        pos_get_fen(&g->pos, g->samples[g->nfens++].fen);
    pos_reserve(&g->pos, 1);
    make_move(&g->pos, m);
    g->ply++;
}

/* Reads a line of movetext: comments in braces (they may span lines) and
 * after ';', variations in parentheses (skipped, nested or not) and $NAGs. */
static void pgn_movetext(PgnGame *g, const char *line, const DatagenArgs *a)
{
    for (const char *p = line; *p;) {
        if (g->comment) {
            g->comment = *p++ != '}';
        } else if (*p == '{') {
            g->comment = 1, p++;
        } else if (*p == ';') {
            return;
        } else if (*p == '(' || *p == ')') {
            g->variation += *p++ == '(' ? 1 : g->variation > 0 ? -1 : 0;
        } else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            p++;
        } else {
            char tok[32];
            size_t n = 0;
            while (*p && !strchr(" \t\r\n{};()", *p))
                if (n < sizeof tok - 1)
                    tok[n++] = *p++;
                else
                    p++;
            tok[n] = '\0';
            if (!g->variation && tok[0] != '$')
                pgn_token(g, tok, a);
        }
    }
}

/* Writes the finished game's positions; false when it gave none (unfinished,
 * or a move that could not be read, reported). */
static bool pgn_end_game(PgnGame *g, int number, const DatagenArgs *a, uint64_t *rng, int fd, long *written)
{
    bool ok = g->moves && !g->bad && g->result >= 0;
    if (g->bad)
        fprintf(stderr, "datagen: game %d of %s: cannot read '%s' at ply %d; game left out\n", number, a->pgn,
                g->bad_move, g->ply + 1);
    long n = ok ? write_sample(g->samples, g->nfens, g->result, a, rng, fd) : 0;
    *written += n > 0 ? n : 0;
    pgn_new_game(g);
    return ok;
}

/* --pgn: the quiet positions of the games of a PGN file. */
static int pgn_positions(const DatagenArgs *a, int fd, uint64_t *rng)
{
    FILE *in = fopen(a->pgn, "r");
    if (!in) {
        fprintf(stderr, "datagen: cannot read %s\n", a->pgn);
        return 1;
    }
    PgnGame g = {0};
    g.samples = malloc(MAX_SAMPLES * sizeof *g.samples);
    pgn_new_game(&g);
    long positions = 0;
    int games = 0, left_out = 0;
    char line[4096];
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '[' && !g.comment) {
            g.variation = 0; /* a tag line ends any variation left open */
            if (g.moves) /* a tag after movetext: the next game */
                games++, left_out += !pgn_end_game(&g, games, a, rng, fd, &positions);
            char name[32], value[128];
            if (sscanf(line, "[%31s \"%127[^\"]\"]", name, value) == 2) {
                if (!strcmp(name, "FEN"))
                    snprintf(g.fen, sizeof g.fen, "%s", value);
                else if (!strcmp(name, "Result"))
                    g.result = !strcmp(value, "1-0") ? 1.0 : !strcmp(value, "0-1") ? 0.0
                             : !strcmp(value, "1/2-1/2") ? 0.5 : -1;
            }
        } else {
            pgn_movetext(&g, line, a);
        }
    }
    if (g.moves)
        games++, left_out += !pgn_end_game(&g, games, a, rng, fd, &positions);
    fclose(in);
    pos_free(&g.pos);
    free(g.samples);
    fprintf(stderr, "%d games, %d left out (unfinished or unreadable), %ld positions\n", games, left_out, positions);
    return games ? 0 : 1;
}

int datagen_main(int argc, char **argv)
{
    DatagenArgs a = {NULL, NULL, NULL, NULL, NULL, NULL, -1, 5000, 0, 0, 8, -1, 0, 1, 0, 0, FORMAT_TEXT, false,
                     search_params_default()};
    bool gave_random_plies = false, gave_skip = false, gave_per_game = false;
    const ArgSpec specs[] = {
        ARG_SPEC_INT("--games", &a.games, 0, INT_MAX),
        ARG_SPEC_INT64("--positions", &a.target, 0, 1e15),
        ARG_SPEC_INT("--threads", &a.threads, 1, 256),
        ARG_SPEC_INT("--nodes", &a.nodes, 1, 1e9),
        ARG_SPEC_INT("--hard-nodes", &a.hard_nodes, 1, INT_MAX),
        ARG_SPEC_STRING("--openings", &a.openings),
        ARG_SPEC_STRING("--out", &a.out),
        ARG_SPEC_STRING("--format", &a.format),
        ARG_SPEC_INT("--seed", &a.seed, 0, 0),
        ARG_SPEC_STRING("--eval", &a.eval),
        ARG_SPEC_STRING("--evalfile", &a.evalfile),
        {.name = "--random-plies", .kind = ARG_INT, .dest = &a.random_plies, .max = 1000, .given = &gave_random_plies},
        {.name = "--per-game", .kind = ARG_INT, .dest = &a.per_game, .max = INT_MAX, .given = &gave_per_game},
        {.name = "--skip-plies", .kind = ARG_INT, .dest = &a.skip_plies, .max = INT_MAX, .given = &gave_skip},
        ARG_SPEC_STRING("--pgn", &a.pgn),
    };
    ArgsResult r = args_parse("datagen", argc, argv, specs, ARG_SPECS(specs));
    size_t len = a.out ? strlen(a.out) : 0;
    if (r == ARGS_OK && a.format && strcmp(a.format, "bin") && strcmp(a.format, "text") && strcmp(a.format, "games"))
        r = args_error("datagen", "--format is games, bin or text, not '%s'", a.format);
    if (a.format)
        a.kind = !strcmp(a.format, "bin") ? FORMAT_BIN : !strcmp(a.format, "games") ? FORMAT_GAMES : FORMAT_TEXT;
    else if (a.out)
        a.kind = len > 4 && !strcmp(a.out + len - 4, ".bin")   ? FORMAT_BIN
               : len > 4 && !strcmp(a.out + len - 4, ".hxg") ? FORMAT_GAMES
                                                               : FORMAT_TEXT;
    else
        a.kind = a.pgn ? FORMAT_TEXT : FORMAT_GAMES;
    a.binary = a.kind == FORMAT_BIN;
    bool pool = !a.out && a.kind == FORMAT_GAMES;
    if (!a.out && !pool)
        a.out = a.kind == FORMAT_BIN ? "datagen.bin" : "datagen.txt";
    if (a.games < 0)
        a.games = a.kind == FORMAT_TEXT ? 1000 : 0;
    if (!gave_random_plies)
        a.random_plies = a.openings ? 4 : 8;
    if (a.hard_nodes <= 0)
        a.hard_nodes = a.nodes * 8;
    if (r == ARGS_OK && a.hard_nodes < a.nodes)
        r = args_error("datagen", "--hard-nodes %d is below --nodes %d", a.hard_nodes, a.nodes);
    if (r == ARGS_OK && a.pgn && a.kind != FORMAT_TEXT)
        r = args_error("datagen", "--pgn writes text only (a PGN has no search scores)");
    if (r == ARGS_OK && a.kind == FORMAT_GAMES && (gave_skip || gave_per_game))
        r = args_error("datagen", "%s: games are written whole; `hexe train --skip-plies` filters them",
                       gave_skip ? "--skip-plies" : "--per-game");
    if (r != ARGS_OK)
        return args_finish(r, usage);
    Network *net = NULL;
    if (a.evalfile) {
        char err[300];
        if (!(net = nnue_load(a.evalfile, err, sizeof err)))
            return args_finish(args_error("datagen", "--evalfile: %s", err), usage);
        a.params.eval.net = net;
        eval_choose(&a.params.eval, "nnue");
    }
    if (a.eval && !eval_choose(&a.params.eval, a.eval)) {
        nnue_unload(net);
        return args_finish(args_error("datagen", "no usable evaluator named '%s'", a.eval), usage);
    }
    /* The pool's file of this network and seed, and its .cmd. */
    char path[PATH_MAX + 64], cmd_path[PATH_MAX + 64], tag[64] = "";
    if (pool && !pool_file(&a.params.eval, a.nodes, a.seed, path, cmd_path, sizeof path, tag)) {
        nnue_unload(net);
        return 1;
    }
    if (pool)
        a.out = path;
    int fd = open(a.out, O_RDWR | O_CREAT | O_APPEND, 0644); /* read too: the tail is checked */
    bool locked = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (fd >= 0 && !locked)
        fprintf(stderr, "datagen: another run is writing %s\n", a.out);
    bool ok = locked && (a.kind == FORMAT_GAMES ? games_repair(fd, a.out, &a.resumed)
                                                : repair_tail(fd, a.binary, &a.resumed));
    if (!ok) {
        fprintf(stderr, "datagen: cannot write %s\n", a.out);
        if (fd >= 0)
            close(fd);
        nnue_unload(net);
        return 1;
    }
    uint64_t rng = 0x1234567ULL + (uint64_t)a.seed * 0x9E3779B97F4A7C15ULL;
    PoolRun t = {a.nodes, a.seed, 0, 0, 0, tag, ""};
    int rc = a.pgn ? pgn_positions(&a, fd, &rng) : self_play(&a, fd, &t);
    if (a.params.eval.net && !strcmp(a.params.eval.evaluator->name, "nnue"))
        t.net_name = a.params.eval.net->name;
    if (pool && t.games)
        pool_record(cmd_path, argc, argv, &t);
    close(fd);
    nnue_unload(net);
    return rc;
}
