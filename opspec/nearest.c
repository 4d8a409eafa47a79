/* nearest.c - "did you mean" (nearest.h): the optimal string alignment
 * distance, the Levenshtein distance plus the swap of two neighbours, which
 * is the commonest slip (`plna`), over lower-cased text. */
#include "nearest.h"

#include <ctype.h>
#include <string.h>

/* Names longer than this are never suggested: none of dmo's is. */
#define MAX_NAME 48

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

/* Distance between A (LA bytes) and B (LB bytes), both at most MAX_NAME. */
static size_t distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t d[MAX_NAME + 1][MAX_NAME + 1];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (ca != cb));
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

const char *dmo_nearest(const char *word, size_t len, const char *const *names, size_t count)
{
	const char *best = NULL;
	size_t best_distance = (size_t)-1;

	if (len == 0 || len > MAX_NAME)
		return NULL;
	for (size_t i = 0; i < count; i++) {
		size_t n = names[i] ? strlen(names[i]) : 0, longer = n > len ? n : len, dist, limit;

		if (n == 0 || n > MAX_NAME)
			continue;
		dist = distance(word, len, names[i], n);
		limit = longer / 3 > 1 ? longer / 3 : 1;
		if (dist <= limit && dist < best_distance) {
			best = names[i];
			best_distance = dist;
		}
	}
	return best;
}
