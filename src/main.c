/* main.c - start-up: table initialisation, then the UCI loop or a subcommand. */
#include <stdio.h>
#include <string.h>

#include "position.h"
#include "uci.h"
#include "zobrist.h"

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    zobrist_init();
    attack_init();
    uci_init();
    (void)argc;
    (void)argv;
    uci_loop(stdin);
    return 0;
}
