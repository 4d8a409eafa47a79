/* os_fold_rule.h - the per-event rule of os_reducer.h, written once over
 * a few primitive operations so that it has two instantiations and no
 * second copy: C (os_reducer.h: the analysis and the tool's helpers) and
 * VEX IR builders (dmo-tool/dmo_fold_ir.c: the same update inline in the
 * instrumented code).
 *
 * No branch depends on a value, only on FLAGS, which the IR instantiation
 * knows at translation time: a data-dependent choice is FOLD_ITE, and every
 * field the rule may change is stored back (unchanged when nothing
 * changes), so the IR needs no control flow.  Counts are bumped last, so
 * each test sees the counts from before the event, as os_reducer.h always
 * did.
 *
 * The includer defines, then includes this file (it may do so more than
 * once, with other names):
 *   FOLD_NAME(x)       the functions' names
 *   FOLD_CTX, FOLD_V, FOLD_B   context, 64-bit value and truth value types
 *   FOLD_GET(c, p), FOLD_PUT(c, p, v)   64-bit load and store at address p
 *   FOLD_K(c, k)       a constant
 *   FOLD_ADD, FOLD_SUB (c, a, b)        modulo 2^64
 *   FOLD_LTU, FOLD_LTS (c, a, b)        unsigned and signed a < b
 *   FOLD_NE0(c, a)     a != 0
 *   FOLD_AND, FOLD_OR (c, b1, b2), FOLD_NOT(c, b), FOLD_B2V(c, b) (0 or 1)
 *   FOLD_ITE(c, b, x, y)                b ? x : y
 * One declaration a line: FOLD_V may be a pointer type.  Freestanding: no
 * libc. */

/* The forbidding pair of os_reducer.h when WHEN: every placement beyond
 * OB + IN_START - OUT_END is unsafe; the running minimum keeps the
 * tightest. */
static inline void FOLD_NAME(forbid)(FOLD_CTX c, struct dmo_reducer *r, FOLD_B when,
				     FOLD_V in_start, FOLD_V out_end)
{
	(void)c; /* the C instantiation needs none */
	FOLD_V bound = FOLD_ADD(c, FOLD_GET(c, &r->out_bytes), FOLD_SUB(c, in_start, out_end));
	FOLD_V best = FOLD_GET(c, &r->min_bound);
	FOLD_V have = FOLD_GET(c, &r->have_bound);
	FOLD_B tighter = FOLD_OR(c, FOLD_NOT(c, FOLD_NE0(c, have)), FOLD_LTS(c, bound, best));
	FOLD_PUT(c, &r->min_bound, FOLD_ITE(c, FOLD_AND(c, when, tighter), bound, best));
	FOLD_PUT(c, &r->have_bound, FOLD_B2V(c, FOLD_OR(c, FOLD_NE0(c, have), when)));
}

/* One access, clipped to its buffer, into a reducer (dmo_reducer_add). */
static inline void FOLD_NAME(reducer_add)(FOLD_CTX c, struct dmo_reducer *r, unsigned flags,
					  FOLD_V offset, FOLD_V size)
{
	(void)c;
	FOLD_V end = FOLD_ADD(c, offset, size);
	FOLD_V out_writes = FOLD_GET(c, &r->counts[3]);
	FOLD_V in_writes = FOLD_GET(c, &r->counts[1]);
	uint64_t *count = &r->counts[dmo_event_kind((uint8_t)flags)];
	if ((flags & DMO_EV_OUT) && (flags & DMO_EV_WRITE)) {
		FOLD_V most = FOLD_GET(c, &r->max_out_write_end);
		FOLD_B first = FOLD_NOT(c, FOLD_NE0(c, out_writes));
		FOLD_PUT(c, &r->max_out_write_end,
			 FOLD_ITE(c, FOLD_OR(c, first, FOLD_LTU(c, most, end)), end, most));
	} else if (flags & DMO_EV_OUT) {
		FOLD_NAME(forbid)(c, r, FOLD_NE0(c, in_writes), FOLD_GET(c, &r->min_in_write_start),
				  end);
	} else {
		/* Both R(I) and W(I) conflict with an earlier W(O). */
		FOLD_NAME(forbid)(c, r, FOLD_NE0(c, out_writes), offset,
				  FOLD_GET(c, &r->max_out_write_end));
		if (flags & DMO_EV_WRITE) {
			FOLD_V least = FOLD_GET(c, &r->min_in_write_start);
			FOLD_B first = FOLD_NOT(c, FOLD_NE0(c, in_writes));
			FOLD_PUT(c, &r->min_in_write_start,
				 FOLD_ITE(c, FOLD_OR(c, first, FOLD_LTU(c, offset, least)),
					  offset, least));
		}
	}
	FOLD_PUT(c, count, FOLD_ADD(c, FOLD_GET(c, count), FOLD_K(c, 1)));
}

/* One event into a thread's own state: its extremes and its reducer
 * (dmo_any_fold). */
static inline void FOLD_NAME(thread_add)(FOLD_CTX c, struct dmo_thread_acc *t, unsigned flags,
					 FOLD_V offset, FOLD_V size)
{
	(void)c;
	if (!(flags & DMO_EV_OUT)) {
		FOLD_V least = FOLD_GET(c, &t->min_in_start);
		FOLD_PUT(c, &t->min_in_start, FOLD_ITE(c, FOLD_LTU(c, offset, least), offset, least));
	} else if (!(flags & DMO_EV_WRITE)) {
		FOLD_V end = FOLD_ADD(c, offset, size);
		FOLD_V most = FOLD_GET(c, &t->max_out_read_end);
		FOLD_PUT(c, &t->max_out_read_end, FOLD_ITE(c, FOLD_LTU(c, most, end), end, most));
	}
	FOLD_NAME(reducer_add)(c, &t->own, flags, offset, size);
}
