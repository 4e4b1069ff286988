/* hexe.c - Hexe's own evaluation, built for strength: tapered middlegame and
 * endgame terms (weights in hexe_weights.c), a per-thread pawn-structure
 * cache, drawish-material scaling and knowledge of the basic won endings.
 *
 * Every term is gathered per side as an mg/eg pair; the sums are blended by
 * the game phase (non-pawn material, 24 = all of it on the board) after the
 * endgame part is scaled for drawish material:
 *
 *     score = (mg * phase + eg * (24 - phase) * scale / 64) / 24
 *
 * (where the stronger side has no pawns and can hardly win, the scale
 * applies to the mg part as well).
 * evaluate() and the trace run the same code, so the trace adds up exactly. */
#include "hexe.h"

#include <stdlib.h>
#include <string.h>

#include "../zobrist.h"
#include "evaluators.h"
#include "trace.h"

#define WT hexe_weights
#define SCALE_NORMAL 64
#define PHASE_MAX 24

/* The terms, as they appear in the trace. */
enum {
    T_MATERIAL, T_PST, T_MOBILITY,
    T_ISOLATED, T_DOUBLED, T_BACKWARD, T_CONNECTED, T_PASSED, /* the cached pawn terms, in this order */
    T_PASSED_FREE, T_PASSED_KING, T_UNSTOPPABLE,
    T_SHIELD, T_KING_ATTACK, T_BISHOP_PAIR, T_ROOKS, T_OUTPOSTS, T_THREATS, T_HANGING, T_TEMPO,
    T_KNOWN_WIN,
    NTERMS
};
#define NPAWN_TERMS (T_PASSED - T_ISOLATED + 1)

static const char *const term_name[NTERMS] = {
    "material", "piece-square", "mobility",
    "isolated pawns", "doubled pawns", "backward pawns", "connected pawns", "passed pawns",
    "passer free path", "passer king distance", "unstoppable passer",
    "king pawn shield", "king attackers", "bishop pair", "rooks (files, 7th)", "outposts", "threats",
    "hanging pieces", "tempo",
    "known win (bare king)",
};

/* Attacker kinds in the attack maps: one bit per piece type. */
enum { A_P = 1 << PAWN, A_N = 1 << KNIGHT, A_B = 1 << BISHOP, A_R = 1 << ROOK, A_Q = 1 << QUEEN, A_K = 1 << KING };
enum { AREA_OUT = 1, AREA_ZONE = 2 };

static const int knight_d[8] = {33, 31, 18, 14, -33, -31, -18, -14};
static const int dirs[8] = {16, -16, 1, -1, 15, 17, -15, -17}; /* rook 0-3, bishop 4-7 */

typedef struct {
    Score term[NTERMS][2];
    int phase;
    int scale, scale_mg; /* out of 64, for the endgame and the middlegame part */
    const char *scale_why;
    const char *special; /* what decided the score outright, or NULL */
    int mg, eg, white;
} HexeInfo;

/* ---- Small helpers ---- */

static inline int rel_rank(int c, int sq) { return c == WHITE ? RANK_OF(sq) : 7 - RANK_OF(sq); }

static inline int pst_index(int c, int sq) { return (c == WHITE ? 7 - RANK_OF(sq) : RANK_OF(sq)) * 8 + FILE_OF(sq); }

static inline int distance(int a, int b)
{
    int df = abs(FILE_OF(a) - FILE_OF(b)), dr = abs(RANK_OF(a) - RANK_OF(b));
    return df > dr ? df : dr;
}

static inline void add(Score *s, Score v)
{
    s->mg += v.mg;
    s->eg += v.eg;
}

static inline void add_times(Score *s, Score v, int n)
{
    s->mg += v.mg * n;
    s->eg += v.eg * n;
}

static inline bool light_square(int sq) { return ((FILE_OF(sq) + RANK_OF(sq)) & 1) != 0; }

/* ---- Pawn structure (cached per thread, keyed by the pawns alone) ---- */

typedef struct {
    uint64_t key;
    Score term[NPAWN_TERMS][2];
    uint8_t passed[2];     /* files holding a passed pawn */
    /* Per side and file+1 (0 and 9 are empty guards): the rank, seen from
     * that side, of its rearmost pawn (8 if none) and of its foremost (-1). */
    int8_t back[2][10], front[2][10];
} PawnEntry;

#define PAWN_CACHE_SIZE 1024 /* a power of two */
static _Thread_local PawnEntry pawn_cache[PAWN_CACHE_SIZE];
static uint64_t pawn_salt = 0x9E3779B97F4A7C15ULL; /* changed whenever the weights change */

void hexe_params_changed(void) { pawn_salt = pawn_salt * 6364136223846793005ULL + 1442695040888963407ULL; }

static void pawn_analyse(const Position *pos, const uint8_t att[2][128], PawnEntry *e)
{
    const uint8_t *b = pos->board;
    memset(e->term, 0, sizeof e->term);
    memset(e->back, 8, sizeof e->back);
    memset(e->front, -1, sizeof e->front);
    e->passed[WHITE] = e->passed[BLACK] = 0;
    for (int c = WHITE; c <= BLACK; c++)
        for (int i = 0; i < pos->npawns[c]; i++) {
            int sq = pos->pawns[c][i], f = FILE_OF(sq) + 1, rr = rel_rank(c, sq);
            if (rr < e->back[c][f])
                e->back[c][f] = (int8_t)rr;
            if (rr > e->front[c][f])
                e->front[c][f] = (int8_t)rr;
        }
    for (int c = WHITE; c <= BLACK; c++) {
        int them = c ^ 1, own = MAKE_PIECE(c, PAWN), fwd = c == WHITE ? 16 : -16;
        for (int i = 0; i < pos->npawns[c]; i++) {
            int sq = pos->pawns[c][i], f = FILE_OF(sq) + 1, rr = rel_rank(c, sq);
            bool isolated = e->front[c][f - 1] < 0 && e->front[c][f + 1] < 0;
            bool supported = att[c][sq] & A_P;
            bool phalanx = (!OFFBOARD(sq - 1) && b[sq - 1] == own) || (!OFFBOARD(sq + 1) && b[sq + 1] == own);
            if (isolated)
                add(&e->term[T_ISOLATED - T_ISOLATED][c], WT.isolated);
            if (e->front[c][f] > rr)
                add(&e->term[T_DOUBLED - T_ISOLATED][c], WT.doubled);
            if (supported || phalanx)
                add(&e->term[T_CONNECTED - T_ISOLATED][c], WT.connected[rr]);
            else if (!isolated && e->back[c][f - 1] > rr && e->back[c][f + 1] > rr && (att[them][sq + fwd] & A_P))
                add(&e->term[T_BACKWARD - T_ISOLATED][c], WT.backward);
            if (e->front[c][f] == rr && e->back[them][f - 1] >= 7 - rr && e->back[them][f] >= 7 - rr &&
                e->back[them][f + 1] >= 7 - rr) {
                e->passed[c] |= (uint8_t)(1 << (f - 1));
                add(&e->term[T_PASSED - T_ISOLATED][c], WT.passed[rr]);
            }
        }
    }
}

static const PawnEntry *pawn_probe(const Position *pos, const uint8_t att[2][128])
{
    uint64_t key = pawn_salt;
    for (int c = WHITE; c <= BLACK; c++)
        for (int i = 0; i < pos->npawns[c]; i++)
            key ^= zob_piece[MAKE_PIECE(c, PAWN)][pos->pawns[c][i]];
    PawnEntry *e = &pawn_cache[key & (PAWN_CACHE_SIZE - 1)];
    if (e->key != key) {
        pawn_analyse(pos, att, e);
        e->key = key;
    }
    return e;
}

/* ---- Special endings ---- */

static int phase_of(const Position *pos)
{
    const uint8_t *n = pos->count;
    int p = n[WN] + n[BN] + n[WB] + n[BB] + 2 * (n[WR] + n[BR]) + 4 * (n[WQ] + n[BQ]);
    return p < PHASE_MAX ? p : PHASE_MAX;
}

/* A bare king against mating material (a queen, a rook, bishop and knight or
 * two bishops on both colours): a big bonus, the lone king driven to the
 * edge (to a corner of the bishop's colour in KBNK) and the kings together. */
static bool bare_king(const Position *pos, HexeInfo *info)
{
    for (int s = WHITE; s <= BLACK; s++) {
        int weak = s ^ 1;
        if (pos->npieces[weak] != 1 || pos->npawns[weak] != 0)
            continue;
        const uint8_t *n = pos->count;
        int nn = n[MAKE_PIECE(s, KNIGHT)], nb = n[MAKE_PIECE(s, BISHOP)];
        int nr = n[MAKE_PIECE(s, ROOK)], nq = n[MAKE_PIECE(s, QUEEN)];
        bool light = false, dark = false;
        for (int i = 1; i < pos->npieces[s]; i++) {
            int sq = pos->pieces[s][i];
            if (PTYPE(pos->board[sq]) == BISHOP) {
                if (light_square(sq))
                    light = true;
                else
                    dark = true;
            }
        }
        if (!nq && !nr && !(nb && nn) && !(light && dark))
            continue;
        int mat = 0;
        for (int t = PAWN; t <= QUEEN; t++)
            mat += WT.material[t - PAWN].eg * n[MAKE_PIECE(s, t)];
        info->term[T_MATERIAL][s] = (Score){mat, mat};

        int lk = KING_SQ(pos, weak), sk = KING_SQ(pos, s);
        int fd = FILE_OF(lk) < 4 ? 3 - FILE_OF(lk) : FILE_OF(lk) - 4;
        int rd = RANK_OF(lk) < 4 ? 3 - RANK_OF(lk) : RANK_OF(lk) - 4;
        int v = WT.known_win + WT.lone_king_edge * (fd + rd) + WT.kings_close * (7 - distance(sk, lk));
        if (nb == 1 && nn == 1 && !nq && !nr) {
            int c1 = light ? SQ(7, 0) : SQ(0, 0), c2 = light ? SQ(0, 7) : SQ(7, 7);
            int d1 = distance(lk, c1), d2 = distance(lk, c2);
            v += WT.lone_king_corner * (7 - (d1 < d2 ? d1 : d2));
        }
        info->term[T_KNOWN_WIN][s] = (Score){v, v};
        info->special = "bare king against mating material";
        return true;
    }
    return false;
}

static int npm(const Position *pos, int c)
{
    int v = 0;
    for (int t = KNIGHT; t <= QUEEN; t++)
        v += WT.material[t - PAWN].eg * pos->count[MAKE_PIECE(c, t)];
    return v;
}

/* The factor (out of 64) for the endgame part, seen from the stronger side.
 * When the stronger side has no pawns and can hardly win, *whole is set:
 * the factor then applies to the middlegame part too. */
static int scale_factor(const Position *pos, int strong, const char **why, bool *whole)
{
    const uint8_t *n = pos->count;
    int weak = strong ^ 1;
    int sn = n[MAKE_PIECE(strong, KNIGHT)], sb = n[MAKE_PIECE(strong, BISHOP)];
    int sr = n[MAKE_PIECE(strong, ROOK)], sq = n[MAKE_PIECE(strong, QUEEN)];
    int wminors = n[MAKE_PIECE(weak, KNIGHT)] + n[MAKE_PIECE(weak, BISHOP)];
    int wmajors = n[MAKE_PIECE(weak, ROOK)] + n[MAKE_PIECE(weak, QUEEN)];
    int minor = WT.material[BISHOP - PAWN].eg;
    *whole = false;
    if (pos->npawns[strong] == 0) {
        *whole = true;
        int s_npm = npm(pos, strong), w_npm = npm(pos, weak);
        if (s_npm <= minor) {
            *why = "pawnless with at most a minor: cannot win";
            return WT.scale_cannot_win;
        }
        if (sn == 2 && !sb && !sr && !sq && !pos->npawns[weak] && !wminors && !wmajors) {
            *why = "two knights against a bare king";
            return WT.scale_cannot_win;
        }
        if (s_npm - w_npm <= minor) {
            if (sr == 1 && !sn && !sb && !sq && wminors == 1 && !wmajors) {
                *why = "rook against a minor";
                return WT.scale_rook_minor;
            }
            *why = "pawnless, at most a minor up";
            return WT.scale_small_edge;
        }
        *whole = false;
    }
    if (n[WB] == 1 && n[BB] == 1) {
        int sqs[2] = {NO_SQ, NO_SQ};
        for (int c = WHITE; c <= BLACK; c++)
            for (int i = 1; i < pos->npieces[c]; i++)
                if (PTYPE(pos->board[pos->pieces[c][i]]) == BISHOP)
                    sqs[c] = pos->pieces[c][i];
        if (light_square(sqs[WHITE]) != light_square(sqs[BLACK])) {
            if (!n[WN] && !n[BN] && !n[WR] && !n[BR] && !n[WQ] && !n[BQ]) {
                *why = "opposite-coloured bishops";
                return WT.scale_ocb;
            }
            *why = "opposite-coloured bishops with other pieces";
            return WT.scale_ocb_pieces;
        }
    }
    *why = "normal";
    return SCALE_NORMAL;
}

/* ---- The evaluation ---- */

static void finish(const Position *pos, HexeInfo *info)
{
    int mg = 0, eg = 0;
    for (int t = 0; t < NTERMS; t++) {
        mg += info->term[t][WHITE].mg - info->term[t][BLACK].mg;
        eg += info->term[t][WHITE].eg - info->term[t][BLACK].eg;
    }
    info->mg = mg;
    info->eg = eg;
    if (!info->special) {
        bool whole;
        info->scale = scale_factor(pos, eg >= 0 ? WHITE : BLACK, &info->scale_why, &whole);
        info->scale_mg = whole ? info->scale : SCALE_NORMAL;
    }
    info->white = (mg * info->phase * info->scale_mg + eg * (PHASE_MAX - info->phase) * info->scale) /
                  (PHASE_MAX * SCALE_NORMAL);
}

static void hexe_compute(const Position *pos, HexeInfo *info)
{
    memset(info->term, 0, sizeof info->term);
    info->special = NULL;
    info->scale = info->scale_mg = SCALE_NORMAL;
    info->scale_why = "normal";
    info->phase = phase_of(pos);
    info->mg = info->eg = info->white = 0;
    if (insufficient_material(pos)) {
        info->special = "insufficient mating material";
        info->scale = info->scale_mg = 0;
        info->scale_why = "insufficient mating material";
        return;
    }
    if (bare_king(pos, info)) {
        info->scale_why = "known win";
        finish(pos, info);
        return;
    }

    const uint8_t *b = pos->board;
    /* att: the kinds of piece of each side attacking each square. area: for
     * the pieces of each side, AREA_OUT marks squares outside their mobility
     * area (own pawn or king, attacked by an enemy pawn), AREA_ZONE squares
     * of the enemy king's zone. */
    uint8_t att[2][128], area[2][128];
    memset(att, 0, sizeof att);
    memset(area, 0, sizeof area);
    int katt_n[2] = {0, 0};    /* pieces attacking each side's king zone */
    Score katt_w[2] = {{0, 0}, {0, 0}};

    /* 1. Pawn attacks, mobility areas and king zones; then the pawn structure. */
    for (int c = WHITE; c <= BLACK; c++) {
        int them = c ^ 1, fwd = c == WHITE ? 16 : -16, ks = KING_SQ(pos, c);
        for (int i = 0, np = pos->npawns[c]; i < np; i++) {
            int sq = pos->pawns[c][i], l = sq + fwd - 1, r = sq + fwd + 1;
            area[c][sq] |= AREA_OUT;
            if (!OFFBOARD(l)) {
                att[c][l] |= A_P;
                area[them][l] |= AREA_OUT;
            }
            if (!OFFBOARD(r)) {
                att[c][r] |= A_P;
                area[them][r] |= AREA_OUT;
            }
        }
        area[c][ks] |= AREA_OUT;
        for (int dr = -1; dr <= 2; dr++)
            for (int df = -1; df <= 1; df++) {
                int z = ks + dr * fwd + df;
                if (!OFFBOARD(z))
                    area[them][z] |= AREA_ZONE;
            }
    }
    const PawnEntry *pe = pawn_probe(pos, att);
    for (int t = 0; t < NPAWN_TERMS; t++)
        for (int c = WHITE; c <= BLACK; c++)
            info->term[T_ISOLATED + t][c] = pe->term[t][c];

    /* 2. Material, piece-square tables, mobility, king-zone attacks, rooks, outposts. */
    for (int c = WHITE; c <= BLACK; c++) {
        int them = c ^ 1, eks = KING_SQ(pos, them), ks = KING_SQ(pos, c);
        uint8_t *at = att[c];
        const uint8_t *ar = area[c];
        Score mat = {0, 0}, pst = {0, 0}, mob = {0, 0}, rooks = {0, 0}, outposts = {0, 0};
        for (int t = PAWN; t <= QUEEN; t++)
            add_times(&mat, WT.material[t - PAWN], pos->count[MAKE_PIECE(c, t)]);
        for (int i = 0, np = pos->npawns[c]; i < np; i++) {
            int idx = pst_index(c, pos->pawns[c][i]);
            pst.mg += WT.pst_mg[PAWN - 1][idx];
            pst.eg += WT.pst_eg[PAWN - 1][idx];
        }
        int kidx = pst_index(c, ks);
        pst.mg += WT.pst_mg[KING - 1][kidx];
        pst.eg += WT.pst_eg[KING - 1][kidx];
        for (int k = 0; k < 8; k++)
            if (!OFFBOARD(ks + dirs[k]))
                at[ks + dirs[k]] |= A_K;

        for (int i = 1, npc = pos->npieces[c]; i < npc; i++) {
            int sq = pos->pieces[c][i], t = PTYPE(b[sq]);
            uint8_t bit = (uint8_t)(1 << t);
            int idx = pst_index(c, sq);
            pst.mg += WT.pst_mg[t - 1][idx];
            pst.eg += WT.pst_eg[t - 1][idx];
            int n = 0;
            unsigned seen = 0;
            if (t == KNIGHT) {
                for (int k = 0; k < 8; k++) {
                    int to = sq + knight_d[k];
                    if (OFFBOARD(to))
                        continue;
                    at[to] |= A_N;
                    unsigned fl = ar[to];
                    n += !(fl & AREA_OUT);
                    seen |= fl;
                }
                add(&mob, WT.mob_knight[n]);
            } else {
                int k0 = t == BISHOP ? 4 : 0, k1 = t == ROOK ? 4 : 8;
                for (int k = k0; k < k1; k++) {
                    int d = dirs[k];
                    for (int to = sq + d; !OFFBOARD(to); to += d) {
                        at[to] |= bit;
                        unsigned fl = ar[to];
                        n += !(fl & AREA_OUT);
                        seen |= fl;
                        if (b[to] != EMPTY)
                            break;
                    }
                }
                add(&mob, t == BISHOP ? WT.mob_bishop[n] : t == ROOK ? WT.mob_rook[n] : WT.mob_queen[n]);
            }
            if (seen & AREA_ZONE) {
                katt_n[them]++;
                add(&katt_w[them], WT.king_attacker[t - KNIGHT]);
            }
            int f = FILE_OF(sq) + 1, rr = rel_rank(c, sq);
            if (t == ROOK) {
                if (pe->front[c][f] < 0)
                    add(&rooks, pe->front[them][f] < 0 ? WT.rook_open : WT.rook_semiopen);
                if (rr == 6) {
                    bool on7 = rel_rank(c, eks) == 7;
                    for (int ff = 1; ff <= 8 && !on7; ff++)
                        on7 = pe->back[them][ff] == 1;
                    if (on7)
                        add(&rooks, WT.rook_seventh);
                }
            } else if (t <= BISHOP && rr >= 3 && rr <= 5 && (at[sq] & A_P) &&
                       pe->back[them][f - 1] >= 7 - rr && pe->back[them][f + 1] >= 7 - rr) {
                add(&outposts, WT.outpost[t - KNIGHT]);
            }
        }
        info->term[T_MATERIAL][c] = mat;
        info->term[T_PST][c] = pst;
        info->term[T_MOBILITY][c] = mob;
        info->term[T_ROOKS][c] = rooks;
        info->term[T_OUTPOSTS][c] = outposts;
        if (pos->count[MAKE_PIECE(c, BISHOP)] >= 2)
            info->term[T_BISHOP_PAIR][c] = WT.bishop_pair;
    }

    /* 3. King safety: the pawn shield and the pieces attacking the zone. */
    for (int c = WHITE; c <= BLACK; c++) {
        int ks = KING_SQ(pos, c), own = MAKE_PIECE(c, PAWN), fwd = c == WHITE ? 16 : -16;
        Score *s = &info->term[T_SHIELD][c];
        for (int f = FILE_OF(ks) - 1; f <= FILE_OF(ks) + 1; f++) {
            if (f < 0 || f > 7)
                continue;
            int s1 = SQ(f, RANK_OF(ks)) + fwd, s2 = s1 + fwd;
            if (!OFFBOARD(s1) && b[s1] == own)
                add(s, WT.shield[0]);
            else if (!OFFBOARD(s1) && !OFFBOARD(s2) && b[s2] == own)
                add(s, WT.shield[1]);
            else
                add(s, WT.shield[2]);
            if (pe->front[c][f + 1] < 0)
                add(s, WT.king_open_file);
        }
        int n = katt_n[c] < 7 ? katt_n[c] : 7, pct = WT.king_attack_pct[n];
        info->term[T_KING_ATTACK][c].mg = -(katt_w[c].mg * pct / 100);
        info->term[T_KING_ATTACK][c].eg = -(katt_w[c].eg * pct / 100);
    }

    /* 4. Threats: pieces attacked by pawns, rooks and queens by minors, and
     * men attacked but not defended. */
    for (int c = WHITE; c <= BLACK; c++) {
        int them = c ^ 1;
        Score *th = &info->term[T_THREATS][c], *hg = &info->term[T_HANGING][c];
        for (int i = 1; i < pos->npieces[them]; i++) {
            int sq = pos->pieces[them][i], by = att[c][sq];
            if (!by)
                continue;
            int t = PTYPE(b[sq]);
            if (by & A_P)
                add(th, WT.threat_by_pawn[t - KNIGHT]);
            else if (t >= ROOK && (by & (A_N | A_B)))
                add(th, WT.threat_by_minor[t - ROOK]);
            if (!att[them][sq])
                add(hg, WT.hanging[t - PAWN]);
        }
        for (int i = 0; i < pos->npawns[them]; i++) {
            int sq = pos->pawns[them][i];
            if (att[c][sq] && !att[them][sq])
                add(hg, WT.hanging[0]);
        }
    }

    /* 5. Passed pawns: a free path, the kings' distances, the square rule. */
    int plies[2] = {1000, 1000}; /* plies to promote an unstoppable passer */
    for (int c = WHITE; c <= BLACK; c++) {
        int them = c ^ 1, ks = KING_SQ(pos, c), eks = KING_SQ(pos, them), fwd = c == WHITE ? 16 : -16;
        for (unsigned m = pe->passed[c]; m; m &= m - 1) {
            int f = __builtin_ctz(m), rr = pe->front[c][f + 1];
            int sq = SQ(f, c == WHITE ? rr : 7 - rr), stop = sq + fwd;
            add_times(&info->term[T_PASSED_KING][c], WT.passed_own_king[rr], distance(ks, stop));
            add_times(&info->term[T_PASSED_KING][c], WT.passed_enemy_king[rr], distance(eks, stop));
            if (b[stop] == EMPTY && !att[them][stop])
                add(&info->term[T_PASSED_FREE][c], WT.passed_free[rr]);
            if (pos->npieces[them] == 1) {
                int promo = SQ(f, c == WHITE ? 7 : 0), moves = rr == 1 ? 5 : 7 - rr;
                bool clear = true;
                for (int s = stop;; s += fwd) {
                    if (b[s] != EMPTY)
                        clear = false;
                    if (s == promo)
                        break;
                }
                if (clear && distance(eks, promo) - (pos->side == them) > moves) {
                    int p = 2 * moves - (pos->side == c);
                    if (p < plies[c])
                        plies[c] = p;
                }
            }
        }
    }
    for (int c = WHITE; c <= BLACK; c++)
        if (plies[c] < plies[c ^ 1] - 1)
            add(&info->term[T_UNSTOPPABLE][c], WT.unstoppable);

    /* 6. Tempo. */
    add(&info->term[T_TEMPO][pos->side], WT.tempo);

    finish(pos, info);
}

static int hexe_eval(const Position *pos)
{
    HexeInfo info;
    hexe_compute(pos, &info);
    return pos->side == WHITE ? info.white : -info.white;
}

static void hexe_trace(const Position *pos, FILE *out)
{
    HexeInfo info;
    hexe_compute(pos, &info);
    trace_header2(out, "hexe (tapered middlegame/endgame)");
    Score sum[2] = {{0, 0}, {0, 0}};
    for (int t = 0; t < NTERMS; t++) {
        const Score *w = &info.term[t][WHITE], *bl = &info.term[t][BLACK];
        trace_row2(out, term_name[t], w->mg, w->eg, bl->mg, bl->eg);
        add(&sum[WHITE], *w);
        add(&sum[BLACK], *bl);
    }
    trace_rule2(out);
    trace_row2(out, "sum", sum[WHITE].mg, sum[WHITE].eg, sum[BLACK].mg, sum[BLACK].eg);
    if (info.special)
        fprintf(out, "\nSpecial case: %s\n", info.special);
    fprintf(out, "\nPhase %d/%d (24 = opening, 0 = pawns and kings)\n", info.phase, PHASE_MAX);
    fprintf(out, "Scale %d/64 of the eg part, %d/64 of the mg part (%s)\n", info.scale, info.scale_mg,
            info.scale_why);
    fprintf(out, "Blend: (mg %d * %d * %d/64 + eg %d * %d * %d/64) / 24 = %d\n", info.mg, info.phase, info.scale_mg,
            info.eg, PHASE_MAX - info.phase, info.scale, info.white);
    trace_final(out, pos, info.white);
}

const Evaluator eval_hexe = {"hexe", hexe_eval, hexe_trace};
