/* startup.c - start-up and shut-down of the engine's resources. */
#include "startup.h"

#include "book.h"
#include "engine.h"
#include "eval.h"
#include "syzygy/probe.h"
#include "syzygy/setup.h"
#include "tt.h"
#include "zobrist.h"

void hexe_start(void)
{
    zobrist_init();
    attack_init();
    eval_init();
    tt_resize(16, 1);
    engine_init();
    char dir[1024], msg[1024];
    if (tb_default_path(dir, sizeof dir)) /* the bundled 3-4-piece tables */
        tb_set_path(dir, msg, sizeof msg);
    book_use(BOOK_DEFAULT_NAME, msg, sizeof msg); /* books/book.bin, when present */
}

void hexe_stop(void)
{
    engine_quit();
    book_release();
    tt_free();
}
