/* fuzz_fen.c - libFuzzer target: the FEN parser. Any input is parsed as a
 * FEN; an accepted one must give a consistent position whose FEN parses
 * again to the same FEN, and every legal move must make and unmake cleanly. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "movegen.h"
#include "position.h"
#include "zobrist.h"

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_fen: %s: %s\n", what, detail ? detail : "");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    if (!ready) {
        zobrist_init();
        attack_init();
        ready = true;
    }
    if (size > 4096)
        return 0;
    char *fen = malloc(size + 1);
    memcpy(fen, data, size);
    fen[size] = '\0';
    for (int chess960 = 0; chess960 < 2; chess960++) {
        Position pos = {0}, again = {0};
        pos.chess960 = again.chess960 = chess960;
        char err[256], out[128], out2[128];
        if (pos_set_fen(&pos, fen, err, sizeof err)) {
            const char *why = NULL;
            if (!pos_is_ok(&pos, &why))
                fail("accepted FEN gives an inconsistent position", why);
            pos_get_fen(&pos, out);
            if (!pos_set_fen(&again, out, err, sizeof err))
                fail("the FEN written back is refused", out);
            pos_get_fen(&again, out2);
            if (strcmp(out, out2))
                fail("FEN round trip differs", out2);
            if (!pos_reserve(&pos, 4))
                fail("out of memory", NULL);
            MoveList l;
            gen_legal(&pos, &l);
            for (int i = 0; i < l.count; i++) {
                uint64_t key = pos.key;
                make_move(&pos, l.moves[i]);
                if (!pos_is_ok(&pos, &why))
                    fail("inconsistent after a move", why);
                unmake_move(&pos);
                if (pos.key != key)
                    fail("unmake does not restore the key", out);
            }
        }
        pos_free(&pos);
        pos_free(&again);
    }
    free(fen);
    return 0;
}
