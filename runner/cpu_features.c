/* cpu_features.c - CPUID as the calling process sees it (cpu_features.h). */
#include "cpu_features.h"

#include <stdio.h>
#include <string.h>

void dmo_cpu_features(char *text, size_t len)
{
	__builtin_cpu_init();
	const struct {
		const char *name;
		int has;
	} features[] = {
		{ "sse4.1", __builtin_cpu_supports("sse4.1") },
		{ "sse4.2", __builtin_cpu_supports("sse4.2") },
		{ "avx", __builtin_cpu_supports("avx") },
		{ "avx2", __builtin_cpu_supports("avx2") },
		{ "fma", __builtin_cpu_supports("fma") },
		{ "avx512f", __builtin_cpu_supports("avx512f") },
	};
	size_t used = 0;

	text[0] = '\0';
	for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
		if (features[i].has && used < len)
			used += (size_t)snprintf(text + used, len - used, "%s%s", used ? " " : "",
						 features[i].name);
}

const char *dmo_cpu_widest_isa(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") ? "avx512f"
	       : __builtin_cpu_supports("avx2")  ? "avx2"
	       : __builtin_cpu_supports("avx")   ? "avx"
	       : __builtin_cpu_supports("sse4.1") ? "sse4.1"
						  : "sse2";
}

int dmo_isa_beyond_valgrind(const char *isa)
{
	return strstr(isa, "avx512") != NULL;
}
