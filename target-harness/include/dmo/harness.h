/* dmo/harness.h - mark the layers of any program for the dmo profiler.
 *
 * Call dmo_layer_begin() right before a kernel runs and dmo_layer_end()
 * right after.  Under `dmo profile` (valgrind --tool=dmo) the tool records
 * every load and store the kernel makes to the two buffers in between.
 * Without the tool both calls only check their arguments (the op spec
 * included) and return 0.
 *
 * Link with libdmo-harness (pkg-config dmo-harness).  Layers must not nest;
 * call from one thread at a time (the kernel itself may use many). */
#ifndef DMO_HARNESS_H
#define DMO_HARNESS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dmo_layer_begin takes the buffers' addresses, never their contents:
 * an output buffer not yet written is fine.  GCC reads a const pointer
 * parameter as a read of the memory (-Wmaybe-uninitialized) unless told
 * otherwise; Clang has no such warning and no such attribute. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#define DMO_ADDRESS_ONLY_(input, output) __attribute__((access(none, input), access(none, output)))
#else
#define DMO_ADDRESS_ONLY_(input, output)
#endif

/* Error codes (negated on return). */
enum {
	DMO_EINVAL = 1,    /* NULL, zero-sized, overlapping, wrapping or > 4 GiB
			    * buffers; a name over 255 bytes, a spec over 1023,
			    * or a control character in either */
	DMO_ENESTED = 2,   /* begin while a layer is open */
	DMO_ENOTOPEN = 3,  /* end without an open layer */
	DMO_EREJECTED = 4, /* the tool refused the layer (see its message) */
	DMO_EIO = 5,       /* the FIFO to the tool failed */
	DMO_ESPEC = 6,     /* the op spec does not parse */
	DMO_ESPECSIZE = 7, /* the op spec's input or output bytes are not the
			    * buffers' sizes */
};

/* Start a layer.  NAME (<= 255 bytes, UTF-8 welcome) labels it; OP_SPEC
 * (may be NULL, <= 1023 bytes) is an op spec such as "relu:in=1x8x8x16"
 * that lets the analysis check the result against its formulas.  The spec
 * must parse, and its input and output bytes must be INPUT_BYTES and
 * OUTPUT_BYTES (for add and mul, INPUT is the first operand).  Returns 0
 * or a negative DMO_E* code, the same with and without the tool; a layer
 * refused here is never profiled (under the tool it is recorded as an
 * error row), and the next one is not affected.  In a child made by fork while profiling,
 * both calls return 0 and record nothing (the tool says so once). */
int dmo_layer_begin(const char *name, const char *op_spec,
		    const void *input, size_t input_bytes,
		    const void *output, size_t output_bytes) DMO_ADDRESS_ONLY_(3, 5);

/* End the open layer.  Returns 0 or a negative DMO_E* code. */
int dmo_layer_end(void);

/* Why the last dmo_layer_begin or dmo_layer_end call failed, in one line
 * (e.g. "bad op spec: unknown key 'kk'"); "" after one that succeeded.
 * Valid until the next call. */
const char *dmo_layer_error(void);

#ifdef __cplusplus
}
#endif

#endif
