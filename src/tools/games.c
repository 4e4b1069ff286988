/* tools/games.c - whole games as training data (games.h): the record
 * datagen writes, the filters that make training positions of a game, and
 * the reader that replays a file's games and stops at the first bad one. */
#include "games.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../fen.h"
#include "../movegen.h"
#include "../syzygy/probe.h"

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v & 0xff);
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static unsigned get16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

void games_header(uint8_t out[GAMES_HEADER])
{
    memcpy(out, GAMES_MAGIC, 8);
    put32(out + 8, GAMES_VERSION);
}

size_t games_record(const Game *g, uint8_t *buf)
{
    memcpy(buf, g->start.b, PACKED_SIZE);
    put16(buf + 24, (unsigned)g->plies);
    buf[26] = (uint8_t)g->result;
    uint8_t *p = buf + PACKED_SIZE;
    for (int i = 0; i < g->plies; i++, p += 4) {
        put16(p, g->move[i]);
        put16(p + 2, (uint16_t)g->score[i]);
    }
    put32(p, fnv1a(buf, (size_t)(p - buf)));
    return games_record_size(g->plies);
}

bool games_quiet_move(const Position *pos, Move played)
{
    if (in_check(pos) || played == MOVE_NONE)
        return false;
    if (MOVE_KIND(played) == MK_PROMO || MOVE_KIND(played) == MK_EP)
        return false;
    return MOVE_KIND(played) == MK_CASTLE || pos->board[MOVE_TO(played)] == EMPTY;
}

bool games_keep(const Position *pos, Move played, int score, int ply, int skip_plies)
{
    return ply >= skip_plies && abs(score) < TB_WIN_BOUND && games_quiet_move(pos, played);
}

bool games_open(GameReader *r, const char *path, int skip_plies)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->skip_plies = skip_plies;
    r->f = fopen(path, "rb");
    if (!r->f) {
        snprintf(r->err, sizeof r->err, "cannot read %s: %s", path, strerror(errno));
        return false;
    }
    setvbuf(r->f, NULL, _IOFBF, 1 << 20);
    uint8_t head[GAMES_HEADER];
    size_t got = fread(head, 1, sizeof head, r->f);
    const char *why = got < 8 || memcmp(head, GAMES_MAGIC, 8) ? "no HEXEGAME header: not a game file"
                    : got < GAMES_HEADER                     ? "its header is cut short"
                    : get32(head + 8) != GAMES_VERSION       ? "version"
                                                             : NULL;
    if (why && !strcmp(why, "version"))
        snprintf(r->err, sizeof r->err, "%s: game file version %u, this build reads %d", path, get32(head + 8),
                 GAMES_VERSION);
    else if (why)
        snprintf(r->err, sizeof r->err, "%s: %s", path, why);
    if (why) {
        fclose(r->f);
        r->f = NULL;
        return false;
    }
    r->offset = GAMES_HEADER;
    return true;
}

void games_close(GameReader *r)
{
    if (r->f)
        fclose(r->f);
    r->f = NULL;
    pos_free(&r->pos);
}

/* -1, with r->err saying which game is bad and why. */
static int bad(GameReader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(GameReader *r, const char *fmt, ...)
{
    char why[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    long long n = r->games + 1;
    snprintf(r->err, sizeof r->err, "file %s: game %lld at byte %lld: %s; the %lld games before it are kept", r->path,
             n, r->offset, why, n - 1);
    return -1;
}

int games_next(GameReader *r, Game *g)
{
    uint8_t buf[32 + 4 * GAMES_MAX_PLIES + 4];
    size_t got = fread(buf, 1, PACKED_SIZE, r->f);
    if (got == 0 && feof(r->f))
        return 0;
    if (got < PACKED_SIZE)
        return ferror(r->f) ? bad(r, "read error") : (r->cut_short = true, bad(r, "cut short (%zu bytes)", got));
    int plies = (int)get16(buf + 24), result = buf[26];
    if (plies < 1 || plies > GAMES_MAX_PLIES)
        return bad(r, "%d plies (a game has 1 to %d)", plies, GAMES_MAX_PLIES);
    size_t rest = games_record_size(plies) - PACKED_SIZE;
    got = fread(buf + PACKED_SIZE, 1, rest, r->f);
    if (got < rest)
        return ferror(r->f) ? bad(r, "read error")
                            : (r->cut_short = true,
                               bad(r, "cut short (%zu of its %zu bytes)", got + PACKED_SIZE, rest + PACKED_SIZE));
    size_t body = games_record_size(plies) - 4;
    if (fnv1a(buf, body) != get32(buf + body))
        return bad(r, "checksum mismatch: the game is damaged");
    if (result > 2)
        return bad(r, "result %d (0, 1 or 2)", result);
    memcpy(g->start.b, buf, PACKED_SIZE);
    g->plies = plies, g->result = result, g->npos = 0;
    for (int i = 0; i < plies; i++) {
        g->move[i] = (Move)get16(buf + PACKED_SIZE + 4 * i);
        g->score[i] = (int16_t)get16(buf + PACKED_SIZE + 4 * i + 2);
    }
    if (!r->check_only) {
        /* The replay: the start position must be legal and every move too. */
        Unpacked u;
        char fen[128], err[160];
        if (!packed_decode(&g->start, &u) || !pos_set_fen(&r->pos, packed_fen(&u, fen), err, sizeof err))
            return bad(r, "its start position is not legal");
        for (int i = 0; i < plies; i++) {
            if (!move_is_legal(&r->pos, g->move[i]))
                return bad(r, "the move of ply %d (%04x) is not legal", i + 1, g->move[i]);
            if (games_keep(&r->pos, g->move[i], g->score[i], i, r->skip_plies) &&
                packed_encode(&r->pos, g->score[i], result, &g->pos[g->npos]))
                g->npos++;
            pos_reserve(&r->pos, 1);
            make_move(&r->pos, g->move[i]);
        }
    }
    r->offset += (long long)games_record_size(plies);
    r->games++;
    return 1;
}

bool games_repair(int fd, const char *path, long long *kept)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return false;
    uint8_t head[GAMES_HEADER];
    games_header(head);
    char start[GAMES_HEADER];
    *kept = 0;
    if (st.st_size < GAMES_HEADER && pread(fd, start, (size_t)st.st_size, 0) == st.st_size &&
        !memcmp(start, head, (size_t)st.st_size)) /* empty, or a header cut short */
        return ftruncate(fd, 0) == 0 && write(fd, head, sizeof head) == (ssize_t)sizeof head;
    GameReader r;
    if (!games_open(&r, path, 0)) {
        fprintf(stderr, "datagen: %s\n", r.err);
        return false;
    }
    r.check_only = true;
    Game *g = malloc(sizeof *g);
    int got = g ? 0 : -2;
    while (g && (got = games_next(&r, g)) == 1)
        continue;
    free(g);
    games_close(&r);
    bool ok = got == 0;
    if (got == -1 && r.cut_short) {
        fprintf(stderr, "datagen: dropping %lld bytes of a game cut short at the end of %s\n",
                (long long)st.st_size - r.offset, path);
        ok = ftruncate(fd, r.offset) == 0;
    } else if (got == -1) {
        fprintf(stderr, "datagen: %s\ndatagen: appending after a damaged game would add games no reader reaches: "
                        "move the file aside\n", r.err);
    }
    *kept = r.offset;
    return ok;
}

bool games_is_game_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char head[8];
    bool yes = f && fread(head, 1, 8, f) == 8 && !memcmp(head, GAMES_MAGIC, 8);
    if (f)
        fclose(f);
    return yes;
}
