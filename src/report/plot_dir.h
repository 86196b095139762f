/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The directory side of every --plot: create the directory, write data
 * files and a gnuplot script into it, and render the script with gnuplot
 * if it is installed (a missing gnuplot is not an error: the data and the
 * script stay, with a note saying how to render them).
 */
#ifndef SCHEDLAB_REPORT_PLOT_DIR_H
#define SCHEDLAB_REPORT_PLOT_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* the terminals every script renders to: PNG and SVG, 1000x600 */
#define PLOT_TERM_PNG "set terminal png size 1000,600 font ',10'"
#define PLOT_TERM_SVG "set terminal svg size 1000,600 dynamic font ',10'"

/*
 * @s inside a gnuplot single-quoted string ('...'), where a quote is
 * written twice; with "set termoption noenhanced", nothing else is special.
 */
void plot_dir_quote(FILE *f, const char *s);
/* Create @dir if needed; 0, or -1 with "--plot: ..." in @err. */
int plot_dir_prepare(const char *dir, char *err, size_t errlen);
/* Open @dir/@name for writing; NULL (a message printed, *@failed set) if it cannot. */
FILE *plot_dir_open(const char *dir, const char *name, bool *failed);
/* Close a file from plot_dir_open, setting *@failed on a write error. */
void plot_dir_close(FILE *f, bool *failed);
/*
 * Render @dir/@script with gnuplot. 0 rendered (or gnuplot missing: a note
 * says how to render later), -1 gnuplot failed (a message says so).
 */
int plot_dir_render(const char *dir, const char *script);

#endif
