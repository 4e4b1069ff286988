/* main.c - the WebAssembly build's entry (`make wasm`): the same engine as
 * ./hexe, driven by the page's Web Worker (web/engine/pre.js) one UCI line
 * at a time instead of by a thread reading standard input.
 *
 * The worker's own thread runs main() and then every command; `go` starts
 * the search on a pthread (another worker) and returns, so the worker stays
 * free to take `stop`, which sets the stop flag and waits for `bestmove`
 * like the native UCI loop does. */
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "startup.h"
#include "uci.h"

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    hexe_start();
    uci_init();
    return 0; /* the runtime stays alive (no EXIT_RUNTIME) for hexe_command */
}

/* One UCI command line; returns 0 after `quit`. */
EMSCRIPTEN_KEEPALIVE int hexe_command(const char *line)
{
    char *copy = strdup(line);
    if (!copy)
        return 1;
    int go_on = uci_command(copy);
    free(copy);
    return go_on;
}
