/* hexe.c - Hexe's own evaluation, built for strength: tapered middlegame and
 * endgame terms (weights in hexe_weights.c), drawish-material scaling and
 * knowledge of the basic won endings. Attacks, mobility and pawn structure
 * are computed on 64-bit square sets built from the piece lists (bits.h);
 * a per-thread cache keeps pawn-structure scores (whole evaluations are
 * cached by the search).
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

#include "bits.h"
#include "evaluators.h"
#include "hexe_scale.h"
#include "net.h"
#include "trace.h"

#define WT hexe_weights
#define PHASE_MAX 24

/* The terms, as they appear in the trace. */
enum {
    T_MATERIAL, T_PST, T_MOBILITY,
    T_ISOLATED, T_DOUBLED, T_BACKWARD, T_CONNECTED, T_PASSED, /* the cached pawn terms, in this order */
    T_PASSED_FREE, T_PASSED_KING, T_UNSTOPPABLE,
    T_SHIELD, T_KING_PAWNS, T_KING_ATTACK, T_BISHOP_PAIR, T_ROOKS, T_MINORS, T_SPACE, T_THREATS, T_HANGING,
    T_TEMPO, T_COMPLEXITY,
    T_KNOWN_WIN,
    NTERMS
};
#define NPAWN_TERMS (T_PASSED - T_ISOLATED + 1)

static const char *const term_name[NTERMS] = {
    "material", "piece-square", "mobility",
    "isolated pawns", "doubled pawns", "backward pawns", "connected pawns", "passed pawns",
    "passer free path", "passer king distance", "unstoppable passer",
    "king shield and storm", "king to own pawns", "king attack", "bishop pair", "rooks (files, 7th)",
    "minor pieces", "space", "threats",
    "hanging pieces", "tempo", "complexity",
    "known win (bare king)",
};

typedef struct {
    Score term[NTERMS][2]; /* filled only for the trace */
    int phase;
    int scale, scale_mg; /* out of 64, for the endgame and the middlegame part */
    const char *scale_why;
    const char *special; /* what decided the score outright, or NULL */
    int mg, eg, white;
} HexeInfo;

/* ---- Small helpers ---- */

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

/* Every term of a side goes through here: summed for the score (sum is
 * hexe_compute's local, kept in registers), and kept for the trace. */
static inline void put(HexeInfo *info, bool trace, Score sum[2], int t, int c, Score v)
{
    if (trace)
        info->term[t][c] = v;
    add(&sum[c], v);
}

/* Rank of square s (0..63) as seen from side c. */
static inline int rel_rank64(int c, int s) { return c == WHITE ? s >> 3 : 7 - (s >> 3); }


/* ---- Pawn structure (cached per thread, keyed by the pawns alone) ---- */

typedef struct {
    uint64_t key;
    Score term[NPAWN_TERMS][2];
    Bits passed[2];
    Bits files[2]; /* the files with a pawn of each side */
    Bits safe[2];  /* outpost squares: ranks 4-6 (White; 3-5 for Black), defended
                    * by an own pawn, out of reach of enemy pawns */
} PawnEntry;

#ifndef PAWN_CACHE_SIZE
#define PAWN_CACHE_SIZE 1024 /* a power of two */
#endif

/* A search thread's caches (eval_context_new): pawn structures, keyed by a
 * hash of the pawns and the weights' salt, and the correction's sums. */
struct HexeCache {
    PawnEntry pawns[PAWN_CACHE_SIZE];
    NetSums *net;
};

HexeCache *hexe_cache_new(void)
{
    HexeCache *c = calloc(1, sizeof *c);
    if (c && !(c->net = net_sums_new())) {
        free(c);
        c = NULL;
    }
    return c;
}

void hexe_cache_free(HexeCache *c)
{
    if (c)
        net_sums_free(c->net);
    free(c);
}

void hexe_cache_forget(HexeCache *c)
{
    if (!c)
        return;
    for (int i = 0; i < PAWN_CACHE_SIZE; i++)
        c->pawns[i].key = 0;
    net_sums_forget(c->net);
}

/* Isolated: no own pawn on a neighbouring file. Doubled: an own pawn in
 * front on the same file. Connected: defended by a pawn or beside one.
 * Backward: no own pawn level with or behind it on a neighbouring file, and
 * the square in front attacked by an enemy pawn. Passed: no enemy pawn in
 * front on its own or a neighbouring file, no own pawn in front of it. */
static void pawn_analyse(const Bits pawns[2], PawnEntry *e)
{
    memset(e->term, 0, sizeof e->term);
    for (int c = WHITE; c <= BLACK; c++) {
        int them = c ^ 1;
        Bits p = pawns[c], ep = pawns[them];
        Bits beside = east(p) | west(p);
        Bits isolated = p & ~file_fill(beside);
        Bits behind_own = fill_forward(them, forward(them, p));
        Bits doubled = p & behind_own;
        Bits connected = p & (pawn_attacks(c, p) | beside);
        Bits backward = p & ~isolated & ~fill_forward(c, beside) & forward(them, pawn_attacks(them, ep));
        Bits covered = fill_forward(them, forward(them, ep | east(ep) | west(ep)));
        Bits passed = p & ~covered & ~behind_own;
        add_times(&e->term[T_ISOLATED - T_ISOLATED][c], WT.isolated, popcount(isolated));
        add_times(&e->term[T_DOUBLED - T_ISOLATED][c], WT.doubled, popcount(doubled));
        add_times(&e->term[T_BACKWARD - T_ISOLATED][c], WT.backward, popcount(backward));
        for (Bits x = connected; x; x &= x - 1)
            add(&e->term[T_CONNECTED - T_ISOLATED][c], WT.connected[rel_rank64(c, lsb(x))]);
        for (Bits x = passed; x; x &= x - 1)
            add(&e->term[T_PASSED - T_ISOLATED][c], WT.passed[rel_rank64(c, lsb(x))]);
        e->passed[c] = passed;
        e->files[c] = file_fill(p);
        Bits ranks = c == WHITE ? 0x0000FFFFFF000000ULL : 0x000000FFFFFF0000ULL;
        e->safe[c] = ranks & pawn_attacks(c, p) & ~fill_forward(them, pawn_attacks(them, ep));
    }
}

static const PawnEntry *pawn_probe(HexeCache *cache, uint64_t key, const Bits pawns[2])
{
    PawnEntry *e = &cache->pawns[key & (PAWN_CACHE_SIZE - 1)];
    if (e->key != key) {
        pawn_analyse(pawns, e);
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
static bool bare_king(const Position *pos, HexeInfo *info, bool trace, Score sum[2])
{
    if (pos->npieces[WHITE] > 1 && pos->npieces[BLACK] > 1)
        return false; /* the usual case, before any other work */
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
        put(info, trace, sum, T_MATERIAL, s, (Score){mat, mat});

        int lk = KING_SQ(pos, weak), sk = KING_SQ(pos, s);
        int fd = FILE_OF(lk) < 4 ? 3 - FILE_OF(lk) : FILE_OF(lk) - 4;
        int rd = RANK_OF(lk) < 4 ? 3 - RANK_OF(lk) : RANK_OF(lk) - 4;
        int v = WT.known_win + WT.lone_king_edge * (fd + rd) + WT.kings_close * (7 - distance88(sk, lk));
        if (nb == 1 && nn == 1 && !nq && !nr) {
            int c1 = light ? SQ(7, 0) : SQ(0, 0), c2 = light ? SQ(0, 7) : SQ(7, 7);
            int d1 = distance88(lk, c1), d2 = distance88(lk, c2);
            v += WT.lone_king_corner * (7 - (d1 < d2 ? d1 : d2));
        }
        put(info, trace, sum, T_KNOWN_WIN, s, (Score){v, v});
        info->special = "bare king against mating material";
        return true;
    }
    return false;
}

/* ---- The evaluation ---- */

static void finish(const Position *pos, HexeInfo *info, const Score sum[2])
{
    int mg = sum[WHITE].mg - sum[BLACK].mg, eg = sum[WHITE].eg - sum[BLACK].eg;
    info->mg = mg;
    info->eg = eg;
    if (!info->special) {
        bool whole;
        /* The stronger side by the endgame sum, by the middlegame one on a tie
         * (so that a position and its colour-flipped mirror agree). */
        int strong = eg > 0 || (eg == 0 && mg >= 0) ? WHITE : BLACK;
        info->scale = hexe_scale_factor(pos, strong, &info->scale_why, &whole);
        info->scale_mg = whole ? info->scale : SCALE_NORMAL;
    }
    info->white = (mg * info->phase * info->scale_mg + eg * (PHASE_MAX - info->phase) * info->scale) /
                  (PHASE_MAX * SCALE_NORMAL);
}

/* The pieces attacking a king's zone: how many, their summed weight, and
 * their attacks on the squares next to the king. */
typedef struct {
    int count, ring_attacks;
    Score weight;
} KingAttackers;

/* A piece attacking the squares `a`: counted when it reaches the zone. */
static inline void note_king_attacker(KingAttackers *k, Bits a, Bits zone, Bits ring, Score weight)
{
    if (!(a & zone))
        return;
    k->count++;
    add(&k->weight, weight);
    k->ring_attacks += popcount(a & ring);
}

/* What the term groups below share while one position is evaluated. */
typedef struct {
    const Position *pos;
    HexeInfo *info;
    bool trace;
    bool incremental;        /* material and piece-square values from the position's sums */
    Score sum[2];            /* each side's terms so far */
    const Bits *bb;          /* the position's square sets: PCS(side, type) */
    Bits att[2][7];          /* squares attacked, by side and attacking piece type */
    Bits all[2], side_bb[2], area[2], zone[2], occ, pawns;
    int ksq[2];
    HexeCache *cache;        /* the thread's pawn structures */
    const PawnEntry *pe;
    KingAttackers katt[2];   /* on each side's king zone */
} HexeState;

#define PUT(t, c, ...) put(e->info, e->trace, e->sum, t, c, __VA_ARGS__)
#define PCS(c, t) e->bb[MAKE_PIECE(c, t)]

/* 1. Square sets; material and piece-square tables. */
static inline __attribute__((always_inline)) void terms_material(HexeState *e)
{
    const Position *pos = e->pos;
    for (int c = WHITE; c <= BLACK; c++) {
        e->side_bb[c] = 0;
        for (int t = PAWN; t <= KING; t++)
            e->side_bb[c] |= PCS(c, t);
        e->ksq[c] = SQ64(KING_SQ(pos, c));
        if (e->incremental) {
            PUT(T_MATERIAL, c, pos->psq[c]);
            continue;
        }
        Score mat = {0, 0}, pst = {0, 0};
        int flip = c == WHITE ? 56 : 0; /* square to piece-square index */
        for (int t = PAWN; t <= QUEEN; t++)
            add_times(&mat, WT.material[t - PAWN], pos->count[MAKE_PIECE(c, t)]);
        for (int t = PAWN; t <= KING; t++)
            for (Bits x = PCS(c, t); x; x &= x - 1) {
                pst.mg += WT.pst_mg[t - 1][lsb(x) ^ flip];
                pst.eg += WT.pst_eg[t - 1][lsb(x) ^ flip];
            }
        PUT(T_MATERIAL, c, mat);
        PUT(T_PST, c, pst);
    }
    e->occ = e->side_bb[WHITE] | e->side_bb[BLACK];
    e->pawns = PCS(WHITE, PAWN) | PCS(BLACK, PAWN);
}

/* 2. Pawn attacks, mobility areas (not an own pawn or king, not attacked
 * by an enemy pawn) and king zones (the king's file and its neighbours,
 * from the rank behind the king to two ranks ahead of it). */
static inline __attribute__((always_inline)) void terms_zones(HexeState *e)
{
    for (int c = WHITE; c <= BLACK; c++) {
        e->att[c][PAWN] = pawn_attacks(c, PCS(c, PAWN));
        e->att[c][KING] = king_moves[e->ksq[c]];
        Bits row = PCS(c, KING) | east(PCS(c, KING)) | west(PCS(c, KING));
        e->zone[c] = row | north(row) | south(row) | forward(c, forward(c, row));
    }
    for (int c = WHITE; c <= BLACK; c++)
        e->area[c] = ~(PCS(c, PAWN) | PCS(c, KING) | e->att[c ^ 1][PAWN]);
}

/* 3. The pawn structure (cached by the pawns alone). */
static inline __attribute__((always_inline)) void terms_pawns(HexeState *e)
{
    const Position *pos = e->pos;
    e->pe = pawn_probe(e->cache, hexe_weights_salt ^ pos->keys.pawn, (const Bits[2]){PCS(WHITE, PAWN), PCS(BLACK, PAWN)});
    for (int t = 0; t < NPAWN_TERMS; t++)
        for (int c = WHITE; c <= BLACK; c++)
            PUT(T_ISOLATED + t, c, e->pe->term[t][c]);
}

/* 4. Pieces: attacks, mobility, king-zone attackers and their attacks
 * on the squares next to the king; rooks on files and
 * the seventh; outposts, own pawns on a bishop's colour, minors
 * behind a pawn; the bishop pair. */
static inline __attribute__((always_inline)) void terms_pieces(HexeState *e)
{
    const Position *pos = e->pos;
    for (int c = WHITE; c <= BLACK; c++) {
        int them = c ^ 1;
        Score mob = {0, 0};
        Bits an = 0, ab = 0, ar = 0, aq = 0, a;
        for (Bits x = PCS(c, KNIGHT); x; x &= x - 1) {
            an |= a = knight_moves[lsb(x)];
            add(&mob, WT.mob_knight[popcount(a & e->area[c])]);
            note_king_attacker(&e->katt[them], a, e->zone[them], e->att[them][KING], WT.king_attacker[0]);
        }
        for (Bits x = PCS(c, BISHOP); x; x &= x - 1) {
            ab |= a = bishop_attacks(e->occ, lsb(x));
            add(&mob, WT.mob_bishop[popcount(a & e->area[c])]);
            note_king_attacker(&e->katt[them], a, e->zone[them], e->att[them][KING], WT.king_attacker[1]);
        }
        for (Bits x = PCS(c, ROOK); x; x &= x - 1) {
            ar |= a = rook_attacks(e->occ, lsb(x));
            add(&mob, WT.mob_rook[popcount(a & e->area[c])]);
            note_king_attacker(&e->katt[them], a, e->zone[them], e->att[them][KING], WT.king_attacker[2]);
        }
        for (Bits x = PCS(c, QUEEN); x; x &= x - 1) {
            aq |= a = bishop_attacks(e->occ, lsb(x)) | rook_attacks(e->occ, lsb(x));
            add(&mob, WT.mob_queen[popcount(a & e->area[c])]);
            note_king_attacker(&e->katt[them], a, e->zone[them], e->att[them][KING], WT.king_attacker[3]);
        }
        e->att[c][KNIGHT] = an;
        e->att[c][BISHOP] = ab;
        e->att[c][ROOK] = ar;
        e->att[c][QUEEN] = aq;
        e->all[c] = e->att[c][PAWN] | an | ab | ar | aq | e->att[c][KING];
        PUT(T_MOBILITY, c, mob);

        Score rooks = {0, 0}, minors = {0, 0};
        Bits rk = PCS(c, ROOK);
        if (rk) {
            Bits mine = e->pe->files[c], theirs = e->pe->files[them];
            add_times(&rooks, WT.rook_open, popcount(rk & ~mine & ~theirs));
            add_times(&rooks, WT.rook_semiopen, popcount(rk & ~mine & theirs));
            Bits rank7 = c == WHITE ? RANK_1_BITS << 48 : RANK_1_BITS << 8;
            Bits rank8 = c == WHITE ? RANK_1_BITS << 56 : RANK_1_BITS;
            if ((rk & rank7) && ((PCS(them, KING) & rank8) || (PCS(them, PAWN) & rank7)))
                add_times(&rooks, WT.rook_seventh, popcount(rk & rank7));
        }
        add_times(&minors, WT.outpost[0], popcount(PCS(c, KNIGHT) & e->pe->safe[c]));
        add_times(&minors, WT.outpost[1], popcount(PCS(c, BISHOP) & e->pe->safe[c]));
        for (Bits x = PCS(c, BISHOP); x; x &= x - 1) {
            Bits colour = BIT(lsb(x)) & LIGHT_BITS ? LIGHT_BITS : ~LIGHT_BITS;
            add_times(&minors, WT.bishop_pawns, popcount(PCS(c, PAWN) & colour));
        }
        add_times(&minors, WT.minor_behind_pawn,
                  popcount((PCS(c, KNIGHT) | PCS(c, BISHOP)) & forward(them, e->pawns)));
        PUT(T_ROOKS, c, rooks);
        PUT(T_MINORS, c, minors);
        if (pos->count[MAKE_PIECE(c, BISHOP)] >= 2)
            PUT(T_BISHOP_PAIR, c, WT.bishop_pair);
    }
}

/* 5. King safety: the pawn shield on the king's file and its neighbours
 * (an own pawn one square ahead, else two squares ahead, else none; an
 * own-pawnless file); enemy pawns storming those files (by their rank,
 * or blocked by an own pawn); the king's distance to its nearest pawn;
 * the danger from the pieces attacking the zone (a
 * weight per attacker, per attack on a square next to the king and per
 * such square only the king or queen guards, scaled by the number of
 * attackers); and the squares an enemy piece could give a safe check
 * from (not guarded by the king's side, not holding a man of the
 * checker's side). */
static inline __attribute__((always_inline)) void terms_king(HexeState *e)
{
    for (int c = WHITE; c <= BLACK; c++) {
        int them = c ^ 1, k64 = e->ksq[c];
        Bits weak = e->att[c][KING] & e->all[them]
                    & ~(e->att[c][PAWN] | e->att[c][KNIGHT] | e->att[c][BISHOP] | e->att[c][ROOK]);
        add_times(&e->katt[c].weight, WT.king_ring_attack, e->katt[c].ring_attacks);
        add_times(&e->katt[c].weight, WT.king_weak_square, popcount(weak));
        Bits safe = ~e->all[c] & ~e->side_bb[them];
        Bits diag = bishop_attacks(e->occ, k64), line = rook_attacks(e->occ, k64);
        Score checks = {0, 0};
        add_times(&checks, WT.king_safe_check[0], popcount(knight_moves[k64] & e->att[them][KNIGHT] & safe));
        add_times(&checks, WT.king_safe_check[1], popcount(diag & e->att[them][BISHOP] & safe));
        add_times(&checks, WT.king_safe_check[2], popcount(line & e->att[them][ROOK] & safe));
        add_times(&checks, WT.king_safe_check[3], popcount((diag | line) & e->att[them][QUEEN] & safe));
        Bits k = PCS(c, KING), own = PCS(c, PAWN);
        Bits row = k | east(k) | west(k), f1 = forward(c, row), f2 = forward(c, f1);
        Bits one = own & f1, two = own & f2 & ~forward(c, one);
        int n1 = popcount(one), n2 = popcount(two), n0 = popcount(row) - n1 - n2;
        Score sh = {0, 0};
        add_times(&sh, WT.shield[0], n1);
        add_times(&sh, WT.shield[1], n2);
        add_times(&sh, WT.shield[2], n0);
        add_times(&sh, WT.king_open_file, popcount(row & ~e->pe->files[c]));
        Bits storm = PCS(them, PAWN) & file_fill(row), blocked = storm & forward(c, own);
        add_times(&sh, WT.pawn_storm_blocked, popcount(blocked));
        for (Bits x = storm & ~blocked; x; x &= x - 1)
            add(&sh, WT.pawn_storm[rel_rank64(them, lsb(x))]);
        PUT(T_SHIELD, c, sh);
        if (own) {
            int d = 7;
            for (Bits x = own; x; x &= x - 1) {
                int dx = distance64(k64, lsb(x));
                d = dx < d ? dx : d;
            }
            PUT(T_KING_PAWNS, c, (Score){WT.king_pawn_distance.mg * d, WT.king_pawn_distance.eg * d});
        }
        int n = e->katt[c].count < 7 ? e->katt[c].count : 7, pct = WT.king_attack_pct[n];
        Score w = e->katt[c].weight;
        PUT(T_KING_ATTACK, c, (Score){-(w.mg * pct / 100) - checks.mg, -(w.eg * pct / 100) - checks.eg});
    }
}

/* 6. Threats: pieces attacked by pawns, rooks and queens by minors (and
 * not by pawns), queens by rooks, pieces a safe pawn push would attack
 * (the square not attacked by an enemy pawn, and guarded or not
 * attacked), and men attacked but not defended.
 * Space: the central squares (files c-f) on ranks 2-4 from the side's
 * view, not holding an own pawn nor attacked by an enemy pawn, those
 * behind an own pawn and not attacked at all counted twice, times the
 * side's pieces (knights to queens); the weight is in 1/16 cp. */
static inline __attribute__((always_inline)) void terms_threats_space(HexeState *e)
{
    for (int c = WHITE; c <= BLACK; c++) {
        int them = c ^ 1;
        Bits by_pawn = e->att[c][PAWN], by_minor = (e->att[c][KNIGHT] | e->att[c][BISHOP]) & ~by_pawn;
        Bits loose = e->all[c] & ~e->all[them];
        Bits pieces = e->side_bb[them] & ~PCS(them, PAWN) & ~PCS(them, KING);
        Bits push = forward(c, PCS(c, PAWN)) & ~e->occ;
        Bits rank3 = c == WHITE ? RANK_1_BITS << 16 : RANK_1_BITS << 40;
        push |= forward(c, push & rank3) & ~e->occ;
        push &= ~e->att[them][PAWN] & (e->all[c] | ~e->all[them]);
        Score th = {0, 0}, hg = {0, 0};
        for (int t = KNIGHT; t <= QUEEN; t++)
            add_times(&th, WT.threat_by_pawn[t - KNIGHT], popcount(PCS(them, t) & by_pawn));
        add_times(&th, WT.threat_by_minor[0], popcount(PCS(them, ROOK) & by_minor));
        add_times(&th, WT.threat_by_minor[1], popcount(PCS(them, QUEEN) & by_minor));
        add_times(&th, WT.threat_by_rook, popcount(PCS(them, QUEEN) & e->att[c][ROOK]));
        add_times(&th, WT.push_threat, popcount(pawn_attacks(c, push) & pieces));

        Bits centre = c == WHITE ? 0x3C3C3C00ULL : 0x003C3C3C00000000ULL;
        Bits safe = centre & ~PCS(c, PAWN) & ~e->att[them][PAWN];
        Bits behind = fill_backward(c, PCS(c, PAWN)) & ~PCS(c, PAWN);
        int units = popcount(safe) + popcount(safe & behind & ~e->all[them]);
        int npc = popcount(e->side_bb[c] & ~PCS(c, PAWN) & ~PCS(c, KING));
        PUT(T_SPACE, c, (Score){WT.space.mg * units * npc / 16, WT.space.eg * units * npc / 16});
        for (int t = PAWN; t <= QUEEN; t++)
            add_times(&hg, WT.hanging[t - PAWN], popcount(PCS(them, t) & loose));
        PUT(T_THREATS, c, th);
        PUT(T_HANGING, c, hg);
    }
}

/* 7. Passed pawns: a free path, the kings' distances to the square in
 * front, and the rule of the square against a lone king. */
static inline __attribute__((always_inline)) void terms_passed(HexeState *e)
{
    const Position *pos = e->pos;
    int plies[2] = {1000, 1000}; /* plies to promote an unstoppable passer */
    for (int c = WHITE; c <= BLACK; c++) {
        int them = c ^ 1, fwd = c == WHITE ? 8 : -8;
        Score kings = {0, 0}, free = {0, 0};
        for (Bits x = e->pe->passed[c]; x; x &= x - 1) {
            int s = lsb(x), rr = rel_rank64(c, s), stop = s + fwd;
            add_times(&kings, WT.passed_own_king[rr], distance64(e->ksq[c], stop));
            add_times(&kings, WT.passed_enemy_king[rr], distance64(e->ksq[them], stop));
            if (!((e->occ | e->all[them]) & BIT(stop)))
                add(&free, WT.passed_free[rr]);
            if (pos->npieces[them] == 1) {
                int promo = c == WHITE ? 56 + (s & 7) : s & 7, moves = rr == 1 ? 5 : 7 - rr;
                bool clear = !(fill_forward(c, BIT(stop)) & e->occ);
                if (clear && distance64(e->ksq[them], promo) - (pos->side == them) > moves) {
                    int p = 2 * moves - (pos->side == c);
                    if (p < plies[c])
                        plies[c] = p;
                }
            }
        }
        PUT(T_PASSED_KING, c, kings);
        PUT(T_PASSED_FREE, c, free);
    }
    for (int c = WHITE; c <= BLACK; c++)
        if (plies[c] < plies[c ^ 1] - 1)
            PUT(T_UNSTOPPABLE, c, WT.unstoppable);
}

/* 8. Tempo. 9. Complexity, put on White's side with the sign of the side ahead. */
static inline __attribute__((always_inline)) void terms_tempo_complexity(HexeState *e)
{
    const Position *pos = e->pos;
    PUT(T_TEMPO, pos->side, WT.tempo);

    int eg = e->sum[WHITE].eg - e->sum[BLACK].eg;
    if (eg) {
        Bits queenside = FILE_A_BITS * 0x0F; /* files a-d */
        bool flanks = (e->pawns & queenside) && (e->pawns & ~queenside);
        bool pawns_only = (e->occ & ~e->pawns) == (PCS(WHITE, KING) | PCS(BLACK, KING));
        int outflank = abs(file64(e->ksq[WHITE]) - file64(e->ksq[BLACK])) - abs(rank64(e->ksq[WHITE]) - rank64(e->ksq[BLACK]));
        int cx = WT.complexity_pawn * popcount(e->pawns)
                 + WT.complexity_passed * popcount(e->pe->passed[WHITE] | e->pe->passed[BLACK]) + WT.complexity_flanks * flanks + WT.complexity_pawns_only * pawns_only
                 + WT.complexity_outflank * outflank + WT.complexity_base;
        int v = cx > -abs(eg) ? cx : -abs(eg);
        PUT(T_COMPLEXITY, WHITE, (Score){0, eg > 0 ? v : -v});
    }
}

/* trace: keep every term, material and piece-square values apart;
 * otherwise only the sums are made, and material plus piece-square values
 * may come from the position's incremental sums. */
static inline __attribute__((always_inline)) void hexe_compute(HexeCache *cache, const Position *pos, HexeInfo *info,
                                                                bool trace)
{
    if (trace)
        memset(info->term, 0, sizeof info->term); /* terms not put stay 0 */
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
    HexeState st;
    HexeState *e = &st;
    e->sum[WHITE] = e->sum[BLACK] = (Score){0, 0};
    if (bare_king(pos, info, trace, e->sum)) {
        info->scale_why = "known win";
        finish(pos, info, e->sum);
        return;
    }
    e->pos = pos;
    e->info = info;
    e->trace = trace;
    e->cache = cache;
    e->bb = pos->bb;
    e->incremental = !trace && psq_version && pos->psq_ver == psq_version;
    memset(e->katt, 0, sizeof e->katt);
    terms_material(e);
    terms_zones(e);
    terms_pawns(e);
    terms_pieces(e);
    terms_king(e);
    terms_threats_space(e);
    terms_passed(e);
    terms_tempo_complexity(e);
    finish(pos, info, e->sum);
}

#undef PUT
#undef PCS

/* The learnt correction (net.h) is added unless a special case or a zero
 * scale has decided the score. */
static bool takes_correction(const HexeInfo *info) { return !info->special && info->scale; }

static int correction(HexeCache *cache, const Position *pos, const HexeInfo *info)
{
    return takes_correction(info) ? net_correction(cache->net, pos) : 0;
}

int hexe_base_eval(EvalContext *ctx, const Position *pos, bool *corrected)
{
    HexeInfo info;
    hexe_compute(ctx->hexe, pos, &info, false);
    *corrected = takes_correction(&info);
    return pos->side == WHITE ? info.white : -info.white;
}

/* No cache of whole evaluations here: the search keeps its own. */
static int hexe_eval(EvalContext *ctx, const Position *pos)
{
    HexeInfo info;
    hexe_compute(ctx->hexe, pos, &info, false);
    return (pos->side == WHITE ? info.white : -info.white) + correction(ctx->hexe, pos, &info);
}

static void hexe_trace(EvalContext *ctx, const Position *pos, FILE *out)
{
    HexeInfo info;
    hexe_compute(ctx->hexe, pos, &info, true);
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
    int c = correction(ctx->hexe, pos, &info), white_c = pos->side == WHITE ? c : -c;
    fprintf(out, "Learnt correction: %d (White's view)\n", white_c);
    trace_final(out, pos, info.white + white_c);
}

/* The piece-square table the positions' incremental sums use. */
const Evaluator eval_hexe = {.name = "hexe", .evaluate = hexe_eval, .trace = hexe_trace, .init = hexe_params_changed};
