/* test_games.c - the game file (tools/games.h): random games, standard and
 * Chess960, written and read back are the same games (start, moves, scores,
 * result), replayed into the training positions the filters keep; the
 * layout is pinned; a file cut short or damaged anywhere in a game is
 * reported at that game, by number and byte, and every game before it is
 * read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fen.h"
#include "movegen.h"
#include "position.h"
#include "tools/games.h"
#include "zobrist.h"

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint64_t next(void) { return xorshift64(&rng); }

/* A score: mostly ordinary, sometimes a mate or tablebase score, sometimes
 * next to the bound of those (18872), sometimes at the edges of int16. */
static int16_t random_score(void)
{
    switch (next() % 8) {
    case 0:
        return (int16_t)((next() & 1 ? 1 : -1) * (18872 + (int)(next() % 12000)));
    case 1:
        return (int16_t)((next() & 1 ? 1 : -1) * (18870 + (int)(next() % 4))); /* around the bound */
    case 2:
        return next() & 1 ? INT16_MAX : INT16_MIN;
    default:
        return (int16_t)((int)(next() % 4001) - 2000);
    }
}

/* The training positions of a game, found here by reading the board: the
 * filters as docs/nnue.md states them. */
static int expected_positions(const Game *g, int skip, PackedPos *out)
{
    Unpacked u;
    char fen[128], err[160];
    Position pos = {0};
    int n = 0;
    if (!packed_decode(&g->start, &u) || !pos_set_fen(&pos, packed_fen(&u, fen), err, sizeof err))
        return -1;
    for (int i = 0; i < g->plies; i++) {
        Move m = g->move[i];
        int to = MOVE_TO(m), kind = MOVE_KIND(m);
        bool quiet = kind == MK_CASTLE || (kind == MK_NORMAL && pos.board[to] == EMPTY);
        int score = g->score[i] < 0 ? -g->score[i] : g->score[i];
        if (i >= skip && !in_check(&pos) && quiet && score < 18872)
            packed_encode(&pos, g->score[i], g->result, &out[n++]);
        pos_reserve(&pos, 1);
        make_move(&pos, m);
    }
    pos_free(&pos);
    return n;
}

/* A random game of up to max_plies legal moves from fen. */
static void random_game(const char *fen, int max_plies, Game *g)
{
    Position pos = {0};
    char err[160];
    pos_set_fen(&pos, fen, err, sizeof err);
    packed_encode(&pos, 0, 0, &g->start);
    g->plies = 0;
    g->result = (int)(next() % 3);
    int len = 1 + (int)(next() % (uint64_t)max_plies);
    for (int i = 0; i < len; i++) {
        MoveList l;
        gen_legal(&pos, &l);
        if (!l.count)
            break;
        Move m = l.moves[next() % (uint64_t)l.count];
        g->move[g->plies] = m;
        g->score[g->plies++] = random_score();
        pos_reserve(&pos, 1);
        make_move(&pos, m);
    }
    pos_free(&pos);
}

static char path[64];

/* Writes a header (or the given bytes in place of it) and the records. */
static void write_file(const uint8_t *head, size_t head_len, const uint8_t *body, size_t len)
{
    FILE *f = fopen(path, "wb");
    fwrite(head, 1, head_len, f);
    fwrite(body, 1, len, f);
    fclose(f);
}

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Sets the checksum of the record at rec of n plies after an edit. */
static void reseal(uint8_t *rec, int plies)
{
    size_t body = 32 + 4 * (size_t)plies;
    uint32_t h = fnv1a(rec, body);
    for (int i = 0; i < 4; i++)
        rec[body + i] = (uint8_t)(h >> (8 * i));
}

static const char *fens[] = {
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", /* Chess960 */
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", /* en passant at once */
};

static void roundtrip(void)
{
    enum { GAMES = 60 };
    Game *games = malloc(GAMES * sizeof *games), *back = malloc(sizeof *back);
    uint8_t *body = malloc(GAMES * games_record_size(GAMES_MAX_PLIES)), head[GAMES_HEADER];
    PackedPos *want = malloc(GAMES_MAX_PLIES * sizeof *want);
    size_t len = 0;
    for (int i = 0; i < GAMES; i++) {
        random_game(fens[i % 5], i == 7 ? GAMES_MAX_PLIES : 400, &games[i]);
        len += games_record(&games[i], body + len);
    }
    games_header(head);
    write_file(head, sizeof head, body, len);
    for (int skip = 0; skip <= 8; skip += 8) {
        GameReader r;
        bool open = games_open(&r, path, skip);
        CHECK(open, "a game file opens: %s", r.err);
        if (!open)
            continue;
        int i = 0, got, same = 0, kept_same = 0, kept = 0;
        while ((got = games_next(&r, back)) == 1 && i < GAMES) {
            const Game *g = &games[i++];
            bool s = back->plies == g->plies && back->result == g->result &&
                     !memcmp(back->start.b, g->start.b, 24) && !memcmp(back->start.b + 27, g->start.b + 27, 5) &&
                     !memcmp(back->move, g->move, (size_t)g->plies * sizeof g->move[0]) &&
                     !memcmp(back->score, g->score, (size_t)g->plies * sizeof g->score[0]);
            same += s;
            int n = expected_positions(g, skip, want);
            kept += n;
            kept_same += n == back->npos && !memcmp(want, back->pos, (size_t)n * sizeof *want);
        }
        CHECK(got == 0 && i == GAMES && r.games == GAMES, "all %d games read, then the end (%d, %d)", GAMES, i, got);
        CHECK(same == GAMES, "every game reads back as written (%d of %d)", same, GAMES);
        CHECK(kept_same == GAMES && kept > 100,
              "skip %d: every game's training positions are those the filters name (%d of %d games, %d positions)",
              skip, kept_same, GAMES, kept);
        CHECK(r.offset == (long long)(len + GAMES_HEADER), "the reader ends at the end of the file");
        games_close(&r);
    }
    /* The longest game fits and reads back. */
    CHECK(games[7].plies > 400, "a long game was made (%d plies)", games[7].plies);
    free(games);
    free(back);
    free(body);
    free(want);
}

static void layout(void)
{
    uint8_t head[GAMES_HEADER], rec[64];
    games_header(head);
    CHECK(!memcmp(head, "HEXEGAME\1\0\0\0", 12), "the header is HEXEGAME and version 1 (u32)");
    Game g = {0};
    Position pos = {0};
    char err[160];
    pos_set_fen(&pos, START_FEN, err, sizeof err);
    packed_encode(&pos, 0, 0, &g.start);
    g.plies = 2, g.result = 2;
    g.move[0] = MAKE_MOVE(SQ(4, 1), SQ(4, 3), MK_NORMAL), g.score[0] = 35;
    g.move[1] = MAKE_MOVE(SQ(4, 6), SQ(4, 4), MK_NORMAL), g.score[1] = -2;
    size_t n = games_record(&g, rec);
    CHECK(n == 44 && games_record_size(2) == 44, "a game of 2 plies is 32 + 2 x 4 + 4 bytes (%zu)", n);
    CHECK(!memcmp(rec, g.start.b, 24) && rec[24] == 2 && rec[25] == 0 && rec[26] == 2 &&
              !memcmp(rec + 27, g.start.b + 27, 5),
          "the start position's record with the plies in bytes 24-25 and the result in byte 26");
    CHECK(rec[32] == (g.move[0] & 0xff) && rec[33] == g.move[0] >> 8 && rec[34] == 35 && rec[35] == 0 &&
              rec[38] == 0xfe && rec[39] == 0xff,
          "each ply: the move, then the score, little-endian");
    uint32_t h = fnv1a(rec, 40);
    CHECK(rec[40] == (h & 0xff) && rec[43] == h >> 24, "the record ends with the FNV-1a of its bytes");
    pos_free(&pos);
}

/* Reads the file; returns the games read before the end or the first bad one. */
static long long read_all(int *status, char *err, size_t n, bool *cut)
{
    GameReader r;
    Game *g = malloc(sizeof *g);
    *status = -2, *cut = false;
    if (!games_open(&r, path, 8)) {
        snprintf(err, n, "%s", r.err);
        free(g);
        return -1;
    }
    while ((*status = games_next(&r, g)) == 1)
        continue;
    snprintf(err, n, "%s", *status < 0 ? r.err : "");
    *cut = r.cut_short;
    long long games = r.games;
    games_close(&r);
    free(g);
    return games;
}

static void damaged(void)
{
    enum { GAMES = 5, BAD = 3 };
    Game *g = malloc(sizeof *g);
    uint8_t *body = malloc(GAMES * games_record_size(400)), head[GAMES_HEADER];
    size_t at[GAMES + 1] = {0}, plies[GAMES];
    for (int i = 0; i < GAMES; i++) {
        random_game(START_FEN, 120, g);
        if (g->plies < 10) { /* every game long enough to damage its moves */
            i--;
            continue;
        }
        plies[i] = (size_t)g->plies;
        at[i + 1] = at[i] + games_record(g, body + at[i]);
    }
    games_header(head);
    size_t len = at[GAMES], bad_at = at[BAD - 1];
    uint8_t *copy = malloc(len);
    char err[400], want[120];
    snprintf(want, sizeof want, "game %d at byte %zu: ", BAD, bad_at + GAMES_HEADER);
    const char *kept = "; the 2 games before it are kept";
    int status;
    bool cut;

    /* Cut short: inside the start position, inside the moves, inside the checksum. */
    size_t cuts[] = {bad_at + 10, bad_at + 32, bad_at + 45, at[BAD] - 1};
    for (int c = 0; c < 4; c++) {
        write_file(head, sizeof head, body, cuts[c]);
        long long n = read_all(&status, err, sizeof err, &cut);
        CHECK(n == BAD - 1 && status == -1 && cut && strstr(err, want) && strstr(err, "cut short") &&
                  strstr(err, kept) && strstr(err, path),
              "cut at byte %zu: %lld games read, then '%s'", cuts[c] + GAMES_HEADER, n, err);
    }
    write_file(head, sizeof head, body, bad_at);
    CHECK(read_all(&status, err, sizeof err, &cut) == BAD - 1 && status == 0, "a file of whole games ends cleanly");

    /* Damage with the checksum left as it was, then with it made to match. */
    struct {
        size_t offset;
        uint8_t value;
        bool reseal;
        const char *why;
    } cases[] = {
        {bad_at + 34, 0x55, false, "checksum mismatch"},            /* a score */
        {bad_at + 3, 0x10, false, "checksum mismatch"},             /* the board */
        {at[BAD] - 2, 0x00, false, "checksum mismatch"},            /* the checksum itself */
        {bad_at + 24, 0, false, "0 plies"},                         /* no plies */
        {bad_at + 25, 0x7f, false, "plies (a game has 1 to 1024)"}, /* too many */
        {bad_at + 26, 3, true, "result 3"},
        {bad_at + 32 + 4 * 5, 0x00, true, "the move of ply 6"},     /* an illegal move */
        {bad_at + 33 + 4 * 5, 0x00, true, "the move of ply 6"},
        {bad_at + 0, 0x00, true, "start position is not legal"},    /* a1-h1 emptied: pieces mismatch codes */
        {bad_at + 27, 1, true, "the move of ply 1"},                /* Black to move, then White's move */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        memcpy(copy, body, len);
        copy[cases[c].offset] = cases[c].value;
        if (cases[c].reseal)
            reseal(copy + bad_at, (int)plies[BAD - 1]);
        write_file(head, sizeof head, copy, len);
        long long n = read_all(&status, err, sizeof err, &cut);
        CHECK(n == BAD - 1 && status == -1 && !cut && strstr(err, want) && strstr(err, cases[c].why) &&
                  strstr(err, kept),
              "damage %zu (byte %zu): %lld games read, then '%s'", c, cases[c].offset, n, err);
    }

    /* Bad headers. */
    uint8_t bad_head[GAMES_HEADER];
    memcpy(bad_head, head, sizeof head);
    bad_head[0] = 'X';
    write_file(bad_head, sizeof bad_head, body, len);
    CHECK(read_all(&status, err, sizeof err, &cut) == -1 && strstr(err, "not a game file"), "a wrong magic: %s", err);
    memcpy(bad_head, head, sizeof head);
    bad_head[8] = 2;
    write_file(bad_head, sizeof bad_head, body, len);
    CHECK(read_all(&status, err, sizeof err, &cut) == -1 && strstr(err, "version 2, this build reads 1"),
          "a later version: %s", err);
    write_file(head, 10, body, 0);
    CHECK(read_all(&status, err, sizeof err, &cut) == -1 && strstr(err, "cut short"), "a header cut short: %s", err);
    write_file(head, sizeof head, body, 0);
    CHECK(read_all(&status, err, sizeof err, &cut) == 0 && status == 0, "a header alone: no games, no error");
    CHECK(games_is_game_file(path), "a game file is recognised by its magic");
    write_file((const uint8_t *)"\xff\xff\0\0\0\0\xff\xff", 8, body, 32);
    CHECK(!games_is_game_file(path), "a file of 32-byte records is not taken for a game file");
    free(g);
    free(body);
    free(copy);
}

int main(void)
{
    zobrist_init();
    attack_init();
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/hexe-games-XXXXXX", tmp && strlen(tmp) < 40 ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        CHECK(false, "cannot make a temporary file");
        return check_report("test_games");
    }
    close(fd);
    layout();
    roundtrip();
    damaged();
    unlink(path);
    return check_report("test_games");
}
