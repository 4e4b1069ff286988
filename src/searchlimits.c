/* searchlimits.c - defaults of the search's limits and parameters. */
#include "searchlimits.h"

#include <string.h>

void limits_init(Limits *lim)
{
    memset(lim, 0, sizeof *lim);
    lim->time[0] = lim->time[1] = NO_TIME;
    lim->inc[0] = lim->inc[1] = NO_TIME;
    lim->movetime = -1;
}

SearchParams search_params_default(void)
{
    return (SearchParams){
        .threads = 1,
        .multipv = 1,
        .move_overhead = 10,
        .skill = 20,
        .elo = 3000,
        .tb = tb_params_default(),
        .eval = eval_default(),
    };
}
