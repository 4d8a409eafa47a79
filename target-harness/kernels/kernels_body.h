/* kernels_body.h - the loop nests of every op, written once and instantiated
 * per data type by kernels.c (which defines T, W, B, ACC, SUFFIX and the
 * per-type arithmetic before each #include, and undefines the per-type
 * macros at its end).  The loop order here is the
 * normative one of dmokernels.h; keep it. */

#define DK_CAT2(a, b) a##b
#define DK_CAT(a, b) DK_CAT2(a, b)
#define DK_FN(op) DK_CAT(dk_##op##_, SUFFIX)

int DK_FN(conv2d)(const struct dk_params *p, const T *in, const W *filter,
		  const B *bias, T *out, const struct dk_thread *t)
{
	struct share sh;

	/* Groups are NCHW's alone (kernels_nchw*.c). */
	if (!in || !filter || !out || check_params(p, KIND_CONV) || conv_groups(p) > 1 ||
	    share_init(&sh, t, out_elems(p)))
		return -1;
	const struct dk_quant *q = &p->q;
	size_t e = 0;
	for (int b = 0; b < p->batch; b++)
	for (int oy = 0; oy < p->out_h; oy++)
	for (int ox = 0; ox < p->out_w; ox++)
	for (int oc = 0; oc < p->out_c; oc++, e++) {
		if (!owns(&sh, e))
			continue;
		ACC acc = 0;
		for (int fy = 0; fy < p->k_h; fy++) {
			int iy = oy * p->stride_h - p->pad_top + fy * p->dil_h;
			if (iy < 0 || iy >= p->in_h)
				continue;
			for (int fx = 0; fx < p->k_w; fx++) {
				int ix = ox * p->stride_w - p->pad_left + fx * p->dil_w;
				if (ix < 0 || ix >= p->in_w)
					continue;
				const T *ip = in + (((size_t)b * p->in_h + iy) * p->in_w + ix) * p->in_c;
				const W *fp = filter + (((size_t)oc * p->k_h + fy) * p->k_w + fx) * p->in_c;
				for (int ic = 0; ic < p->in_c; ic++)
					acc += MAC(q, ip[ic], fp[ic]);
			}
		}
		if (bias)
			acc += bias[oc];
		out[e] = FINISH(q, acc, oc);
	}
	return 0;
}

int DK_FN(dwconv2d)(const struct dk_params *p, const T *in, const W *filter,
		    const B *bias, T *out, const struct dk_thread *t)
{
	struct share sh;

	if (!in || !filter || !out || check_params(p, KIND_DWCONV) ||
	    share_init(&sh, t, out_elems(p)))
		return -1;
	const struct dk_quant *q = &p->q;
	size_t e = 0;
	for (int b = 0; b < p->batch; b++)
	for (int oy = 0; oy < p->out_h; oy++)
	for (int ox = 0; ox < p->out_w; ox++)
	for (int ic = 0; ic < p->in_c; ic++)
	for (int m = 0; m < p->mult; m++, e++) {
		if (!owns(&sh, e))
			continue;
		int oc = m + ic * p->mult;
		ACC acc = 0;
		for (int fy = 0; fy < p->k_h; fy++) {
			int iy = oy * p->stride_h - p->pad_top + fy * p->dil_h;
			if (iy < 0 || iy >= p->in_h)
				continue;
			for (int fx = 0; fx < p->k_w; fx++) {
				int ix = ox * p->stride_w - p->pad_left + fx * p->dil_w;
				if (ix < 0 || ix >= p->in_w)
					continue;
				acc += MAC(q, in[(((size_t)b * p->in_h + iy) * p->in_w + ix) * p->in_c + ic],
					   filter[((size_t)fy * p->k_w + fx) * p->out_c + oc]);
			}
		}
		if (bias)
			acc += bias[oc];
		out[e] = FINISH(q, acc, oc);
	}
	return 0;
}

int DK_FN(fc)(const struct dk_params *p, const T *in, const W *filter,
	      const B *bias, T *out, const struct dk_thread *t)
{
	struct share sh;

	if (!in || !filter || !out || check_params(p, KIND_FC) ||
	    share_init(&sh, t, (size_t)p->batch * p->out_c))
		return -1;
	const struct dk_quant *q = &p->q;
	size_t k = (size_t)p->in_h * p->in_w * p->in_c, e = 0;
	for (int b = 0; b < p->batch; b++)
	for (int oc = 0; oc < p->out_c; oc++, e++) {
		if (!owns(&sh, e))
			continue;
		ACC acc = 0;
		for (size_t d = 0; d < k; d++)
			acc += MAC(q, in[p->trans_a ? d * (size_t)p->batch + (size_t)b : b * k + d],
				   filter[oc * k + d]);
		if (bias)
			acc += bias[p->bias_per_output ? e : (size_t)oc];
		out[e] = FINISH(q, acc, oc);
	}
	return 0;
}

/* Both poolings share the window walk; AVERAGE selects the reduction. */
static inline __attribute__((always_inline)) int
DK_FN(pool)(const struct dk_params *p, const T *in, T *out,
	    const struct dk_thread *t, int average)
{
	struct share sh;

	if (!in || !out || check_params(p, KIND_POOL) ||
	    share_init(&sh, t, out_elems(p)))
		return -1;
	const struct dk_quant *q = &p->q;
	size_t e = 0;
	for (int b = 0; b < p->batch; b++)
	for (int oy = 0; oy < p->out_h; oy++)
	for (int ox = 0; ox < p->out_w; ox++)
	for (int c = 0; c < p->out_c; c++, e++) {
		if (!owns(&sh, e))
			continue;
		ACC sum = 0;
		T max = T_LOWEST;
		int count = 0;
		for (int fy = 0; fy < p->k_h; fy++) {
			int iy = oy * p->stride_h - p->pad_top + fy;
			if (iy < 0 || iy >= p->in_h)
				continue;
			for (int fx = 0; fx < p->k_w; fx++) {
				int ix = ox * p->stride_w - p->pad_left + fx;
				if (ix < 0 || ix >= p->in_w)
					continue;
				T v = in[(((size_t)b * p->in_h + iy) * p->in_w + ix) * p->in_c + c];
				if (average)
					sum += v;
				else if (v > max)
					max = v;
				count++;
			}
		}
		out[e] = !count ? (T)0 : average ? POOL_AVG(q, sum, count) : POOL_MAX(q, max);
	}
	return 0;
}

int DK_FN(maxpool)(const struct dk_params *p, const T *in, T *out,
		   const struct dk_thread *t)
{
	return DK_FN(pool)(p, in, out, t, 0);
}

int DK_FN(avgpool)(const struct dk_params *p, const T *in, T *out,
		   const struct dk_thread *t)
{
	return DK_FN(pool)(p, in, out, t, 1);
}

/* Element-wise loops; F is one of the per-type element functions and is
 * inlined, so each public op compiles to its own tight loop. */
static inline __attribute__((always_inline)) int
DK_FN(unary)(const struct dk_params *p, const T *in, T *out,
	     const struct dk_thread *t, T (*f)(const struct dk_quant *, T))
{
	struct share sh;

	if (!in || !out || check_params(p, KIND_ELEMENTWISE) ||
	    share_init(&sh, t, in_elems(p)))
		return -1;
	for (size_t e = sh.lo; e < sh.hi; e++)
		if (owns(&sh, e))
			out[e] = f(&p->q, in[e]);
	return 0;
}

static inline __attribute__((always_inline)) int
DK_FN(binary)(const struct dk_params *p, const T *a, const T *b, T *out,
	      const struct dk_thread *t, T (*f)(const struct dk_quant *, T, T))
{
	struct share sh;

	if (!a || !b || !out || check_params(p, KIND_ELEMENTWISE) ||
	    share_init(&sh, t, in_elems(p)))
		return -1;
	for (size_t e = sh.lo; e < sh.hi; e++)
		if (owns(&sh, e))
			out[e] = f(&p->q, a[e], b[e]);
	return 0;
}

int DK_FN(relu)(const struct dk_params *p, const T *in, T *out,
		const struct dk_thread *t)
{
	return DK_FN(unary)(p, in, out, t, EW_RELU);
}

int DK_FN(relu6)(const struct dk_params *p, const T *in, T *out,
		 const struct dk_thread *t)
{
	return DK_FN(unary)(p, in, out, t, EW_RELU6);
}

int DK_FN(add)(const struct dk_params *p, const T *a, const T *b, T *out,
	       const struct dk_thread *t)
{
	return DK_FN(binary)(p, a, b, out, t, EW_ADD);
}

int DK_FN(mul)(const struct dk_params *p, const T *a, const T *b, T *out,
	       const struct dk_thread *t)
{
	return DK_FN(binary)(p, a, b, out, t, EW_MUL);
}

#undef DK_FN
#undef DK_CAT
#undef DK_CAT2

/* The includer's per-type macros end here, so the next type starts clean;
 * the macros shared by several types (MAC, POOL_*, EW_RELU6) are the
 * includer's to undefine. */
#undef T
#undef W
#undef B
#undef ACC
#undef SUFFIX
#undef T_LOWEST
#undef T_HIGHEST
#undef FINISH
#undef EW_RELU
#undef EW_ADD
#undef EW_MUL
