/* tb.c - Syzygy tablebases through Fathom: path set-up with file checks,
 * Position -> bitboards, WDL probes, and the root probe that ranks the root
 * moves and picks the one to play. Fathom itself is linked (-lfathom). */
#define _POSIX_C_SOURCE 200809L /* strdup, readlink, opendir under -std=c17 */
#include "tb.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tbprobe.h>

#include "fen.h"
#include "files.h"
#include "movegen.h"

#if TB_LOSS != 0 || TB_BLESSED_LOSS != 1 || TB_DRAW != 2 || TB_CURSED_WIN != 3 || TB_WIN != 4
#error "tb.h's WDL values must equal Fathom's"
#endif

/* Our own record of what is loaded. Fathom's TB_LARGEST is not reset when
 * its path is set to "" (and probing then would touch freed memory), so
 * every probe checks this value instead. Written only by tb_set_path(). */
static int tb_largest;

/* Syzygy file checks: the first four bytes (little-endian magic numbers) and
 * the size, which the generator always pads to 16 modulo 64 bytes. */
static const unsigned char WDL_MAGIC[4] = {0x71, 0xe8, 0x23, 0x5d};
static const unsigned char DTZ_MAGIC[4] = {0xd7, 0x66, 0x0c, 0xa5};
#define TB_MIN_FILE_SIZE 80

/* ---- Messages ---- */

typedef struct {
    char *buf;
    size_t size, len;
} Msg;

static void msg_add(Msg *m, const char *fmt, ...)
{
    if (!m->buf || m->size == 0 || m->len + 1 >= m->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(m->buf + m->len, m->size - m->len, fmt, ap);
    va_end(ap);
    if (k > 0)
        m->len = m->len + (size_t)k < m->size ? m->len + (size_t)k : m->size - 1;
}

/* ---- Path set-up ---- */

/* "KQRvKR.rtbw" -> 5 pieces (WDL); returns 0 for a name that is no table. */
static int table_name_pieces(const char *name, bool *dtz)
{
    size_t len = strlen(name);
    if (len < 8 || (strcmp(name + len - 5, ".rtbw") && strcmp(name + len - 5, ".rtbz")))
        return 0;
    *dtz = name[len - 1] == 'z';
    int pieces = 0, sides = 0;
    for (size_t i = 0; i < len - 5; i++) {
        char c = name[i];
        if (c == 'v') {
            if (i == 0 || name[i + 1] != 'K')
                return 0;
            sides++;
        } else if (strchr("KQRBNP", c)) {
            if (c == 'K' && i > 0 && name[i - 1] != 'v')
                return 0;
            pieces++;
        } else {
            return 0;
        }
    }
    return sides == 1 && name[0] == 'K' && pieces >= 3 ? pieces : 0;
}

/* Checks one table file; returns NULL when it looks fine, else why not. */
static const char *check_table_file(const char *path, bool dtz, char *why, size_t n)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(why, n, "unreadable (%s)", strerror(errno));
        return why;
    }
    struct stat st;
    unsigned char head[4];
    const char *res = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        res = "not a regular file";
    } else if (st.st_size < TB_MIN_FILE_SIZE || (st.st_size & 63) != 16) {
        snprintf(why, n, "truncated or padded wrongly (%lld bytes)", (long long)st.st_size);
        res = why;
    } else if (read(fd, head, 4) != 4) {
        snprintf(why, n, "unreadable (%s)", strerror(errno));
        res = why;
    } else if (memcmp(head, dtz ? DTZ_MAGIC : WDL_MAGIC, 4)) {
        snprintf(why, n, "wrong magic number: not a Syzygy %s file", dtz ? "DTZ" : "WDL");
        res = why;
    }
    close(fd);
    return res;
}

/* A set of file names, to count each table file once across directories
 * (Fathom opens the first one it finds along the path). */
typedef struct {
    char (*names)[32];
    bool *good;
    int count, cap;
} NameSet;

static int nameset_find(const NameSet *s, const char *name)
{
    for (int i = 0; i < s->count; i++)
        if (!strcmp(s->names[i], name))
            return i;
    return -1;
}

static bool nameset_add(NameSet *s, const char *name, bool good)
{
    if (s->count == s->cap) {
        int cap = s->cap ? 2 * s->cap : 256;
        char (*nn)[32] = realloc(s->names, (size_t)cap * sizeof *nn);
        if (!nn)
            return false;
        s->names = nn;
        bool *ng = realloc(s->good, (size_t)cap * sizeof *ng);
        if (!ng)
            return false;
        s->good = ng;
        s->cap = cap;
    }
    size_t len = strlen(name);
    if (len >= sizeof s->names[0])
        return false;
    memcpy(s->names[s->count], name, len + 1);
    s->good[s->count++] = good;
    return true;
}

/* ---- Every table set up before the search threads probe ---- */

/* Fathom sets a table up (maps the file, reads its header) on the first
 * probe of its material. Debian's build has no locks (the library makes no
 * pthread call at all), so two search threads meeting a fresh table at once
 * race there: a crash seen with Threads 2. Every WDL table is therefore
 * probed once by tb_set_path(), while no search runs, in a position of its
 * material with no capture to make (a capture could answer the probe
 * without the table). DTZ tables are probed only at the root, before the
 * helper threads start. */
static int tables_set_up;

static bool quiet_position(const char *name, uint64_t *seed, Position *pos)
{
    for (int attempt = 0; attempt < 1000; attempt++) {
        if (!pos_set_random(pos, name, WHITE, seed))
            continue; /* a side not to move in check, kings side by side */
        MoveList l;
        gen_noisy(pos, &l);
        bool capture = false;
        for (int i = 0; i < l.count; i++)
            if (MOVE_KIND(l.moves[i]) == MK_EP || pos->board[MOVE_TO(l.moves[i])] != EMPTY)
                capture = true;
        if (!capture)
            return true;
    }
    return false;
}

static int set_up_tables(const NameSet *s)
{
    int count = 0;
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    Position pos = {0};
    for (int i = 0; i < s->count; i++) {
        size_t len = strlen(s->names[i]);
        if (!s->good[i] || s->names[i][len - 1] != 'w')
            continue;
        if (quiet_position(s->names[i], &seed, &pos) && tb_probe_wdl_pos(&pos) >= 0)
            count++;
    }
    pos_free(&pos);
    return count;
}

int tb_tables_set_up(void) { return tables_set_up; }

/* tb_init() with stderr silenced: re-initialising makes Fathom print a
 * misleading "munmap: ..." line for every table it unmaps, and the files it
 * skips are reported by tb_set_path() itself. Only called with no search
 * running, so no other thread writes to stderr meanwhile. Debug and
 * sanitizer builds keep stderr. */
static void fathom_init(const char *paths)
{
#ifdef HEXE_DEBUG
    tb_init(paths); /* keep stderr: sanitizer reports go there */
#else
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int null = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0)
        dup2(null, STDERR_FILENO);
    tb_init(paths);
    fflush(stderr);
    if (saved >= 0 && null >= 0)
        dup2(saved, STDERR_FILENO);
    if (saved >= 0)
        close(saved);
    if (null >= 0)
        close(null);
#endif
}

bool tb_set_path(const char *paths, char *msg, size_t n)
{
    Msg m = {msg, n, 0};
    if (msg && n)
        msg[0] = '\0';

    /* Nothing loaded while we look; Fathom's re-initialisation frees the old
     * tables itself (tb_free() would leave Fathom unusable). */
    tb_largest = tables_set_up = 0;
    if (!paths || !*paths || !strcmp(paths, "<empty>")) {
        fathom_init("");
        msg_add(&m, "tablebases off");
        return true;
    }

    char *copy = strdup(paths), *clean = calloc(strlen(paths) + 1, 1);
    if (!copy || !clean) {
        free(copy);
        free(clean);
        fathom_init("");
        msg_add(&m, "out of memory");
        return false;
    }
    NameSet seen = {0};
    int nwdl = 0, ndtz = 0, nbad = 0, maxp = 0, ndirs = 0;
    Msg warn = {malloc(2048), 2048, 0};
    if (warn.buf)
        warn.buf[0] = '\0';

    for (char *dir = copy, *next; dir; dir = next) {
        next = strchr(dir, ':');
        if (next)
            *next++ = '\0';
        if (!*dir)
            continue;
        ndirs++;
        struct stat st;
        if (stat(dir, &st) != 0) {
            msg_add(&warn, "; directory '%s' %s", dir,
                    errno == ENOENT ? "does not exist" : strerror(errno));
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            msg_add(&warn, "; '%s' is not a directory", dir);
            continue;
        }
        DIR *d = opendir(dir);
        if (!d) {
            msg_add(&warn, "; directory '%s' is not readable (%s)", dir, strerror(errno));
            continue;
        }
        if (*clean)
            strcat(clean, ":");
        strcat(clean, dir);
        int here = 0;
        for (struct dirent *e; (e = readdir(d));) {
            bool dtz;
            int pieces = table_name_pieces(e->d_name, &dtz);
            if (!pieces || strlen(e->d_name) >= 32)
                continue;
            here++;
            if (nameset_find(&seen, e->d_name) >= 0)
                continue; /* shadowed by the copy in an earlier directory */
            char path[PATH_MAX], why[96];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            const char *bad = check_table_file(path, dtz, why, sizeof why);
            nameset_add(&seen, e->d_name, !bad);
            if (bad) {
                if (nbad++ < 8)
                    msg_add(&warn, "; bad file %s: %s", path, bad);
                continue;
            }
            if (dtz)
                ndtz++;
            else
                nwdl++;
            if (pieces > maxp)
                maxp = pieces;
        }
        closedir(d);
        if (!here)
            msg_add(&warn, "; '%s' holds no .rtbw/.rtbz files", dir);
    }
    if (nbad > 8)
        msg_add(&warn, "; %d more bad files", nbad - 8);

    /* WDL files whose DTZ partner is missing or bad. */
    int nodtz = 0;
    for (int i = 0; i < seen.count; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s", seen.names[i]);
        size_t len = strlen(name);
        if (!seen.good[i] || name[len - 1] != 'w')
            continue;
        name[len - 1] = 'z';
        int j = nameset_find(&seen, name);
        if (j < 0 || !seen.good[j])
            nodtz++;
    }

    /* Fathom gets only the readable directories: it reads past its buffer on
     * an empty component ("a::b", a trailing ':'). It skips files of a wrong
     * size itself (printing a line of its own); a file with a wrong magic
     * number makes the probes of that material fail, which every caller
     * handles as "not in the tables". */
    fathom_init(clean);
    bool ok = TB_LARGEST > 0 && nwdl > 0;
    tb_largest = ok ? (int)TB_LARGEST : 0;
    tables_set_up = ok ? set_up_tables(&seen) : 0;

    const char *warnings = warn.buf && warn.len > 2 ? warn.buf + 2 : NULL;
    if (ndirs == 0) {
        msg_add(&m, "no directory in the tablebase path '%s'; tablebases off", paths);
    } else if (!ok) {
        msg_add(&m, "no usable tablebase files in '%s'", paths);
        if (warnings)
            msg_add(&m, " (%s)", warnings);
        msg_add(&m, "; tablebases off");
    } else {
        msg_add(&m, "found %d tablebase file%s (%d WDL, %d DTZ), up to %d pieces", nwdl + ndtz,
                nwdl + ndtz == 1 ? "" : "s", nwdl, ndtz, tb_largest);
        if (nodtz)
            msg_add(&m, "; warning: %d WDL table%s without a usable DTZ table (root moves then ranked by WDL only)",
                    nodtz, nodtz == 1 ? "" : "s");
        if (warnings)
            msg_add(&m, "; warning: %s", warnings);
        if (maxp > tb_largest)
            msg_add(&m, "; warning: files with up to %d pieces, but Fathom uses only up to %d", maxp, tb_largest);
    }

    free(warn.buf);
    free(seen.names);
    free(seen.good);
    free(copy);
    free(clean);
    return ok;
}

int tb_max_pieces(void)
{
    return tb_largest;
}

static bool dir_has_tables(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));) {
        bool dtz;
        found = table_name_pieces(e->d_name, &dtz) && !dtz;
    }
    closedir(d);
    return found;
}

bool tb_default_path(char *out, size_t n)
{
    char exe[4096], dir[4200];
    for (int up = 0; up < 4; up++) {
        if (!exe_dir(up, exe, sizeof exe))
            return false;
        snprintf(dir, sizeof dir, "%s/tablebases", exe);
        if (dir_has_tables(dir)) {
            if (strlen(dir) >= n)
                return false;
            memcpy(out, dir, strlen(dir) + 1);
            return true;
        }
    }
    return false;
}

/* ---- Positions and moves ---- */

void tb_boards(const Position *pos, TbBoards *b)
{
    memset(b, 0, sizeof *b);
    for (int c = WHITE; c <= BLACK; c++) {
        uint64_t *side = c == WHITE ? &b->white : &b->black;
        for (int i = 0; i < pos->npieces[c]; i++) {
            int sq = pos->pieces[c][i];
            uint64_t bit = 1ULL << SQ64(sq);
            *side |= bit;
            switch (PTYPE(pos->board[sq])) {
            case KING: b->kings |= bit; break;
            case QUEEN: b->queens |= bit; break;
            case ROOK: b->rooks |= bit; break;
            case BISHOP: b->bishops |= bit; break;
            case KNIGHT: b->knights |= bit; break;
            default: break;
            }
        }
        for (int i = 0; i < pos->npawns[c]; i++) {
            uint64_t bit = 1ULL << SQ64(pos->pawns[c][i]);
            *side |= bit;
            b->pawns |= bit;
        }
    }
    b->ep = pos->ep == NO_SQ ? 0 : (unsigned)SQ64(pos->ep);
    b->rule50 = (unsigned)(pos->halfmove < 100 ? pos->halfmove : 100);
    b->turn = pos->side == WHITE;
}

static int piece_count(const Position *pos)
{
    return pos->npieces[WHITE] + pos->npieces[BLACK] + pos->npawns[WHITE] + pos->npawns[BLACK];
}

int tb_probe_wdl_pos(const Position *pos)
{
    int largest = tb_largest;
    if (!largest || pos->castle || pos->halfmove || piece_count(pos) > largest)
        return -1;
    TbBoards b;
    tb_boards(pos, &b);
    unsigned r = tb_probe_wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                              b.pawns, 0, 0, b.ep, b.turn);
    return r == TB_RESULT_FAILED ? -1 : (int)r;
}

int tb_wdl_score(int wdl, int ply, bool rule50)
{
    int win = TB_WIN_SCORE - TB_MAX_DTZ - ply;
    switch (wdl) {
    case TB_WIN: return win;
    case TB_CURSED_WIN: return rule50 ? 0 : win;
    case TB_BLESSED_LOSS: return rule50 ? 0 : -win;
    case TB_LOSS: return -win;
    default: return 0;
    }
}

/* Index of the root move with Fathom's from/to/promotion, or -1. */
static int find_move(const TbRootResult *r, unsigned from, unsigned to, unsigned promotes)
{
    int promo = promotes == TB_PROMOTES_NONE ? 0 : 6 - (int)promotes; /* 1 Q .. 4 N -> QUEEN .. KNIGHT */
    for (int i = 0; i < r->count; i++) {
        Move mv = r->moves[i].move;
        int mpromo = MOVE_KIND(mv) == MK_PROMO ? MOVE_PROMO(mv) : 0;
        if ((unsigned)(mv & 63) == to && (unsigned)((mv >> 6) & 63) == from && mpromo == promo)
            return i;
    }
    return -1;
}

/* Has a position repeated since the last capture or pawn move? Fathom then
 * ranks wins that are not sure to beat the 50-move rule lower. */
static bool repeated_since_zeroing(const Position *pos)
{
    int back = pos->halfmove < pos->hply ? pos->halfmove : pos->hply;
    for (int i = 0; i <= back; i++) {
        uint64_t ki = i == 0 ? pos->key : pos->hist[pos->hply - i].key;
        for (int j = i + 4; j <= back; j += 2)
            if (pos->hist[pos->hply - j].key == ki)
                return true;
    }
    return false;
}

/* wdl folded to TB_WIN, TB_DRAW or TB_LOSS. */
static int fold(int wdl, bool rule50)
{
    if (wdl == TB_WIN || (wdl == TB_CURSED_WIN && !rule50))
        return TB_WIN;
    if (wdl == TB_LOSS || (wdl == TB_BLESSED_LOSS && !rule50))
        return TB_LOSS;
    return TB_DRAW;
}

static int signed_dtz(int wdl, unsigned dtz)
{
    return wdl > TB_DRAW ? (int)dtz : wdl < TB_DRAW ? -(int)dtz : 0;
}

/* Replies' DTZ after a winning zeroing move, for tie-breaks (0: unknown). */
static int reply_dtz(Position *tmp, Move mv)
{
    make_move(tmp, mv);
    TbBoards b;
    tb_boards(tmp, &b);
    unsigned res = tb_probe_root(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                                 b.pawns, 0, 0, b.ep, b.turn, NULL);
    unmake_move(tmp);
    if (res == TB_RESULT_FAILED || res == TB_RESULT_CHECKMATE || res == TB_RESULT_STALEMATE)
        return 0;
    return (int)TB_GET_DTZ(res);
}

bool tb_probe_root_moves(const Position *pos, bool rule50, TbRootResult *out)
{
    /* Too big for a thread's stack; the root probe is single-threaded anyway. */
    static struct TbRootMoves rm;
    static unsigned results[TB_MAX_MOVES];

    out->count = 0;
    out->best = MOVE_NONE;
    out->score = 0;
    if (!tb_largest || pos->castle || piece_count(pos) > tb_largest)
        return false;
    MoveList legal;
    gen_legal(pos, &legal);
    if (legal.count == 0)
        return false;

    Position tmp = {0};
    pos_copy(&tmp, pos);
    out->count = legal.count;
    for (int i = 0; i < legal.count; i++) {
        TbRootMove *m = &out->moves[i];
        Move mv = legal.moves[i];
        memset(m, 0, sizeof *m);
        m->move = mv;
        m->zeroing = pos->board[MOVE_TO(mv)] != EMPTY || PTYPE(pos->board[MOVE_FROM(mv)]) == PAWN;
        make_move(&tmp, mv);
        MoveList replies;
        gen_legal(&tmp, &replies);
        m->mate = replies.count == 0 && in_check(&tmp);
        unmake_move(&tmp);
    }

    TbBoards b;
    tb_boards(pos, &b);
    bool ok = true;

    /* 1. WDL and DTZ of the root and of every move (Fathom's DTZ root probe). */
    unsigned res = tb_probe_root(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                                 b.pawns, b.rule50, 0, b.ep, b.turn, results);
    out->dtz_ok = res != TB_RESULT_FAILED && res != TB_RESULT_CHECKMATE && res != TB_RESULT_STALEMATE;
    if (out->dtz_ok) {
        out->wdl = (int)TB_GET_WDL(res);
        out->dtz = signed_dtz(out->wdl, TB_GET_DTZ(res));
        int found = 0;
        for (int k = 0; k < TB_MAX_MOVES && results[k] != TB_RESULT_FAILED; k++) {
            int i = find_move(out, TB_GET_FROM(results[k]), TB_GET_TO(results[k]), TB_GET_PROMOTES(results[k]));
            if (i < 0) {
                ok = false;
                break;
            }
            out->moves[i].wdl = (int)TB_GET_WDL(results[k]);
            out->moves[i].dtz = signed_dtz(out->moves[i].wdl, TB_GET_DTZ(results[k]));
            found++;
        }
        ok = ok && found == out->count;
    }

    /* 2. Fathom's ranks and scores: from the DTZ tables, or from the WDL
     * tables when DTZ ones are missing. */
    bool repeated = repeated_since_zeroing(pos);
    int got = ok && out->dtz_ok
                  ? tb_probe_root_dtz(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                                      b.pawns, b.rule50, 0, b.ep, b.turn, repeated, rule50, &rm)
                  : 0;
    if (ok && !got) {
        out->dtz_ok = false;
        got = tb_probe_root_wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                                b.pawns, b.rule50, 0, b.ep, b.turn, rule50, &rm);
    }
    ok = ok && got && (int)rm.size == out->count;
    out->best_rank = -1000000;
    for (unsigned k = 0; ok && k < rm.size; k++) {
        TbMove tm = rm.moves[k].move;
        int i = find_move(out, TB_MOVE_FROM(tm), TB_MOVE_TO(tm), TB_MOVE_PROMOTES(tm));
        if (i < 0) {
            ok = false;
            break;
        }
        out->moves[i].tb_rank = rm.moves[k].tbRank;
        out->moves[i].tb_score = rm.moves[k].tbScore;
        if (rm.moves[k].tbRank > out->best_rank)
            out->best_rank = rm.moves[k].tbRank;
    }

    /* 3. Without DTZ tables: each move's WDL from the WDL table of the
     * position it leads to (the halfmove clock cannot be counted then). */
    if (ok && !out->dtz_ok) {
        out->wdl = TB_LOSS;
        out->dtz = 0;
        for (int i = 0; ok && i < out->count; i++) {
            TbRootMove *m = &out->moves[i];
            make_move(&tmp, m->move);
            TbBoards c;
            tb_boards(&tmp, &c);
            unsigned w = tb_probe_wdl(c.white, c.black, c.kings, c.queens, c.rooks, c.bishops, c.knights,
                                      c.pawns, 0, 0, c.ep, c.turn);
            unmake_move(&tmp);
            ok = w != TB_RESULT_FAILED;
            m->wdl = ok ? TB_WIN - (int)w : TB_DRAW;
            m->dtz = 0;
            if (m->wdl > out->wdl)
                out->wdl = m->wdl;
        }
    }

    /* 4. Tie-break data for winning zeroing moves. */
    if (ok && out->dtz_ok && fold(out->wdl, rule50) == TB_WIN) {
        int nzero = 0;
        for (int i = 0; i < out->count; i++)
            nzero += out->moves[i].zeroing && out->moves[i].wdl == TB_WIN && !out->moves[i].mate;
        for (int i = 0; nzero > 1 && i < out->count; i++) {
            TbRootMove *m = &out->moves[i];
            if (m->zeroing && m->wdl == TB_WIN && !m->mate)
                m->reply_dtz = reply_dtz(&tmp, m->move);
        }
    }
    pos_free(&tmp);
    if (!ok) {
        out->count = 0;
        return false;
    }
    tb_pick_root_move(out, rule50);
    return true;
}

/* Is a a better choice than b, both keeping the root result `result`? */
static bool better(const TbRootMove *a, const TbRootMove *b, int result)
{
    if (a->wdl != b->wdl)
        return a->wdl > b->wdl;
    if (result == TB_WIN || a->wdl > TB_DRAW) {
        if (a->mate != b->mate)
            return a->mate;
        if (a->dtz != b->dtz && a->dtz > 0 && b->dtz > 0)
            return a->dtz < b->dtz;
        if (a->zeroing != b->zeroing)
            return a->zeroing;
        if (a->zeroing && a->reply_dtz != b->reply_dtz && a->reply_dtz > 0 && b->reply_dtz > 0)
            return a->reply_dtz < b->reply_dtz;
        return false;
    }
    if (a->wdl < TB_DRAW) /* losing, or a blessed loss kept as a draw: resist longest */
        return a->dtz < b->dtz;
    return false;
}

Move tb_pick_root_move(TbRootResult *r, bool rule50)
{
    r->best = MOVE_NONE;
    r->score = 0;
    if (r->count == 0)
        return MOVE_NONE;
    int result = TB_LOSS;
    for (int i = 0; i < r->count; i++)
        if (fold(r->moves[i].wdl, rule50) > result)
            result = fold(r->moves[i].wdl, rule50);
    r->result = result;
    int best = -1;
    for (int i = 0; i < r->count; i++) {
        TbRootMove *m = &r->moves[i];
        m->keeps = fold(m->wdl, rule50) == result;
        if (m->keeps && (best < 0 || better(m, &r->moves[best], result)))
            best = i;
    }
    const TbRootMove *b = &r->moves[best];
    int d = b->dtz < 0 ? -b->dtz : b->dtz;
    int dist = d == 0 || d > TB_MAX_DTZ ? TB_MAX_DTZ : d;
    r->best = b->move;
    r->score = result == TB_WIN ? TB_WIN_SCORE - dist : result == TB_LOSS ? -(TB_WIN_SCORE - dist) : 0;
    return r->best;
}
