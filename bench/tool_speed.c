/* tool_speed.c - target program of bench/tool_speed.sh: PASSES runs of one
 * MobileNet-size depthwise convolution (112x112x96 f32, 3x3, stride 1, SAME).
 *
 *   tool_speed PASSES [layer|outside|after]
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

int main(int argc, char **argv)
{
	const size_t n = (size_t)H * W * C;
	char *end = "";
	long passes = argc > 1 ? strtol(argv[1], &end, 10) : -1;
	int layer = argc < 3 || strcmp(argv[2], "layer") == 0;
	int after = argc == 3 && strcmp(argv[2], "after") == 0;

	if (argc < 2 || argc > 3 || *end != '\0' || passes < 0 ||
	    (!layer && !after && strcmp(argv[2], "outside") != 0)) {
		fprintf(stderr, "usage: tool_speed PASSES [layer|outside|after]\n");
		return 2;
	}
	float *in = buffer(n, 0), *filter = buffer(K * K * C, 1), *bias = buffer(C, 1);
	float *out = buffer(n, 0);
	if (after && (dmo_layer_begin("empty", NULL, in, n * sizeof *in, out, n * sizeof *out) != 0 ||
		      dmo_layer_end() != 0)) {
		fprintf(stderr, "tool_speed: the empty layer failed\n");
		return 1;
	}
	for (long i = 0; i < passes; i++) {
		if (layer && dmo_layer_begin("dwconv", "dwconv2d:in=112x112x96,k=3x3,stride=1,pad=same",
					     in, n * sizeof *in, out, n * sizeof *out) != 0) {
			fprintf(stderr, "tool_speed: dmo_layer_begin failed\n");
			return 1;
		}
		dwconv(in, filter, bias, out);
		if (layer && dmo_layer_end() != 0) {
			fprintf(stderr, "tool_speed: dmo_layer_end failed\n");
			return 1;
		}
	}
	/* Print a result so the run visibly did the work. */
	printf("%ld passes, out[%zu] = %g\n", passes, n / 2, (double)out[n / 2]);
	free(in);
	free(filter);
	free(bias);
	free(out);
	return 0;
}
