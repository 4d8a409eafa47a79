/* grid.h - grids of op specs: the op-spec grammar with `{...}` sets in place
 * of any part of a value, e.g.
 *   dwconv2d:in={8..64:8}x{8..64:8}x{1,3,16},k={1..5}x{1..5},pad={same,valid}
 * A set lists items separated by ','; an item is a literal (`same`, `3`) or
 * an integer range `A..B` or `A..B:STEP`.  The grid is the cartesian product
 * of its sets, enumerated with the last set varying fastest.  Whether each
 * configuration is a valid op spec is for dmo_opspec_parse to say.
 * Depends on libc only. */
#ifndef DMO_GRID_H
#define DMO_GRID_H

#include <stddef.h>
#include <stdint.h>

/* Most configurations a grid may describe, and longest grid text. */
#define DMO_GRID_MAX_CONFIGS 10000000ull
#define DMO_GRID_MAX_TEXT 4096

struct dmo_grid;

/* Parse TEXT.  Returns 0 and a grid in *GRID, or -1 with a message in ERR
 * that starts with "column N: " (1-based byte position of the fault). */
int dmo_grid_parse(const char *text, struct dmo_grid **grid, char *err, size_t err_len);

/* Configurations in the grid (the product of its set sizes, >= 1). */
uint64_t dmo_grid_count(const struct dmo_grid *grid);

/* The op-spec text of configuration INDEX (< dmo_grid_count) into BUF.
 * Returns its length, or -1 when INDEX is out of range or BUF too small. */
int dmo_grid_spec(const struct dmo_grid *grid, uint64_t index, char *buf, size_t len);

void dmo_grid_free(struct dmo_grid *grid);

/* Write "column N: " and the printf-style message into ERR (when ERR_LEN
 * > 0) and return -1: how the languages of dmo sweep (grids here, formulas
 * in analysis/lib/formula.c) report errors. */
int dmo_column_error(char *err, size_t err_len, size_t column, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
