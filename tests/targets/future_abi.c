/* future_abi.c - a backend plugin of an ABI version dmo does not know (99),
 * built for the tests only: dmo must refuse to load it, with the reason. */
#include <dmo/backend.h>

const struct dmo_backend *dmo_backend_v1(void)
{
	static const struct dmo_backend future = { .abi_version = 99, .name = "xnnpack" };
	return &future;
}
