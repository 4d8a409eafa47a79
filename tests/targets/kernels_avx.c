/* kernels_avx.c - the ReLU of kernels.c, alone in its file so that it
 * alone is built with -O3 -mavx2 and is auto-vectorised. */
void relu_avx(const float *restrict in, float *restrict out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = in[i] > 0 ? in[i] : 0;
}
