/* plan.h - tensor-arena planning of a model layer table with and without
 * diagonal overlaps (`dmo plan`).  The algorithm and a worked example are in
 * docs/plan.md.
 *
 * Tensors: the model's activation tensors (constants live outside the
 * arena), in the model's order; for a layer table tensor 0 is the model
 * input, tensor L+1 the output of layer L.  A tensor is live from its
 * producing layer (layer 0 for model inputs and state) to its last
 * consumer; a model output, or a tensor nobody reads, lives to the last
 * layer, and so does state (a variable tensor).  A layer without a dmo op
 * spec has O_s = 0: its tensors never share a byte.  Two tensors whose live
 * ranges intersect must not share a byte, with one exception, the diagonal
 * overlap: when layer L's first operand (the profiled input,
 * docs/definitions.md) dies at L, is not a model output and is not also
 * its other operand, it may start X <= O_s(L) bytes
 * before the end of L's output (input_start = output_start + OB - X). */
#ifndef DMO_PLAN_H
#define DMO_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model_table.h"

/* Where each layer's O_s comes from. */
enum dmo_os_source {
	DMO_OS_ALGORITHMIC, /* exact, for the reference loop order */
	DMO_OS_ANALYTIC,    /* the closed-form safe lower bound */
	DMO_OS_MEASURED,    /* os_bytes of a profiled run directory */
};

/* Default time limit of the placement search, seconds. */
#define DMO_PLAN_TIME_LIMIT 10.0

/* How good the overlap plan is. */
enum dmo_plan_status {
	DMO_PLAN_AT_BOUND,   /* its peak is the lower bound: optimal */
	DMO_PLAN_OPTIMAL,    /* above the bound, but the search proved that
			      * no placement needs less */
	DMO_PLAN_BEST_FOUND, /* the search stopped (time limit, state budget,
			      * too many tensors live at once): best found */
};

struct dmo_plan_tensor {
	int model_tensor;        /* index in the model's tensors; -1 for a
				  * scratch buffer of layer PRODUCER */
	int producer;            /* layer writing it, -1 for inputs and state */
	uint64_t bytes;
	int first, last;         /* live range, layer indices, inclusive */
	int output;              /* no layer reads it: a model output */
	uint64_t offset_plain;   /* greedy by size, no overlaps */
	uint64_t offset_dmo;     /* diagonal overlaps, the best plan found */
};

struct dmo_plan_layer {
	int in, in2, out;        /* tensor indices; in2 = -1 unless add/mul
				  * reads it; in = -1 when the layer reads no
				  * activation */
	uint64_t os;             /* O_s of the layer, bytes */
	int diagonal;            /* input IN dies here: it may overlap OUT */
	uint64_t overlap;        /* bytes IN and OUT share in the dmo plan */
	uint64_t live_bytes;     /* sum of the tensors live at this layer */
};

struct dmo_plan {
	size_t n_layers, n_tensors;
	struct dmo_plan_layer *layers;
	struct dmo_plan_tensor *tensors;
	uint64_t peak_plain;     /* arena bytes without overlaps (TFLM greedy) */
	uint64_t peak_dmo;       /* arena bytes with diagonal overlaps: the
				  * best of the greedy orders and the search */
	uint64_t peak_reverse;   /* overlaps, greedy in reverse execution order (paper) */
	uint64_t peak_by_size;   /* overlaps, greedy in TFLM's order */
	uint64_t bound_dmo;      /* max over layers of live_bytes - os (diagonal) */
	int bound_layer;         /* the layer where bound_dmo is reached */
	enum dmo_plan_status status;
	double plan_seconds;     /* wall time of the greedy plans and the search */
	int searched;            /* the search ran (no greedy plan was at the bound) */
	uint64_t search_states;  /* partial plans the search kept, all steps */
	uint64_t align;          /* offsets and sizes in units of ALIGN bytes */
	size_t n_scratch;        /* scratch buffers, the last tensors */
	int whole_arena;         /* the kernels' scratch buffers are planned
				  * (rules gave SCRATCH): the peaks are TFLM's
				  * whole non-persistent arena, not the
				  * activations only */
};

/* "whole non-persistent arena" or "activations only", for every size. */
const char *dmo_plan_arena_kind(const struct dmo_plan *plan);

/* How the arena is laid out.  dmo's own plan of the activations: bytes
 * (ALIGN 1), no scratch.  TFLite Micro's non-persistent arena: every
 * offset a multiple of ALIGN and every size rounded up to it (16: TFLM's
 * buffer alignment and its rounding of the head size), and SCRATCH[L]
 * bytes (per layer, NULL: none) that layer L's kernel needs beside its
 * input and output, planned as a tensor live during layer L only (give
 * an array of zeros for kernels that need none: the plan is then TFLM's
 * whole arena; NULL: activations only). */
struct dmo_plan_rules {
	uint64_t align;
	const uint64_t *scratch;
};

/* TFLite Micro's buffer alignment. */
#define DMO_TFLM_ALIGN 16

/* O_s of every layer of MODEL into OS[n_layers].  DIR is the run directory
 * for DMO_OS_MEASURED (ignored otherwise); its layers are matched by name,
 * and a missing layer, a layer whose status is not ok or whose buffer sizes
 * differ from the table's is an error.  Returns 0, or -1 with ERR. */
int dmo_plan_os(const struct dmo_model *model, enum dmo_os_source source,
		const char *dir, uint64_t *os, char *err, size_t err_len);

/* Progress callbacks (dmo plan's lines on stderr); either may be NULL.
 * TENSOR_PLACED: the placement search has placed one more of N_TENSORS
 * tensors (in its own order), keeping STATES partial plans so far (all
 * steps); EXACT is 0 once the time limit or state budget has made it a beam
 * search.  LAYER_DONE: a
 * layer of a plan check has run in both layouts and its results compared
 * equal (--verify); LAYER counts from 0 in the model's layers. */
struct dmo_plan_watch {
	void (*tensor_placed)(void *arg, size_t n_tensors, uint64_t states, int exact);
	void (*layer_done)(void *arg, size_t layer);
	void *arg;
};

/* Plan MODEL with the per-layer O_s in OS: without overlaps by TFLite
 * Micro's greedy rule, with overlaps by the same rule and in reverse
 * execution order, then the placement search from the better of the two,
 * given TIME_LIMIT seconds (WATCH, or NULL, told of each tensor it places).
 * Both plans are checked with dmo_plan_check before returning.  Returns 0,
 * or -1 with ERR (a table with no layers, an O_s above min(IB, OB), memory,
 * or a broken plan). */
int dmo_plan_build(const struct dmo_model *model, const uint64_t *os, double time_limit,
		   const struct dmo_plan_watch *watch, struct dmo_plan *plan, char *err,
		   size_t err_len);

/* dmo_plan_build under RULES (NULL: bytes, no scratch).  With ALIGN > 1
 * the plan is made in units of ALIGN: a tensor of B bytes takes
 * ceil(B / ALIGN) units and a diagonal pair may share OB_u - ceil((OB -
 * O_s) / ALIGN) units, which is exactly what aligned offsets allow. */
int dmo_plan_build_rules(const struct dmo_model *model, const uint64_t *os,
			 const struct dmo_plan_rules *rules, double time_limit,
			 const struct dmo_plan_watch *watch, struct dmo_plan *plan, char *err,
			 size_t err_len);

/* Bytes tensors IN and OUT may share: O_s of the layer producing OUT when
 * it is that layer's diagonal pair with IN as its input, else 0. */
uint64_t dmo_plan_share(const struct dmo_plan *plan, int in, int out);

/* "optimal (= bound)", "optimal, bound not reachable" or "best found". */
const char *dmo_plan_status_name(enum dmo_plan_status status);

/* The invariant of a plan: no two tensors with intersecting live ranges
 * share a byte, except a diagonal layer's input and output sharing at most
 * O_s bytes in the permitted direction; every tensor ends within the peak.
 * WITH_OVERLAPS picks offset_dmo (else offset_plain, where no sharing at all
 * is allowed).  Returns 0, or -1 naming the offending pair in ERR. */
int dmo_plan_check(const struct dmo_plan *plan, int with_overlaps, char *err,
		   size_t err_len);

/* Run MODEL through the reference kernels twice, on deterministic data:
 * every tensor in its own buffer, then every tensor at its offset_dmo inside
 * one arena of peak_dmo bytes, and compare every model output bit for bit.
 * Returns 0 when equal, 1 when they differ (ERR names the first tensor and
 * byte), -1 with ERR when a kernel could not run.  WATCH (or NULL) is
 * told of each layer checked. */
int dmo_plan_verify(const struct dmo_model *model, const struct dmo_plan *plan,
		    const struct dmo_plan_watch *watch, char *err, size_t err_len);

/* The per-layer table: live ranges, both offsets, O_s and the overlap used,
 * as aligned text or (CSV) one row per layer with a header. */
void dmo_plan_print(FILE *out, const struct dmo_model *model,
		    const struct dmo_plan *plan, int csv);

/* The layer whose row tensor T is in the per-layer table (the layer's
 * first result), or -1 (a model input, a later result, a scratch buffer). */
int dmo_plan_layer_of(const struct dmo_model *model, const struct dmo_plan *plan, size_t t);

/* The name the per-layer table gives tensor T: its layer's name, the
 * model's tensor name, "(model input)" for a table's input, "(scratch of
 * L)", into NAME. */
void dmo_plan_tensor_name(const struct dmo_model *model, const struct dmo_plan *plan, size_t t,
			  char *name, size_t len);

void dmo_plan_free(struct dmo_plan *plan);

/* "algorithmic", "analytic" or "measured:DIR" (*DIR then points into TEXT).
 * Returns 0, or -1 for anything else. */
int dmo_os_source_parse(const char *text, enum dmo_os_source *source, const char **dir);

/* dmo_plan_os with SOURCE as text: "algorithmic", "analytic" or
 * "measured:DIR".  Returns 0, or -1 with ERR. */
int dmo_plan_os_named(const struct dmo_model *model, const char *source, uint64_t *os, char *err,
		      size_t err_len);

/* Everything `dmo plan` and `dmo plot --plan` start from: locate MODEL (a
 * name shipped with dmo, a table, .tflite or .onnx file; SHAPES, N_SHAPES
 * fix dynamic dimensions, may be NULL, 0), load it, take each layer's O_s
 * from SOURCE ("algorithmic", "analytic" or "measured:DIR") and plan it
 * (the search given TIME_LIMIT seconds, WATCH as for dmo_plan_build).
 * Returns 0 with *MODEL and *PLAN to free, or -1 with ERR (nothing to
 * free). */
int dmo_plan_model(const char *name, const struct dmo_model_shape *shapes, size_t n_shapes,
		   const char *source, double time_limit, const struct dmo_plan_watch *watch,
		   struct dmo_model *model, struct dmo_plan *plan, char *err, size_t err_len);

#endif
