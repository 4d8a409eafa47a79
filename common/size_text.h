/* size_text.h - the one rule for a byte count written as text ("64M",
 * "2G", "1048576"): the tool reads --dmo-max-mem with it and the dmo
 * command checks --max-mem with it before Valgrind starts, so both accept
 * exactly the same sizes.  Freestanding: no libc. */
#ifndef DMO_SIZE_TEXT_H
#define DMO_SIZE_TEXT_H

#include <stdint.h>

/* Decimal digits with an optional K, M or G suffix (either case; powers of
 * 1024).  Returns 0 with the count in *BYTES, or -1 when TEXT is not one or
 * does not fit 64 bits. */
static inline int dmo_size_parse(const char *text, uint64_t *bytes)
{
	uint64_t value = 0;
	unsigned shift = 0;
	const char *p = text;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (value > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		value = value * 10 + (uint64_t)(*p - '0');
	}
	if (*p == 'K' || *p == 'k')
		shift = 10;
	else if (*p == 'M' || *p == 'm')
		shift = 20;
	else if (*p == 'G' || *p == 'g')
		shift = 30;
	if (shift != 0)
		p++;
	if (*p != '\0' || value > (UINT64_MAX >> shift))
		return -1;
	*bytes = value << shift;
	return 0;
}

/* The least --max-mem the tool takes: two slabs' worth. */
#define DMO_MAX_MEM_MIN (2ULL << 20)

#endif
