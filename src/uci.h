/* uci.h - the UCI front end. */
#ifndef HEXE_UCI_H
#define HEXE_UCI_H

#include <stdio.h>

#include "types.h"

void uci_init(void);
void uci_loop(FILE *in);
bool uci_command(char *line); /* one command line, changed in place; false on quit */
char *read_line(FILE *in);

#endif
