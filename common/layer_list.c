/* layer_list.c - matching a layer against `--layers LIST` (layer_list.h). */
#include "layer_list.h"

/* The item of LIST starting at P ends at the next comma or the end. */
static const char *item_end(const char *p)
{
	while (*p != '\0' && *p != ',')
		p++;
	return p;
}

/* Parse the decimal number in [P, END); 0 when it is not one (or is
 * above 2^32 - 1, no layer number is). */
static uint64_t number(const char *p, const char *end)
{
	uint64_t v = 0;
	if (p == end)
		return 0;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX)
			return 0;
	}
	return v;
}

/* Whether [P, END) is all digits and dashes: a number or a range, never a
 * name. */
static int numeric(const char *p, const char *end)
{
	for (; p < end; p++)
		if ((*p < '0' || *p > '9') && *p != '-')
			return 0;
	return 1;
}

/* The range [P, END) as *LO..*HI (a lone number is both ends); 0, or -1
 * when it is not a range of layer numbers. */
static int range(const char *p, const char *end, uint64_t *lo, uint64_t *hi)
{
	const char *dash = p;
	while (dash < end && *dash != '-')
		dash++;
	*lo = number(p, dash);
	*hi = dash == end ? *lo : number(dash + 1, end);
	return *lo == 0 || *hi == 0 || *lo > *hi ? -1 : 0;
}

/* Whether NAME matches the pattern [P, END): * any run of characters,
 * ? one character, anything else itself.  Greedy with one backtrack
 * point, so it is linear in practice and never recursive. */
static int glob(const char *p, const char *end, const char *name)
{
	const char *star = NULL, *resume = NULL;
	while (*name != '\0') {
		if (p < end && *p == '*') {
			star = ++p;
			resume = name;
		} else if (p < end && (*p == '?' || *p == *name)) {
			p++;
			name++;
		} else if (star != NULL) {
			p = star;
			name = ++resume;
		} else {
			return 0;
		}
	}
	while (p < end && *p == '*')
		p++;
	return p == end;
}

int dmo_layer_list_check(const char *list, size_t *bad_at)
{
	const char *p = list;
	for (;;) {
		const char *end = item_end(p);
		uint64_t lo, hi;
		if (p == end || (numeric(p, end) && range(p, end, &lo, &hi) != 0)) {
			*bad_at = (size_t)(p - list);
			return -1;
		}
		if (*end == '\0')
			return 0;
		p = end + 1;
	}
}

int dmo_layer_list_has(const char *list, uint32_t seq, const char *name)
{
	const char *p = list;
	for (;;) {
		const char *end = item_end(p);
		uint64_t lo, hi;
		if (numeric(p, end)) {
			if (range(p, end, &lo, &hi) == 0 && lo <= seq && seq <= hi)
				return 1;
		} else if (glob(p, end, name)) {
			return 1;
		}
		if (*end == '\0')
			return 0;
		p = end + 1;
	}
}
