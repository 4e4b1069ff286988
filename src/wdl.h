/* wdl.h - scores as UCI shows them: "cp N" or "mate N", with the
 * win/draw/loss estimate of UCI_ShowWDL. */
#ifndef HEXE_WDL_H
#define HEXE_WDL_H

#include <stddef.h>

#include "searchlimits.h"

/* "cp 23", "mate 4", "mate -2", followed by " wdl W D L" when show_wdl. */
void format_score(int score, bool show_wdl, char *buf, size_t n);

#endif
