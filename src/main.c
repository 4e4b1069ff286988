/* main.c - start-up: table initialisation, then the UCI loop or a subcommand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "bench.h"
#include "play.h"
#include "startup.h"
#include "uci.h"
#ifndef HEXE_NO_TOOLS
#include "tools/datagen.h"
#include "tools/nettrain.h"
#include "tools/pool.h"
#include "tools/train.h"
#include "tools/tune.h"
#endif

static int run(int argc, char **argv)
{
    /* Subcommands: `hexe bench [depth]`, `hexe play ...`, `hexe datagen ...`;
     * without one, the UCI loop reads standard input. */
    if (argc > 1 && !strcmp(argv[1], "bench")) {
        char *end = NULL;
        long depth = argc > 2 ? strtol(argv[2], &end, 10) : 0;
        if (argc > 3 || (end && (*end || end == argv[2] || depth < 1 || depth > 64))) {
            args_error("bench", "usage: hexe bench [depth 1-64], not '%s'", argv[2]);
            return 2;
        }
        EvalChoice eval = eval_default();
        bench_run((int)depth, 1, &eval);
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "play"))
        return play_main(argc - 1, argv + 1);
#ifdef HEXE_NO_TOOLS
    /* The Windows build leaves the training tools out (datagen forks). */
    static const char *const tools[] = {"datagen", "nettrain", "train", "tune"};
    for (int i = 0; argc > 1 && i < 4; i++)
        if (!strcmp(argv[1], tools[i])) {
            fprintf(stderr, "hexe: '%s' is not in this build; the training tools come with the Linux build\n",
                    tools[i]);
            return 2;
        }
#else
    if (argc > 1 && !strcmp(argv[1], "datagen"))
        return datagen_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "nettrain"))
        return nettrain_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "pool"))
        return pool_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "train"))
        return train_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "tune"))
        return tune_main(argc - 1, argv + 1);
#endif
    uci_init();
    uci_loop(stdin);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    hexe_start(); /* hash, threads, tablebases and book for every subcommand */
    int rc = run(argc, argv);
    hexe_stop();
    return rc;
}
