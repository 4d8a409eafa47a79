/* formula.c - the formula language of formula.h: a recursive-descent parser
 * into a node array, and an evaluator that checks every operation, so that
 * a formula's value is exact or an error, never a wrapped or rounded one. */
#include "formula.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "opspec.h"

#define MAX_DEPTH 200
#define MAX_DEFS 64
#define MAX_NAME 32

static const struct {
	const char *name;
	size_t offset;
} vars[] = {
#define VAR(f) { #f, offsetof(struct dmo_formula_vars, f) }
	VAR(batch), VAR(in_h), VAR(in_w), VAR(in_c), VAR(out_h), VAR(out_w), VAR(out_c),
	VAR(k_h), VAR(k_w), VAR(stride_h), VAR(stride_w), VAR(dil_h), VAR(dil_w),
	VAR(pad_top), VAR(pad_left), VAR(pad_bottom), VAR(pad_right), VAR(mult), VAR(es),
	VAR(IB), VAR(OB),
#undef VAR
};

const char dmo_formula_var_names[] =
	"batch in_h in_w in_c out_h out_w out_c k_h k_w stride_h stride_w dil_h dil_w "
	"pad_top pad_left pad_bottom pad_right mult es IB OB";

enum kind {
	N_NUM, N_VAR, N_DEF, N_NEG,
	N_ADD, N_SUB, N_MUL, N_DIV, N_MOD, N_CEIL,
	N_LT, N_LE, N_GT, N_GE, N_EQ, N_NE,
	N_MIN, N_MAX, N_ABS, N_CLAMP, N_IF,
};

static const char *const op_text[] = {
	[N_NEG] = "-", [N_ADD] = "+", [N_SUB] = "-", [N_MUL] = "*", [N_DIV] = "/",
	[N_MOD] = "%", [N_CEIL] = "ceil", [N_ABS] = "abs",
};

struct node {
	enum kind kind;
	size_t col;     /* 1-based column, for evaluation errors */
	int64_t value;  /* N_NUM: the number; N_VAR: offset; N_DEF: slot */
	int a, b, c;    /* operands, node indices */
};

struct dmo_expr {
	struct node *nodes;
	int count, cap;
	int defs[MAX_DEFS]; /* root node of each definition */
	char def_names[MAX_DEFS][MAX_NAME + 1];
	int ndefs;
	int root;
};

struct parser {
	const char *text;
	size_t pos;
	int depth;
	struct dmo_expr *e;
	char *err;
	size_t err_len;
};

#define FAIL(p, ...) dmo_column_error((p)->err, (p)->err_len, (p)->pos + 1, __VA_ARGS__)

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Blanks, and comments from '#' to the end of the line. */
static size_t skip_blank(const char *text, size_t pos)
{
	for (;;) {
		while (is_space(text[pos]))
			pos++;
		if (text[pos] != '#')
			return pos;
		while (text[pos] && text[pos] != '\n')
			pos++;
	}
}

static void skip_space(struct parser *p)
{
	p->pos = skip_blank(p->text, p->pos);
}

static int is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

static size_t name_len(const struct parser *p)
{
	size_t n = 0;
	if (!is_name_start(p->text[p->pos]))
		return 0;
	while (is_name_char(p->text[p->pos + n]))
		n++;
	return n;
}

static int add_node(struct parser *p, enum kind kind, size_t col, int64_t value, int a, int b,
		    int c)
{
	struct dmo_expr *e = p->e;
	if (e->count == e->cap) {
		int cap = e->cap ? 2 * e->cap : 64;
		struct node *nodes = realloc(e->nodes, (size_t)cap * sizeof *nodes);
		if (!nodes)
			return FAIL(p, "out of memory");
		e->nodes = nodes;
		e->cap = cap;
	}
	e->nodes[e->count] = (struct node){ kind, col, value, a, b, c };
	return e->count++;
}

static int parse_expr(struct parser *p);

static int expect(struct parser *p, char c)
{
	skip_space(p);
	if (p->text[p->pos] != c)
		return p->text[p->pos] ? FAIL(p, "expected '%c', found '%c'", c, p->text[p->pos])
				       : FAIL(p, "expected '%c' at the end", c);
	p->pos++;
	return 0;
}

static const struct {
	const char *name;
	enum kind kind;
	int min_args, max_args;
} functions[] = {
	{ "floor", N_DIV, 2, 2 }, { "ceil", N_CEIL, 2, 2 }, { "min", N_MIN, 2, 64 },
	{ "max", N_MAX, 2, 64 },  { "abs", N_ABS, 1, 1 },   { "clamp", N_CLAMP, 3, 3 },
	{ "if", N_IF, 3, 3 },
};

/* NAME '(' args ')': min/max fold into a chain of binary nodes. */
static int parse_call(struct parser *p, int f, size_t col)
{
	int args[64], n = 0;

	p->pos++; /* '(' */
	for (;;) {
		if (n == functions[f].max_args)
			return FAIL(p, "%s takes at most %d arguments", functions[f].name,
				    functions[f].max_args);
		if ((args[n++] = parse_expr(p)) < 0)
			return -1;
		skip_space(p);
		if (p->text[p->pos] != ',')
			break;
		p->pos++;
	}
	if (expect(p, ')'))
		return -1;
	if (n < functions[f].min_args || n > functions[f].max_args)
		return dmo_column_error(p->err, p->err_len, col, "%s takes %d%s arguments, not %d",
			       functions[f].name, functions[f].min_args,
			       functions[f].max_args > functions[f].min_args ? " or more" : "", n);
	enum kind k = functions[f].kind;
	if (k == N_MIN || k == N_MAX) {
		int acc = args[0];
		for (int i = 1; i < n && acc >= 0; i++)
			acc = add_node(p, k, col, 0, acc, args[i], -1);
		return acc;
	}
	return add_node(p, k, col, 0, args[0], n > 1 ? args[1] : -1, n > 2 ? args[2] : -1);
}

static int parse_name(struct parser *p)
{
	size_t col = p->pos + 1, n = name_len(p);
	const char *name = p->text + p->pos;

	p->pos += n;
	skip_space(p);
	if (p->text[p->pos] == '(') {
		for (size_t f = 0; f < sizeof functions / sizeof functions[0]; f++)
			if (strlen(functions[f].name) == n && !memcmp(functions[f].name, name, n))
				return parse_call(p, (int)f, col);
		return dmo_column_error(p->err, p->err_len, col,
			       "unknown function '%.*s' (functions: floor ceil min max abs clamp if)",
			       (int)(n > MAX_NAME ? MAX_NAME : n), name);
	}
	for (int d = 0; d < p->e->ndefs; d++)
		if (strlen(p->e->def_names[d]) == n && !memcmp(p->e->def_names[d], name, n))
			return add_node(p, N_DEF, col, d, -1, -1, -1);
	for (size_t v = 0; v < sizeof vars / sizeof vars[0]; v++)
		if (strlen(vars[v].name) == n && !memcmp(vars[v].name, name, n))
			return add_node(p, N_VAR, col, (int64_t)vars[v].offset, -1, -1, -1);
	return dmo_column_error(p->err, p->err_len, col, "unknown name '%.*s' (variables: %s)",
		       (int)(n > MAX_NAME ? MAX_NAME : n), name, dmo_formula_var_names);
}

static int parse_unary(struct parser *p)
{
	int r;

	skip_space(p);
	if (++p->depth > MAX_DEPTH)
		return FAIL(p, "nested deeper than %d", MAX_DEPTH);
	char c = p->text[p->pos];
	size_t col = p->pos + 1;
	if (c == '-') {
		p->pos++;
		int a = parse_unary(p);
		r = a < 0 ? -1 : add_node(p, N_NEG, col, 0, a, -1, -1);
	} else if (c == '(') {
		p->pos++;
		r = parse_expr(p);
		if (r >= 0 && expect(p, ')'))
			r = -1;
	} else if (c >= '0' && c <= '9') {
		int64_t v = 0;
		while (p->text[p->pos] >= '0' && p->text[p->pos] <= '9') {
			if (__builtin_mul_overflow(v, 10, &v) ||
			    __builtin_add_overflow(v, p->text[p->pos] - '0', &v))
				return dmo_column_error(p->err, p->err_len, col, "number too large for 64 bits");
			p->pos++;
		}
		if (is_name_char(p->text[p->pos]))
			return FAIL(p, "a number runs into a name");
		r = add_node(p, N_NUM, col, v, -1, -1, -1);
	} else if (is_name_start(c)) {
		r = parse_name(p);
	} else if (c == '\0') {
		r = FAIL(p, "expected a number, name or '(' at the end");
	} else {
		r = FAIL(p, "expected a number, name or '(', found '%c'", c);
	}
	p->depth--;
	return r;
}

static int parse_binary(struct parser *p, int level)
{
	static const char ops[2][4] = { "+-", "*/%" };
	static const enum kind kinds[2][3] = { { N_ADD, N_SUB }, { N_MUL, N_DIV, N_MOD } };
	int lhs = level == 1 ? parse_unary(p) : parse_binary(p, 1);

	for (;;) {
		if (lhs < 0)
			return -1;
		skip_space(p);
		char c = p->text[p->pos];
		const char *at = c ? strchr(ops[level], c) : NULL;
		if (!at)
			return lhs;
		size_t col = p->pos + 1;
		p->pos++;
		int rhs = level == 1 ? parse_unary(p) : parse_binary(p, 1);
		if (rhs < 0)
			return -1;
		lhs = add_node(p, kinds[level][at - ops[level]], col, 0, lhs, rhs, -1);
	}
}

/* sum [cmp sum]: comparisons give 0 or 1 and do not chain. */
static int parse_expr(struct parser *p)
{
	static const struct {
		const char *text;
		enum kind kind;
	} cmps[] = { { "<=", N_LE }, { ">=", N_GE }, { "==", N_EQ }, { "!=", N_NE },
		     { "<", N_LT },  { ">", N_GT } };
	int lhs = parse_binary(p, 0);

	if (lhs < 0)
		return -1;
	skip_space(p);
	for (size_t i = 0; i < sizeof cmps / sizeof cmps[0]; i++) {
		size_t n = strlen(cmps[i].text);
		if (strncmp(p->text + p->pos, cmps[i].text, n))
			continue;
		size_t col = p->pos + 1;
		p->pos += n;
		int rhs = parse_binary(p, 0);
		if (rhs < 0)
			return -1;
		skip_space(p);
		if (strchr("<>=!", p->text[p->pos]) && p->text[p->pos])
			return FAIL(p, "comparisons do not chain: use parentheses");
		return add_node(p, cmps[i].kind, col, 0, lhs, rhs, -1);
	}
	return lhs;
}

/* Is the text at P a definition `NAME =` (not `NAME ==`)? */
static int at_definition(const struct parser *p, size_t *n)
{
	size_t i = p->pos + (*n = name_len(p));

	if (!*n)
		return 0;
	i = skip_blank(p->text, i);
	return p->text[i] == '=' && p->text[i + 1] != '=';
}

static int parse_definition(struct parser *p, size_t n)
{
	struct dmo_expr *e = p->e;
	const char *name = p->text + p->pos;

	if (n > MAX_NAME)
		return FAIL(p, "name longer than %d characters", MAX_NAME);
	if (e->ndefs == MAX_DEFS)
		return FAIL(p, "more than %d definitions", MAX_DEFS);
	for (size_t v = 0; v < sizeof vars / sizeof vars[0]; v++)
		if (strlen(vars[v].name) == n && !memcmp(vars[v].name, name, n))
			return FAIL(p, "'%.*s' is a variable of the spec", (int)n, name);
	for (size_t f = 0; f < sizeof functions / sizeof functions[0]; f++)
		if (strlen(functions[f].name) == n && !memcmp(functions[f].name, name, n))
			return FAIL(p, "'%.*s' is a function", (int)n, name);
	for (int d = 0; d < e->ndefs; d++)
		if (strlen(e->def_names[d]) == n && !memcmp(e->def_names[d], name, n))
			return FAIL(p, "'%.*s' is defined twice", (int)n, name);
	p->pos += n;
	skip_space(p);
	p->pos++; /* '=' */
	int root = parse_expr(p);
	if (root < 0 || expect(p, ';'))
		return -1;
	memcpy(e->def_names[e->ndefs], name, n);
	e->def_names[e->ndefs][n] = '\0';
	e->defs[e->ndefs++] = root;
	return 0;
}

int dmo_expr_parse(const char *text, struct dmo_expr **expr, char *err, size_t err_len)
{
	struct parser p = { .text = text, .err = err, .err_len = err_len };
	size_t n;

	assert(text != NULL); /* the sweep's formula text, or its file's */
	if (strlen(text) > DMO_EXPR_MAX_TEXT)
		return dmo_column_error(err, err_len, DMO_EXPR_MAX_TEXT + 1, "formula longer than %d characters",
			       DMO_EXPR_MAX_TEXT);
	p.e = calloc(1, sizeof *p.e);
	if (!p.e)
		return dmo_column_error(err, err_len, 1, "out of memory");
	for (;;) {
		skip_space(&p);
		if (!at_definition(&p, &n))
			break;
		if (parse_definition(&p, n))
			goto bad;
	}
	if ((p.e->root = parse_expr(&p)) < 0)
		goto bad;
	skip_space(&p);
	if (p.text[p.pos] == ';') {
		p.pos++;
		skip_space(&p);
	}
	if (p.text[p.pos]) {
		FAIL(&p, "unexpected '%c' after the formula", p.text[p.pos]);
		goto bad;
	}
	*expr = p.e;
	return 0;
bad:
	dmo_expr_free(p.e);
	return -1;
}

void dmo_expr_free(struct dmo_expr *e)
{
	if (!e)
		return;
	free(e->nodes);
	free(e);
}

struct eval {
	const struct dmo_expr *e;
	const struct dmo_formula_vars *v;
	const int64_t *defs;
	char *err;
	size_t err_len;
};

static int overflow(const struct eval *ev, const struct node *n)
{
	return dmo_column_error(ev->err, ev->err_len, n->col, "overflow in '%s'", op_text[n->kind]);
}

static int eval_node(const struct eval *ev, int index, int64_t *out)
{
	const struct node *n = &ev->e->nodes[index];
	int64_t a = 0, b = 0, c = 0;

	switch (n->kind) {
	case N_NUM:
		*out = n->value;
		return 0;
	case N_VAR:
		memcpy(out, (const char *)ev->v + n->value, sizeof *out);
		return 0;
	case N_DEF:
		*out = ev->defs[n->value];
		return 0;
	case N_IF: /* only the branch taken is evaluated */
		if (eval_node(ev, n->a, &a))
			return -1;
		return eval_node(ev, a ? n->b : n->c, out);
	default:
		break;
	}
	if (eval_node(ev, n->a, &a) || (n->b >= 0 && eval_node(ev, n->b, &b)) ||
	    (n->c >= 0 && eval_node(ev, n->c, &c)))
		return -1;
	switch (n->kind) {
	case N_NEG:
		if (a == INT64_MIN)
			return overflow(ev, n);
		*out = -a;
		return 0;
	case N_ABS:
		if (a == INT64_MIN)
			return overflow(ev, n);
		*out = a < 0 ? -a : a;
		return 0;
	case N_ADD:
		return __builtin_add_overflow(a, b, out) ? overflow(ev, n) : 0;
	case N_SUB:
		return __builtin_sub_overflow(a, b, out) ? overflow(ev, n) : 0;
	case N_MUL:
		return __builtin_mul_overflow(a, b, out) ? overflow(ev, n) : 0;
	case N_DIV:
	case N_CEIL:
	case N_MOD:
		if (b == 0)
			return dmo_column_error(ev->err, ev->err_len, n->col, "division by zero in '%s'",
				       op_text[n->kind]);
		if (b == -1) { /* INT64_MIN / -1 overflows, and % is then UB */
			if (n->kind == N_MOD) {
				*out = 0;
				return 0;
			}
			if (a == INT64_MIN)
				return overflow(ev, n);
			*out = -a;
			return 0;
		}
		{
			int64_t q = a / b, r = a % b;
			int inexact = r != 0, same_sign = (a < 0) == (b < 0);
			if (n->kind == N_MOD)
				*out = inexact && !same_sign ? r + b : r;
			else if (n->kind == N_DIV)
				*out = inexact && !same_sign ? q - 1 : q;
			else
				*out = inexact && same_sign ? q + 1 : q;
		}
		return 0;
	case N_LT: *out = a < b; return 0;
	case N_LE: *out = a <= b; return 0;
	case N_GT: *out = a > b; return 0;
	case N_GE: *out = a >= b; return 0;
	case N_EQ: *out = a == b; return 0;
	case N_NE: *out = a != b; return 0;
	case N_MIN: *out = a < b ? a : b; return 0;
	case N_MAX: *out = a > b ? a : b; return 0;
	case N_CLAMP:
		if (b > c)
			return dmo_column_error(ev->err, ev->err_len, n->col,
				       "clamp with lower bound %lld above upper bound %lld",
				       (long long)b, (long long)c);
		*out = a < b ? b : a > c ? c : a;
		return 0;
	default:
		return dmo_column_error(ev->err, ev->err_len, n->col, "internal error: node %d", n->kind);
	}
}

int dmo_expr_eval(const struct dmo_expr *e, const struct dmo_formula_vars *v, int64_t *out,
		  char *err, size_t err_len)
{
	int64_t defs[MAX_DEFS];
	struct eval ev = { e, v, defs, err, err_len };

	for (int d = 0; d < e->ndefs; d++)
		if (eval_node(&ev, e->defs[d], &defs[d]))
			return -1;
	return eval_node(&ev, e->root, out);
}

void dmo_formula_vars_of(const struct dmo_opspec *s, char *canon, size_t canon_len,
			 struct dmo_formula_vars *v)
{
	dmo_opspec_format(s, canon, canon_len);
	*v = (struct dmo_formula_vars){
		.op = dmo_op_name(s->op), .spec = canon,
		.batch = s->batch, .in_h = s->in_h, .in_w = s->in_w, .in_c = s->in_c,
		.out_h = s->out_h, .out_w = s->out_w, .out_c = s->out_c,
		.k_h = s->k_h, .k_w = s->k_w, .stride_h = s->stride_h, .stride_w = s->stride_w,
		.dil_h = s->dil_h, .dil_w = s->dil_w,
		.pad_top = s->pad_top, .pad_left = s->pad_left,
		.pad_bottom = s->pad_bottom, .pad_right = s->pad_right,
		.mult = s->mult, .es = (int64_t)dmo_dtype_size(s->dtype),
		.IB = (int64_t)dmo_opspec_in_bytes(s), .OB = (int64_t)dmo_opspec_out_bytes(s),
	};
}
