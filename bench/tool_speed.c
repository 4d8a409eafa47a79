/* tool_speed.c - target program of bench/tool_speed.sh: PASSES runs of one
 * MobileNet-size depthwise convolution (112x112x96 f32, 3x3, stride 1, SAME),
 * or of another kernel with a different mix of accesses.
 *
 *   tool_speed PASSES [layer|outside|after] [dwconv|conv1x1|add|small]
 *
 * conv1x1: int8 1x1 convolution, 28x28x128 -> 28x28x128, int32 accumulator
 * (read-heavy: each input pixel is read once per output channel).  add: an
 * element-wise f32 op over the depthwise layer's buffers, out = in * 0.5 + 1
 * (one read and one write per element: write-heavy).  small: SMALL_LAYERS
 * layers per pass, each the element-wise op on its own 4 KiB pair of
 * buffers, so every layer opens over buffers other than the last one's
 * (layer open/close cost and translation discards).
 *
 * layer (default) wraps every pass in dmo_layer_begin/dmo_layer_end, so
 * under --tool=dmo each pass is profiled; outside runs the identical work
 * with no layer open, which is what dmo costs on the rest of a program;
 * after does the same once one (empty) layer over the same buffers has
 * come and gone, so the code was translated to watch them.
 * PASSES may be 0: that run is the startup cost the script subtracts.
 *
 * The loop is plain C that gcc -O2 vectorises over channels, like a tuned
 * deployment kernel (libdmokernels' generic reference kernel runs ten times
 * more instructions per pass, which would put lackey's single traced pass
 * beyond the time budget of `make bench`).  The values do not change the
 * work done, so the input is left zero (see buffer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmo/harness.h"

enum { H = 112, W = 112, C = 96, K = 3 };
enum { PW_HW = 28 * 28, PW_C = 128 };
enum { SMALL_LAYERS = 64, SMALL_BYTES = 4096 };

/* SAME with stride 1 and a 3x3 filter: one row/column of padding per side;
 * taps outside the image are skipped. */
__attribute__((noinline)) static void dwconv(const float *restrict in, const float *restrict filter,
					     const float *restrict bias, float *restrict out)
{
	for (int oy = 0; oy < H; oy++)
		for (int ox = 0; ox < W; ox++) {
			float acc[C];
			for (int c = 0; c < C; c++)
				acc[c] = bias[c];
			for (int fy = 0; fy < K; fy++) {
				int y = oy - 1 + fy;
				if (y < 0 || y >= H)
					continue;
				for (int fx = 0; fx < K; fx++) {
					int x = ox - 1 + fx;
					if (x < 0 || x >= W)
						continue;
					const float *px = in + ((size_t)y * W + x) * C;
					const float *f = filter + (fy * K + fx) * C;
					for (int c = 0; c < C; c++)
						acc[c] += px[c] * f[c];
				}
			}
			memcpy(out + ((size_t)oy * W + ox) * C, acc, sizeof acc);
		}
}

/* Read-heavy: the ic loop vectorises and reloads the input pixel for
 * each output channel. */
__attribute__((noinline)) static void conv1x1(const signed char *restrict in,
					      const signed char *restrict filter,
					      signed char *restrict out)
{
	for (int p = 0; p < PW_HW; p++)
		for (int oc = 0; oc < PW_C; oc++) {
			int acc = 0;
			for (int ic = 0; ic < PW_C; ic++)
				acc += in[p * PW_C + ic] * filter[oc * PW_C + ic];
			acc >>= 8;
			out[p * PW_C + oc] = (signed char)(acc > 127 ? 127 : acc < -128 ? -128 : acc);
		}
}

__attribute__((noinline)) static void add(const float *restrict in, float *restrict out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = in[i] * 0.5f + 1.0f;
}

/* Only the small filter and bias are filled by guest code: under lackey
 * every guest instruction becomes a trace line, and filling 1.2 M floats
 * would cost the 0-pass run a minute.  calloc's fresh pages are zero. */
static float *buffer(size_t n, int fill)
{
	float *p = calloc(n, sizeof *p);
	if (p == NULL) {
		perror("tool_speed");
		exit(1);
	}
	for (size_t i = 0; fill && i < n; i++)
		p[i] = (float)(i % 11) - 5.0f;
	return p;
}

static void begin(const char *name, const char *spec, const void *in, size_t in_bytes,
		  void *out, size_t out_bytes)
{
	if (dmo_layer_begin(name, spec, in, in_bytes, out, out_bytes) != 0) {
		fprintf(stderr, "tool_speed: dmo_layer_begin failed\n");
		exit(1);
	}
}

static void end(void)
{
	if (dmo_layer_end() != 0) {
		fprintf(stderr, "tool_speed: dmo_layer_end failed\n");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	const size_t n = (size_t)H * W * C;
	char *end_of_number = "";
	long passes = argc > 1 ? strtol(argv[1], &end_of_number, 10) : -1;
	const char *mode = argc > 2 ? argv[2] : "layer", *kernel = argc > 3 ? argv[3] : "dwconv";
	int layer = strcmp(mode, "layer") == 0, after = strcmp(mode, "after") == 0;

	if (argc < 2 || argc > 4 || *end_of_number != '\0' || passes < 0 ||
	    (!layer && !after && strcmp(mode, "outside") != 0) ||
	    (strcmp(kernel, "dwconv") != 0 && strcmp(kernel, "conv1x1") != 0 &&
	     strcmp(kernel, "add") != 0 && strcmp(kernel, "small") != 0)) {
		fprintf(stderr, "usage: tool_speed PASSES [layer|outside|after] "
				"[dwconv|conv1x1|add|small]\n");
		return 2;
	}
	float *in = buffer(n, 0), *filter = buffer(K * K * C, 1), *bias = buffer(C, 1);
	float *out = buffer(n, 0);
	signed char *pw_filter = (signed char *)buffer(PW_C * PW_C / sizeof(float), 0);
	for (size_t i = 0; i < PW_C * PW_C; i++)
		pw_filter[i] = (signed char)(i % 7) - 3;
	if (after) {
		begin("empty", NULL, in, n * sizeof *in, out, n * sizeof *out);
		end();
	}
	for (long i = 0; i < passes; i++) {
		if (strcmp(kernel, "small") == 0) {
			/* Layer k reads in + k*8 KiB and writes the next 4 KiB. */
			for (int k = 0; k < SMALL_LAYERS; k++) {
				float *a = in + k * (2 * SMALL_BYTES / sizeof(float));
				float *b = a + SMALL_BYTES / sizeof(float);
				if (layer)
					begin("small", NULL, a, SMALL_BYTES, b, SMALL_BYTES);
				add(a, b, SMALL_BYTES / sizeof(float));
				if (layer)
					end();
			}
			continue;
		}
		if (layer && strcmp(kernel, "dwconv") == 0)
			begin("dwconv", "dwconv2d:in=112x112x96,k=3x3,stride=1,pad=same", in,
			      n * sizeof *in, out, n * sizeof *out);
		else if (layer && strcmp(kernel, "conv1x1") == 0)
			begin("conv1x1", NULL, in, PW_HW * PW_C, out, PW_HW * PW_C);
		else if (layer)
			begin("add", NULL, in, n * sizeof *in, out, n * sizeof *out);
		if (strcmp(kernel, "dwconv") == 0)
			dwconv(in, filter, bias, out);
		else if (strcmp(kernel, "conv1x1") == 0)
			conv1x1((const signed char *)in, pw_filter, (signed char *)out);
		else
			add(in, out, n);
		if (layer)
			end();
	}
	/* Print a result so the run visibly did the work. */
	printf("%ld passes, out[%zu] = %g\n", passes, n / 2, (double)out[n / 2]);
	free(in);
	free(filter);
	free(bias);
	free(out);
	free(pw_filter);
	return 0;
}
