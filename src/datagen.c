/* datagen.c - `hexe datagen`: fast self-play games from the balanced openings,
 * writing each game's quiet positions with the game's result, as data for the
 * Texel tuner (tune.c) and the network trainer (nettrain.c). Output lines:
 * "<FEN> | <result>" with the result from White's point of view: 1.0, 0.5 or
 * 0.0. With --pgn it plays nothing and takes the positions of the games of a
 * PGN file instead (e.g. a match against Stockfish, to be labelled by
 * scripts/sf-label). */
#include "datagen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval.h"
#include "fen.h"
#include "san.h"
#include "search.h"
#include "timeman.h"
#include "tt.h"

typedef struct {
    const char *openings, *out, *pgn;
    int games, nodes, seed, skip_plies, random_plies, per_game;
    const char *eval;
} DatagenArgs;

static int usage(void)
{
    fprintf(stderr,
            "usage: hexe datagen [--games N] [--nodes N] [--openings FILE.epd] [--out FILE]\n"
            "                    [--seed N] [--eval NAME] [--random-plies N] [--per-game N]\n"
            "                    [--skip-plies N]\n"
            "       hexe datagen --pgn FILE [--out FILE] [--skip-plies N] [--per-game N] [--seed N]\n"
            "Plays N self-play games (default 1000) at N nodes a move (default 5000)\n"
            "from random openings of FILE (default ../shared/openings/balanced-2000.epd)\n"
            "and appends '<FEN> | <result>' lines to FILE (default datagen.txt).\n"
            "--random-plies N: random legal moves played after the opening (default 4), so\n"
            "that games from the same opening differ; a game whose first search then scores\n"
            "beyond 3 pawns is dropped. --per-game N: keep at most N positions of a game,\n"
            "picked at random (default 0: all). --skip-plies N: none from a game's first N\n"
            "plies (default 8).\n"
            "--pgn FILE: no games are played; the quiet positions (not in check, the move\n"
            "played not a capture or promotion) of the finished games of FILE are written\n"
            "with each game's result instead.\n");
    return 2;
}

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

/* A position is worth keeping when the side to move is not in check and the
 * best move is quiet: its static eval should then predict the result. */
static bool quiet_position(const Position *pos, Move best)
{
    if (in_check(pos) || best == MOVE_NONE)
        return false;
    if (MOVE_KIND(best) == MK_PROMO || MOVE_KIND(best) == MK_EP)
        return false;
    return MOVE_KIND(best) == MK_CASTLE || pos->board[MOVE_TO(best)] == EMPTY;
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
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
        make_move(pos, l.moves[rng_next(rng) % (uint64_t)l.count]);
    }
    return true;
}

/* Writes up to a->per_game of the n positions (all when per_game is 0), a
 * random subset by a partial Fisher-Yates shuffle, with the game's result. */
static void write_sample(char (*fens)[100], int n, double result, const DatagenArgs *a, uint64_t *rng, FILE *out,
                         long *written)
{
    int keep = a->per_game > 0 && a->per_game < n ? a->per_game : n;
    for (int i = 0; i < keep; i++) {
        int j = i + (int)(rng_next(rng) % (uint64_t)(n - i));
        char tmp[100];
        memcpy(tmp, fens[i], sizeof tmp);
        memcpy(fens[i], fens[j], sizeof tmp);
        memcpy(fens[j], tmp, sizeof tmp);
        fprintf(out, "%s | %.1f\n", fens[i], result);
    }
    fflush(out);
    *written += keep;
}

/* Plays one game from pos and writes up to per_game of its quiet positions with
 * the result. Returns the result for White (0, 0.5, 1), or -1 when the start
 * was too lopsided or the game was over at once (nothing written). */
static double play_game(Position *pos, const DatagenArgs *a, uint64_t *rng, FILE *out, long *written)
{
    search_clear();
    char (*fens)[100] = malloc(600 * sizeof *fens);
    char fen[128];
    int nfens = 0, ply = 0;
    double result = 0.5;
    int lopsided = 0, drawish = 0;
    for (;;) {
        MoveList l;
        gen_legal(pos, &l);
        if (l.count == 0) {
            result = in_check(pos) ? (pos->side == WHITE ? 0.0 : 1.0) : 0.5;
            break;
        }
        if (pos->halfmove >= 100 || is_repetition(pos, 2) || insufficient_material(pos) || ply >= 400)
            break;
        Limits lim;
        limits_init(&lim);
        lim.nodes = (uint64_t)a->nodes;
        SearchResult r = search_sync(pos, &lim, true);
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
        if (ply >= a->skip_plies && nfens < 600 && quiet_position(pos, r.best) && abs(r.score) < 2000)
            strcpy(fens[nfens++], pos_get_fen(pos, fen));
        pos_reserve(pos, 1);
        make_move(pos, r.best);
        ply++;
    }
    if (ply == 0)
        result = -1;
    else
        write_sample(fens, nfens, result, a, rng, out, written);
    free(fens);
    return result;
}

/* Plays a->games games from random openings, writing their positions to out. */
static int self_play(const DatagenArgs *a, FILE *out, uint64_t *rng)
{
    int nopen = 0;
    char **open = load_openings(a->openings, &nopen);
    if (!open || !nopen) {
        fprintf(stderr, "datagen: cannot read openings from %s\n", a->openings);
        free(open);
        return 1;
    }
    Position pos = {0};
    long positions = 0;
    int64_t t0 = now_ms();
    int results[3] = {0, 0, 0}, dropped = 0;
    for (int g = 0; g < a->games; g++) {
        char err[160];
        const char *opening = open[rng_next(rng) % (uint64_t)nopen];
        double result = -1;
        if (pos_set_fen(&pos, opening, err, sizeof err) && random_plies(&pos, a->random_plies, rng))
            result = play_game(&pos, a, rng, out, &positions);
        if (result < 0)
            dropped++;
        else
            results[result == 1.0 ? 0 : result == 0.5 ? 1 : 2]++;
        int64_t ms = now_ms() - t0;
        fprintf(stderr, "\rgame %d/%d  +%d =%d -%d  dropped %d  %ld positions  %.1f games/s   ", g + 1, a->games,
                results[0], results[1], results[2], dropped, positions, ms ? (g + 1) * 1000.0 / (double)ms : 0.0);
    }
    fprintf(stderr, "\n");
    pos_free(&pos);
    for (int i = 0; i < nopen; i++)
        free(open[i]);
    free(open);
    return 0;
}

/* --pgn: one game of a PGN file being read. */
typedef struct {
    Position pos;
    char fen[128];      /* the FEN tag ("" for the standard start) */
    double result;      /* for White from the Result tag, -1 when unfinished or missing */
    bool moves, bad;    /* movetext seen; a move could not be read */
    int ply, nfens, comment, variation;
    char (*fens)[100];
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
    if (g->ply >= a->skip_plies && g->nfens < 600 && quiet_position(&g->pos, m)) {
        char fen[128];
        strcpy(g->fens[g->nfens++], pos_get_fen(&g->pos, fen));
    }
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
static bool pgn_end_game(PgnGame *g, int number, const DatagenArgs *a, uint64_t *rng, FILE *out, long *written)
{
    bool ok = g->moves && !g->bad && g->result >= 0;
    if (g->bad)
        fprintf(stderr, "datagen: game %d of %s: cannot read '%s' at ply %d; game left out\n", number, a->pgn,
                g->bad_move, g->ply + 1);
    if (ok)
        write_sample(g->fens, g->nfens, g->result, a, rng, out, written);
    pgn_new_game(g);
    return ok;
}

/* --pgn: the quiet positions of the games of a PGN file. */
static int pgn_positions(const DatagenArgs *a, FILE *out, uint64_t *rng)
{
    FILE *in = fopen(a->pgn, "r");
    if (!in) {
        fprintf(stderr, "datagen: cannot read %s\n", a->pgn);
        return 1;
    }
    PgnGame g = {0};
    g.fens = malloc(600 * sizeof *g.fens);
    pgn_new_game(&g);
    long positions = 0;
    int games = 0, left_out = 0;
    char line[4096];
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '[' && !g.comment) {
            g.variation = 0; /* a tag line ends any variation left open */
            if (g.moves) /* a tag after movetext: the next game */
                games++, left_out += !pgn_end_game(&g, games, a, rng, out, &positions);
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
        games++, left_out += !pgn_end_game(&g, games, a, rng, out, &positions);
    fclose(in);
    pos_free(&g.pos);
    free(g.fens);
    fprintf(stderr, "%d games, %d left out (unfinished or unreadable), %ld positions\n", games, left_out, positions);
    return games ? 0 : 1;
}

int datagen_main(int argc, char **argv)
{
    DatagenArgs a = {"../shared/openings/balanced-2000.epd", "datagen.txt", NULL, 1000, 5000, 0, 8, 4, 0, NULL};
    for (int i = 1; i < argc; i += 2) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(k, "--help") || !v)
            return usage();
        if (!strcmp(k, "--games"))
            a.games = atoi(v);
        else if (!strcmp(k, "--nodes"))
            a.nodes = atoi(v);
        else if (!strcmp(k, "--openings"))
            a.openings = v;
        else if (!strcmp(k, "--out"))
            a.out = v;
        else if (!strcmp(k, "--seed"))
            a.seed = atoi(v);
        else if (!strcmp(k, "--eval"))
            a.eval = v;
        else if (!strcmp(k, "--random-plies"))
            a.random_plies = atoi(v);
        else if (!strcmp(k, "--per-game"))
            a.per_game = atoi(v);
        else if (!strcmp(k, "--skip-plies"))
            a.skip_plies = atoi(v);
        else if (!strcmp(k, "--pgn"))
            a.pgn = v;
        else
            return usage();
    }
    if (a.per_game < 0 || a.skip_plies < 0)
        return usage();
    if (a.eval && !eval_select(a.eval)) {
        fprintf(stderr, "datagen: no evaluator named '%s'\n", a.eval);
        return 2;
    }
    FILE *out = fopen(a.out, "a");
    if (!out) {
        fprintf(stderr, "datagen: cannot write %s\n", a.out);
        return 1;
    }
    uint64_t rng = 0x1234567ULL + (uint64_t)a.seed * 0x9E3779B97F4A7C15ULL;
    int rc = a.pgn ? pgn_positions(&a, out, &rng) : self_play(&a, out, &rng);
    fclose(out);
    return rc;
}
