/* test_tb.c - Syzygy probing through Fathom: WDL, DTZ, root move choice and
 * ranks against Fathom's own command-line prober (tests/data/tb/reference.txt,
 * written by make_ref.sh), bad table paths and files, the WDL-only fallback,
 * and the probe speed. Tables: $HEXE_SYZYGY, else $HEXE_TEST_DATA/syzygy (with
 * 5-piece tables), else the repository's 3-4-piece tablebases/; reference
 * positions with more pieces than the tables hold, and the 5-piece speed
 * test, are skipped and counted. */
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink, realpath, clock_gettime */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fen.h"
#include "movegen.h"
#include "position.h"
#include "syzygy/probe.h"
#include "syzygy/setup.h"
#include "zobrist.h"

#define REFERENCE "tests/data/tb/reference.txt"

static const char *tb_dir;
static char msg[4096];

static const char *WDL_NAMES[5] = {"Loss", "BlessedLoss", "Draw", "CursedWin", "Win"};

static int wdl_from_name(const char *s)
{
    for (int i = 0; i < 5; i++)
        if (!strcmp(s, WDL_NAMES[i]))
            return i;
    return -1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- Fathom's SAN -> our moves ---- */

/* The legal moves that a SAN token (as Fathom prints it: no check marks,
 * disambiguation by file and/or rank) can name; *n gets their number. */
static void san_moves(const Position *pos, const char *san, Move *out, int *n)
{
    MoveList l;
    gen_legal(pos, &l);
    *n = 0;
    char s[16];
    snprintf(s, sizeof s, "%s", san);
    size_t len = strlen(s);
    int promo = 0;
    if (len > 2 && s[len - 2] == '=') {
        const char *p = strchr("NBRQ", s[len - 1]);
        promo = p ? (int)(p - "NBRQ") + KNIGHT : -1;
        s[len -= 2] = '\0';
    }
    if (len < 2)
        return;
    int to = SQ(s[len - 2] - 'a', s[len - 1] - '1');
    s[len -= 2] = '\0';
    int type = PAWN;
    const char *p = s;
    if (*p && strchr("KQRBN", *p)) {
        type = (int)(strchr("NBRQK", *p) - "NBRQK") + KNIGHT;
        p++;
    }
    int ffile = -1, frank = -1;
    for (; *p; p++) {
        if (*p >= 'a' && *p <= 'h')
            ffile = *p - 'a';
        else if (*p >= '1' && *p <= '8')
            frank = *p - '1';
    }
    for (int i = 0; i < l.count; i++) {
        Move m = l.moves[i];
        int from = MOVE_FROM(m);
        int mpromo = MOVE_KIND(m) == MK_PROMO ? MOVE_PROMO(m) : 0;
        if (MOVE_TO(m) != to || PTYPE(pos->board[from]) != type || mpromo != promo)
            continue;
        if ((ffile >= 0 && FILE_OF(from) != ffile) || (frank >= 0 && RANK_OF(from) != frank))
            continue;
        out[(*n)++] = m;
    }
}

/* ---- One reference line ---- */

typedef struct {
    char fen[128];
    int wdl, dtz;
    char lists[3][1024]; /* winning, drawing, losing */
    char ranks[4096];
} Ref;

static bool parse_ref(char *line, Ref *r)
{
    char *field[7];
    int nf = 0;
    for (char *p = line; nf < 7;) {
        field[nf++] = p;
        char *bar = strchr(p, '|');
        if (!bar)
            break;
        *bar = '\0';
        p = bar + 1;
    }
    if (nf != 7)
        return false;
    field[6][strcspn(field[6], "\r\n")] = '\0';
    snprintf(r->fen, sizeof r->fen, "%s", field[0]);
    r->wdl = wdl_from_name(field[1]);
    r->dtz = atoi(field[2]);
    for (int i = 0; i < 3; i++)
        snprintf(r->lists[i], sizeof r->lists[i], "%s", field[3 + i]);
    snprintf(r->ranks, sizeof r->ranks, "%s", field[6]);
    return r->wdl >= 0;
}

/* Which of Fathom's lists (0 win, 1 draw, 2 loss) holds each root move; -1
 * where none or (with an ambiguous SAN) more than one do. Returns the number
 * of moves named by the lists. */
static int classify(const Position *pos, const Ref *ref, const TbRootResult *r, int *cls)
{
    int named = 0;
    for (int i = 0; i < r->count; i++)
        cls[i] = -1;
    for (int li = 0; li < 3; li++) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", ref->lists[li]);
        for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
            Move ms[8];
            int n;
            san_moves(pos, t, ms, &n);
            named++;
            for (int k = 0; k < n; k++)
                for (int i = 0; i < r->count; i++)
                    if (r->moves[i].move == ms[k])
                        cls[i] = cls[i] == -1 && n == 1 ? li : -2;
        }
    }
    return named;
}

static int wdl_class(int wdl) /* Fathom's lists: win, draw (incl. cursed/blessed), loss */
{
    return wdl == TB_WIN ? 0 : wdl == TB_LOSS ? 2 : 1;
}

static const TbRootMove *find_root_move(const TbRootResult *r, Move m)
{
    for (int i = 0; i < r->count; i++)
        if (r->moves[i].move == m)
            return &r->moves[i];
    return NULL;
}

static int check_ranks(const Position *pos, const Ref *ref, const TbRootResult *r)
{
    char buf[4096];
    int bad = 0, n = 0;
    snprintf(buf, sizeof buf, "%s", ref->ranks);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        char *colon = strrchr(t, ':');
        if (!colon)
            return -1;
        *colon = '\0';
        Move ms[8];
        int k;
        san_moves(pos, t, ms, &k);
        const TbRootMove *m = k == 1 ? find_root_move(r, ms[0]) : NULL;
        if (k == 1 && (!m || m->tb_rank != atoi(colon + 1))) {
            printf("  rank of %s: %d, fathom %s\n", t, m ? m->tb_rank : -99999, colon + 1);
            bad++;
        }
        n++;
    }
    return n == r->count ? bad : -1;
}

static int n_positions, n_cursed, n_blessed, n_too_big;

static int fen_pieces(const char *fen)
{
    int n = 0;
    for (; *fen && *fen != ' '; fen++)
        n += (*fen >= 'a' && *fen <= 'z') || (*fen >= 'A' && *fen <= 'Z');
    return n;
}

static void check_reference_line(char *line, bool wdl_only)
{
    Ref ref;
    if (!parse_ref(line, &ref)) {
        CHECK(0, "bad reference line: %s", line);
        return;
    }
    Position pos = {0};
    char err[160], b1[8];
    if (!pos_set_fen(&pos, ref.fen, err, sizeof err)) {
        CHECK(0, "%s: %s", ref.fen, err);
        return;
    }
    const char *f = ref.fen;
    if (fen_pieces(f) > tb_max_pieces()) { /* no table for it here */
        n_too_big++;
        pos_free(&pos);
        return;
    }
    TbRootResult r;
    /* WDL tables cannot count the clock, and with only them a move's value is
     * read from the next position as if its clock were 0: one ply off at the
     * 50-move boundary, so cursed wins and blessed losses are left out. */
    if (wdl_only && (pos.halfmove || ref.wdl == TB_CURSED_WIN || ref.wdl == TB_BLESSED_LOSS)) {
        pos_free(&pos);
        return;
    }

    if (!wdl_only) {
        n_positions++;
        /* WDL probe: the halfmove clock must be 0. */
        int w = tb_probe_wdl_pos(&pos);
        if (pos.halfmove == 0)
            CHECK(w == ref.wdl, "%s: wdl %d, fathom %s", f, w, WDL_NAMES[ref.wdl]);
        else
            CHECK(w == -1, "%s: wdl probe with halfmove %d gave %d", f, pos.halfmove, w);
    }

    /* Root probe with the 50-move rule. */
    bool ok = tb_probe_root_moves(&pos, true, &r);
    CHECK(ok, "%s: root probe failed", f);
    if (!ok) {
        pos_free(&pos);
        return;
    }
    if (!wdl_only)
        CHECK(r.dtz_ok, "%s: dtz_ok %d", f, r.dtz_ok);
    /* else Fathom's DTZ probe may still succeed where no DTZ table is needed
     * (draws, wins by a capture or pawn move) */
    CHECK(r.wdl == ref.wdl, "%s: root wdl %s, fathom %s", f, WDL_NAMES[r.wdl], WDL_NAMES[ref.wdl]);
    if (!wdl_only)
        CHECK(abs(r.dtz) == ref.dtz && (r.dtz > 0) == (ref.wdl > TB_DRAW),
              "%s: root dtz %d, fathom %d", f, r.dtz, ref.dtz);

    int cls[MAX_MOVES];
    int named = classify(&pos, &ref, &r, cls);
    int bad = 0;
    for (int i = 0; i < r.count; i++)
        if (cls[i] != -2 && (cls[i] < 0 || wdl_class(r.moves[i].wdl) != cls[i])) {
            printf("  %s: move %s in list %d, ours wdl %d\n", f, move_to_uci(r.moves[i].move, false, b1), cls[i],
                   r.moves[i].wdl);
            bad++;
        }
    CHECK(bad == 0 && named == r.count, "%s: %d moves classified differently (%d named, %d legal)", f, bad, named,
          r.count);
    if (!wdl_only)
        CHECK(check_ranks(&pos, &ref, &r) == 0, "%s: ranks differ from Fathom's", f);

    /* The choice: keeps the result; DTZ-optimal when winning, longest
     * resistance when losing; the score matches. */
    const TbRootMove *best = find_root_move(&r, r.best);
    CHECK(best != NULL, "%s: no move chosen", f);
    if (!best) {
        pos_free(&pos);
        return;
    }
    int bi = (int)(best - r.moves);
    int want_class = wdl_class(ref.wdl);
    if (cls[bi] != -2)
        CHECK(cls[bi] == want_class, "%s: chose %s from Fathom's list %d, wanted list %d", f,
              move_to_uci(r.best, false, b1), cls[bi], want_class);
    int result = ref.wdl == TB_WIN ? TB_WIN : ref.wdl == TB_LOSS ? TB_LOSS : TB_DRAW;
    CHECK(r.result == result, "%s: result %d, want %d", f, r.result, result);
    if (!wdl_only && result != TB_DRAW) {
        int extreme = best->dtz;
        for (int i = 0; i < r.count; i++)
            if (r.moves[i].keeps && r.moves[i].dtz < extreme) /* smallest win, longest loss */
                extreme = r.moves[i].dtz;
        CHECK(best->dtz == extreme, "%s: chose dtz %d, best is %d", f, best->dtz, extreme);
        CHECK(abs(best->dtz) == ref.dtz || (best->mate && ref.dtz <= 2),
              "%s: chosen move's dtz %d, root dtz %d", f, best->dtz, ref.dtz);
        int want = TB_WIN_SCORE - abs(best->dtz);
        CHECK(r.score == (result == TB_WIN ? want : -want), "%s: score %d", f, r.score);
    } else if (result == TB_DRAW) {
        CHECK(r.score == 0, "%s: draw score %d", f, r.score);
    } else if (!r.dtz_ok) {
        CHECK(abs(r.score) == TB_WIN_SCORE - TB_MAX_DTZ, "%s: WDL-only score %d", f, r.score);
    }

    /* Without the 50-move rule a cursed win is a win, a blessed loss a loss. */
    TbRootResult r2;
    CHECK(tb_probe_root_moves(&pos, false, &r2), "%s: root probe (no 50-move rule) failed", f);
    int result2 = ref.wdl > TB_DRAW ? TB_WIN : ref.wdl < TB_DRAW ? TB_LOSS : TB_DRAW;
    CHECK(r2.result == result2, "%s: result without 50-move rule %d, want %d", f, r2.result, result2);
    const TbRootMove *best2 = find_root_move(&r2, r2.best);
    CHECK(best2 && (result2 == TB_WIN ? best2->wdl > TB_DRAW : result2 == TB_LOSS ? best2->wdl < TB_DRAW : best2->wdl == TB_DRAW),
          "%s: move chosen without 50-move rule has wdl %d", f, best2 ? best2->wdl : -1);
    if (!wdl_only && ref.wdl == TB_CURSED_WIN) {
        n_cursed++;
        CHECK(r.result == TB_DRAW && r.score == 0, "%s: cursed win with the 50-move rule: result %d score %d", f,
              r.result, r.score);
        CHECK(r2.result == TB_WIN && r2.score > TB_WIN_BOUND && r2.score < TB_WIN_SCORE && best2 &&
                  best2->wdl == TB_CURSED_WIN,
              "%s: cursed win without the 50-move rule: result %d score %d", f, r2.result, r2.score);
    }
    if (!wdl_only && ref.wdl == TB_BLESSED_LOSS) {
        n_blessed++;
        CHECK(r.result == TB_DRAW && r.score == 0, "%s: blessed loss with the 50-move rule: %d %d", f, r.result,
              r.score);
        CHECK(r2.result == TB_LOSS && r2.score < -TB_WIN_BOUND, "%s: blessed loss without the 50-move rule: %d %d", f,
              r2.result, r2.score);
    }
    pos_free(&pos);
}

static int run_reference(bool wdl_only)
{
    FILE *in = fopen(REFERENCE, "r");
    CHECK(in != NULL, "cannot open %s (run from the repository root)", REFERENCE);
    if (!in)
        return 0;
    char line[16384];
    int n = 0;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        check_reference_line(line, wdl_only);
        n++;
    }
    fclose(in);
    return n;
}

/* ---- Set-up, bad paths and files ---- */

static bool set(const char *path)
{
    bool ok = tb_set_path(path, msg, sizeof msg);
    printf("  tb_set_path(\"%s\") -> %d: %s\n", path ? path : "(null)", ok, msg);
    return ok;
}

static int probe_fen(const char *fen)
{
    Position pos = {0};
    char err[160];
    if (!pos_set_fen(&pos, fen, err, sizeof err))
        return -99;
    int w = tb_probe_wdl_pos(&pos);
    pos_free(&pos);
    return w;
}

static bool copy_file(const char *from, const char *to, long limit, bool spoil_magic)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    if (!out) {
        if (in)
            fclose(in);
        return false;
    }
    char buf[4096];
    long total = 0;
    size_t k;
    while ((limit < 0 || total < limit) &&
           (k = fread(buf, 1, limit < 0 || limit - total > (long)sizeof buf ? sizeof buf : (size_t)(limit - total), in)) > 0) {
        if (spoil_magic && total == 0)
            memset(buf, 0x42, 4);
        fwrite(buf, 1, k, out);
        total += (long)k;
    }
    fclose(in);
    return fclose(out) == 0;
}

static void rm_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char path[1024];
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

#define KQVK "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"
#define KRVK "R7/8/7k/K7/8/8/8/8 w - - 0 1"

static void test_paths(void)
{
    char path[1024], src[1024], dir[64];

    /* Off. */
    CHECK(set("") && tb_max_pieces() == 0 && probe_fen(KQVK) == -1, "empty path: %s", msg);
    CHECK(set("<empty>") && tb_max_pieces() == 0 && strstr(msg, "off"), "<empty>: %s", msg);
    CHECK(set(NULL) && tb_max_pieces() == 0, "NULL path: %s", msg);

    /* Missing directory. */
    CHECK(!set("/nonexistent/hexe-syzygy") && strstr(msg, "does not exist") && tb_max_pieces() == 0 &&
              probe_fen(KQVK) == -1,
          "missing directory: %s", msg);
    CHECK(!set(":") && tb_max_pieces() == 0, "path ':': %s", msg);
    CHECK(!set(REFERENCE) && strstr(msg, "not a directory"), "a file as directory: %s", msg);

    /* Empty directory. */
    snprintf(dir, sizeof dir, "/tmp/hexe-tb-XXXXXX");
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    CHECK(!set(dir) && strstr(msg, "holds no .rtbw") && tb_max_pieces() == 0, "empty directory: %s", msg);

    /* A truncated table: the first 100 bytes of KRvK.rtbw. */
    snprintf(src, sizeof src, "%s/KRvK.rtbw", tb_dir);
    snprintf(path, sizeof path, "%s/KRvK.rtbw", dir);
    CHECK(copy_file(src, path, 100, false), "copy %s", src);
    CHECK(!set(dir) && strstr(msg, "KRvK.rtbw") && strstr(msg, "truncated") && tb_max_pieces() == 0 &&
              probe_fen(KRVK) == -1,
          "truncated table: %s", msg);

    /* A wrong magic number (right size), next to a good KQvK.rtbw: KQvK
     * works, KRvK probes fail cleanly. */
    CHECK(copy_file(src, path, -1, true), "copy %s", src);
    snprintf(src, sizeof src, "%s/KQvK.rtbw", tb_dir);
    snprintf(path, sizeof path, "%s/KQvK.rtbw", dir);
    CHECK(copy_file(src, path, -1, false), "copy %s", src);
    CHECK(set(dir) && strstr(msg, "wrong magic") && strstr(msg, "KRvK.rtbw") && strstr(msg, "found 1 tablebase file") &&
              tb_max_pieces() == 3,
          "wrong magic: %s", msg);
    CHECK(probe_fen(KQVK) == TB_WIN, "KQvK next to a bad KRvK: %d", probe_fen(KQVK));
    CHECK(probe_fen(KRVK) == -1, "KRvK with a bad magic number: %d", probe_fen(KRVK));
    Position pos = {0};
    char err[160];
    TbRootResult r;
    pos_set_fen(&pos, KRVK, err, sizeof err);
    CHECK(!tb_probe_root_moves(&pos, true, &r), "root probe of a corrupt table succeeded");
    pos_set_fen(&pos, KQVK, err, sizeof err);
    CHECK(tb_probe_root_moves(&pos, true, &r) && !r.dtz_ok && r.result == TB_WIN && r.score == TB_WIN_SCORE - TB_MAX_DTZ,
          "KQvK root probe from its WDL table alone");

    /* Unreadable directory (not testable as root). */
    if (geteuid() != 0) {
        chmod(dir, 0);
        CHECK(!set(dir) && strstr(msg, "not readable"), "unreadable directory: %s", msg);
        chmod(dir, 0700);
    }
    rm_dir(dir);

    /* Back to the real tables, several times, and with a missing directory in front. */
    for (int i = 0; i < 3; i++)
        CHECK(set(tb_dir) && tb_max_pieces() >= 4 && probe_fen(KQVK) == TB_WIN, "real path again: %s", msg);
    snprintf(path, sizeof path, "/nonexistent/hexe-syzygy:%s", tb_dir);
    CHECK(set(path) && strstr(msg, "warning") && strstr(msg, "does not exist") && probe_fen(KQVK) == TB_WIN,
          "missing + real directory: %s", msg);
    /* Empty components (Fathom itself reads out of bounds on them). */
    snprintf(path, sizeof path, "::%s:", tb_dir);
    CHECK(set(path) && !strstr(msg, "warning") && probe_fen(KQVK) == TB_WIN, "empty path components: %s", msg);
    /* The same directory twice: each file counted once. */
    snprintf(path, sizeof path, "%s:%s", tb_dir, tb_dir);
    CHECK(set(path) && probe_fen(KQVK) == TB_WIN, "directory twice: %s", msg);
    char once[sizeof msg];
    snprintf(once, sizeof once, "%s", msg);
    CHECK(set(tb_dir) && strstr(msg, "found ") && !strstr(msg, "warning") && !strcmp(msg, once),
          "real path: %s (twice: %s)", msg, once);

    /* Not probe-able: castling rights, too many pieces, halfmove clock. */
    pos_set_fen(&pos, "r3k3/8/8/8/8/8/8/4K3 b q - 0 1", err, sizeof err);
    CHECK(tb_probe_wdl_pos(&pos) == -1 && !tb_probe_root_moves(&pos, true, &r), "castling rights probed");
    pos_set_fen(&pos, "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1", err, sizeof err); /* 5 pieces, no table */
    CHECK(tb_probe_wdl_pos(&pos) == -1 && !tb_probe_root_moves(&pos, true, &r), "KPPPvK probed");
    pos_set_fen(&pos, "4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1", err, sizeof err);
    CHECK(tb_probe_wdl_pos(&pos) == -1 && !tb_probe_root_moves(&pos, true, &r), "6 pieces probed");
    pos_set_fen(&pos, "8/8/8/8/8/2k5/8/KQ6 w - - 1 1", err, sizeof err);
    CHECK(tb_probe_wdl_pos(&pos) == -1, "halfmove 1 probed");
    pos_set_fen(&pos, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", err, sizeof err); /* checkmated */
    CHECK(tb_probe_wdl_pos(&pos) == TB_LOSS && !tb_probe_root_moves(&pos, true, &r), "checkmate");
    pos_set_fen(&pos, "k7/8/1QK5/8/8/8/8/8 b - - 0 1", err, sizeof err); /* stalemate */
    CHECK(tb_probe_wdl_pos(&pos) == TB_DRAW && !tb_probe_root_moves(&pos, true, &r), "stalemate");
    pos_set_fen(&pos, "8/8/8/8/8/2k5/8/K7 w - - 0 1", err, sizeof err); /* KvK */
    CHECK(tb_probe_wdl_pos(&pos) == TB_DRAW, "KvK");

    /* Bitboards, ep square and side. */
    TbBoards b;
    pos_set_fen(&pos, "8/8/8/8/3Pp3/8/8/K6k b - d3 0 1", err, sizeof err);
    tb_boards(&pos, &b);
    CHECK(b.white == ((1ULL << 0) | (1ULL << 27)) && b.black == ((1ULL << 7) | (1ULL << 28)) &&
              b.kings == ((1ULL << 0) | (1ULL << 7)) && b.pawns == ((1ULL << 27) | (1ULL << 28)) &&
              !b.queens && !b.rooks && !b.bishops && !b.knights && b.ep == 19 && !b.turn,
          "bitboards of KPvKP: w %llx b %llx ep %u", (unsigned long long)b.white, (unsigned long long)b.black, b.ep);
    pos_set_fen(&pos, "1nbqr3/8/8/8/8/8/8/K6k w - - 7 1", err, sizeof err);
    tb_boards(&pos, &b);
    CHECK(b.knights == 1ULL << 57 && b.bishops == 1ULL << 58 && b.queens == 1ULL << 59 && b.rooks == 1ULL << 60 &&
              b.ep == 0 && b.turn && b.rule50 == 7,
          "bitboards of pieces");

    /* Two winning captures (both DTZ 1): the one that leaves the opponent
     * less time wins. Fathom's CLI: after Rd1xd4 DTZ 6, after Ra4xd4 DTZ 8. */
    if (tb_max_pieces() >= 5) { /* KRRvKR */
        pos_set_fen(&pos, "8/8/7k/8/R2r4/8/8/3R2K1 w - - 0 1", err, sizeof err);
        CHECK(tb_probe_root_moves(&pos, true, &r), "two captures: root probe");
        const TbRootMove *c1 = find_root_move(&r, parse_move(&pos, "d1d4"));
        const TbRootMove *c2 = find_root_move(&r, parse_move(&pos, "a4d4"));
        CHECK(c1 && c2 && c1->dtz == 1 && c2->dtz == 1 && c1->reply_dtz == 6 && c2->reply_dtz == 8 &&
                  r.best == c1->move && r.score == TB_WIN_SCORE - 1,
              "two captures: chose %s", move_to_uci(r.best, false, err));
    } else {
        SKIP(2, "two winning captures in KRRvKR (5-piece tables: $HEXE_TEST_DATA/syzygy)");
    }
    /* A mate in one goes before everything else. */
    pos_set_fen(&pos, "7k/8/6K1/8/8/8/8/R6r w - - 0 1", err, sizeof err);
    CHECK(tb_probe_root_moves(&pos, true, &r) && r.best == parse_move(&pos, "a1a8"), "mate in one: chose %s",
          move_to_uci(r.best, false, err));

    /* Repetition since the last zeroing move: wins no longer ranked as sure. */
    pos_set_fen(&pos, KQVK, err, sizeof err);
    CHECK(tb_probe_root_moves(&pos, true, &r) && r.best_rank == 1000, "KQvK best rank %d", r.best_rank);
    const char *cycle[] = {"a1a2", "c3c4", "a2a1", "c4c3"};
    for (int i = 0; i < 4; i++)
        make_move(&pos, parse_move(&pos, cycle[i]));
    CHECK(tb_probe_root_moves(&pos, true, &r) && r.best_rank < 1000 && r.best_rank >= 900 && r.result == TB_WIN,
          "KQvK after a repetition: best rank %d result %d", r.best_rank, r.result);

    /* Scores. */
    CHECK(tb_wdl_score(TB_WIN, 3, true) == TB_WIN_SCORE - TB_MAX_DTZ - 3 && tb_wdl_score(TB_LOSS, 3, true) ==
              -(TB_WIN_SCORE - TB_MAX_DTZ - 3) && tb_wdl_score(TB_CURSED_WIN, 3, true) == 0 &&
              tb_wdl_score(TB_CURSED_WIN, 3, false) > TB_WIN_BOUND && tb_wdl_score(TB_BLESSED_LOSS, 3, true) == 0 &&
              tb_wdl_score(TB_BLESSED_LOSS, 3, false) < -TB_WIN_BOUND && tb_wdl_score(TB_DRAW, 3, false) == 0 &&
              tb_wdl_score(TB_WIN, MAX_PLY, true) >= TB_WIN_BOUND,
          "tb_wdl_score");
    pos_free(&pos);
}

/* The repository's tablebases/ directory, found from the test binary. */
static void test_default_path(void)
{
    char dir[1024];
    struct stat st;
    if (stat("tablebases/KQvK.rtbw", &st) != 0) {
        printf("  no tablebases/ in the repository: default path not tested\n");
        return;
    }
    CHECK(tb_default_path(dir, sizeof dir) && strstr(dir, "/tablebases"), "default path not found");
    CHECK(set(dir) && tb_max_pieces() == 4 && strstr(msg, "found 70 tablebase files (35 WDL, 35 DTZ)"),
          "repository tables: %s", msg);
    CHECK(probe_fen("1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1") == -1 && probe_fen(KRVK) == TB_WIN,
          "repository tables: KRvK / KRPvKR");
}

/* Only the WDL tables (links into the real directory): root moves ranked by WDL. */
static void test_wdl_only(void)
{
    char dir[64] = "/tmp/hexe-tbw-XXXXXX", abs_dir[PATH_MAX], from[PATH_MAX + 300], to[400];
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    DIR *d = opendir(tb_dir);
    int n = 0;
    CHECK(realpath(tb_dir, abs_dir) != NULL, "realpath %s", tb_dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".rtbw")) {
            snprintf(from, sizeof from, "%s/%s", abs_dir, e->d_name);
            snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
            n += symlink(from, to) == 0;
        }
    }
    if (d)
        closedir(d);
    CHECK(set(dir) && strstr(msg, "without a usable DTZ table"), "WDL-only directory (%d links): %s", n, msg);
    int too_big = n_too_big;
    int lines = run_reference(true);
    printf("  WDL-only root probes: %d positions\n", lines - (n_too_big - too_big));
    if (n_too_big > too_big)
        SKIP(n_too_big - too_big, "WDL-only reference positions with more than %d pieces", tb_max_pieces());
    rm_dir(dir);
    set(tb_dir);
}

/* ---- Speed ---- */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static unsigned rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 20);
}

/* A random legal position with the given material ("KRPvKR"), halfmove 0,
 * with at least one legal move. */
static bool random_position(Position *pos, const char *material)
{
    if (!pos_set_random(pos, material, rnd() & 1 ? WHITE : BLACK, &rng))
        return false;
    MoveList l;
    gen_legal(pos, &l);
    return l.count > 0; /* no mates or stalemates: the root probe wants a move */
}

static void test_speed(void)
{
    static const char *mats[] = {"KRPvKR", "KRBvKR", "KRNvKR", "KRRvKR", "KQRvKR"};
    enum { N = 5000 };
    static Position ps[N];
    int n = 0;
    while (n < N) {
        memset(&ps[n], 0, sizeof ps[n]);
        if (random_position(&ps[n], mats[n % 5]))
            n++;
        else
            pos_free(&ps[n]);
    }
    int fails = 0, counts[5] = {0};
    for (int i = 0; i < N; i++) { /* warm-up: maps the tables */
        int w = tb_probe_wdl_pos(&ps[i]);
        if (w < 0)
            fails++;
        else
            counts[w]++;
    }
    CHECK(fails == 0, "%d of %d 5-piece WDL probes failed", fails, N);
    printf("  5-piece positions: %d wins, %d cursed, %d draws, %d blessed, %d losses\n", counts[4], counts[3],
           counts[2], counts[1], counts[0]);
    long probes = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < N; i++)
            probes += tb_probe_wdl_pos(&ps[i]) >= 0;
        t = now() - t0;
    } while (t < 1.0);
    printf("  speed: %ld WDL probes of 5-piece positions in %.2f s = %.0f probes/s\n", probes, t, probes / t);

    /* Root probes: the first visit maps and decodes DTZ blocks (cold), later
     * ones find them in memory (warm). */
    enum { R = 100 };
    TbRootResult r;
    int roots = 0;
    for (int pass = 0; pass < 2; pass++) {
        t0 = now();
        for (int i = 0; i < R; i++) {
            bool ok = tb_probe_root_moves(&ps[i], true, &r);
            roots += ok;
            if (!ok && pass == 0) {
                char fen[128];
                printf("  root probe failed: %s\n", pos_get_fen(&ps[i], fen));
            }
        }
        t = now() - t0;
        printf("  speed: %d root probes (DTZ, %s) of 5-piece positions in %.3f s = %.2f ms each\n", R,
               pass ? "warm" : "cold", t, t * 1e3 / R);
    }
    CHECK(roots == 2 * R, "%d of %d root probes failed", 2 * R - roots, 2 * R);
    for (int i = 0; i < N; i++)
        pos_free(&ps[i]);
}

int main(void)
{
    zobrist_init();
    attack_init();
    static char data_dir[4096];
    tb_dir = getenv("HEXE_SYZYGY");
    if (!tb_dir || !*tb_dir)
        tb_dir = test_data_path("syzygy", data_dir, sizeof data_dir);
    if (!tb_dir)
        tb_dir = "tablebases";

    CHECK(set(tb_dir) && tb_max_pieces() >= 4, "cannot load the tables in %s: %s", tb_dir, msg);
    if (tb_max_pieces() < 4)
        return check_report("test_tb");
    /* Every WDL table was probed once on loading (Debian's Fathom has no locks). */
    int nwdl = 0;
    DIR *d = opendir(tb_dir);
    for (struct dirent *e; d && (e = readdir(d));)
        nwdl += strlen(e->d_name) > 5 && !strcmp(e->d_name + strlen(e->d_name) - 5, ".rtbw");
    if (d)
        closedir(d);
    CHECK(nwdl > 0 && tb_tables_set_up() == nwdl, "%d of %d WDL tables set up on loading", tb_tables_set_up(), nwdl);
    int lines = run_reference(false) - n_too_big;
    printf("  reference: %d positions (%d cursed wins, %d blessed losses) checked against Fathom\n", lines, n_cursed,
           n_blessed);
    if (n_too_big)
        SKIP(n_too_big, "reference positions with more than %d pieces (5-piece tables: $HEXE_TEST_DATA/syzygy)",
             tb_max_pieces());
    /* The 3-4-piece positions alone: 32, one cursed win, one blessed loss. */
    if (tb_max_pieces() >= 5)
        CHECK(lines >= 40 && n_cursed >= 2 && n_blessed >= 2, "too few reference positions: %d", lines);
    else
        CHECK(lines >= 30 && n_cursed >= 1 && n_blessed >= 1, "too few reference positions: %d", lines);

    test_paths();
    test_wdl_only();
    test_default_path();
    set(tb_dir);
    if (tb_max_pieces() >= 5)
        test_speed();
    else
        SKIP(3, "5-piece probe speed (5-piece tables: $HEXE_TEST_DATA/syzygy)");
    tb_set_path("", NULL, 0);
    return check_report("test_tb");
}
