/* kernels_matmul.c - ONNX's MatMul of two float32 activations: A's rows
 * times B, one K x N matrix of B per batch of M rows of A.
 *
 * Loop order (docs/kernels.md, "matmul"): output elements in flat order
 * (batch, row m, column n); element (b, m, n) reads A's row m of batch b,
 * all K values, and B's column n, accumulating k = 0 ... K-1 in one float,
 * then writes out[b][m][n].  Every output element reads its whole A row
 * before it is written, as a GEMM that finishes a row block's reduction
 * before storing it does (formulas.md 4.11 says how ONNX Runtime's MLAS
 * differs). */
#include "kernels_internal.h"

int dk_matmul_f32(const struct dk_params *p, const float *a, const float *b, float *out,
		  const struct dk_thread *t)
{
	struct share s;

	if (check_params(p, KIND_FC) || !a || !b || !out)
		return -1;
	/* A is batch x in_h matrices of in_w rows of K = in_c. */
	const size_t M = (size_t)p->in_w, K = (size_t)p->in_c, N = (size_t)p->out_c;
	const size_t rows = (size_t)p->batch * (size_t)p->in_h * M;
	if (share_init(&s, t, rows * N))
		return -1;
	for (size_t r = 0, e = 0; r < rows; r++) {
		const float *row = a + r * K, *matrix = b + (r / M) * K * N;

		for (size_t n = 0; n < N; n++, e++) {
			float acc = 0.0f;

			if (!owns(&s, e))
				continue;
			for (size_t k = 0; k < K; k++)
				acc += row[k] * matrix[k * N + n];
			out[e] = acc;
		}
	}
	return 0;
}
