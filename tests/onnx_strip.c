/* onnx_strip.c - ONNX models without the shapes ONNX shape inference adds:
 * every value_info dropped, and the graph outputs keeping their element
 * type but not their shape.  For tests/onnx_shapes.sh, which checks that
 * dmo's own inference (opspec/onnx_shapes.c) finds what the file stated.
 *
 *   onnx_strip IN OUT         write IN stripped to OUT
 *   onnx_strip --input NAME=D1xD2... IN OUT
 *                             write IN to OUT with graph input NAME's dims
 *                             set (not stripped), for a runtime that takes
 *                             symbolic dims as 1 (tests/ort/run.js)
 *   onnx_strip --opset N IN OUT
 *                             write IN to OUT importing opset N of the
 *                             default domain instead (not stripped): the
 *                             same nodes under another version's rules
 *   onnx_strip --constants CASE IN OUT
 *                             write IN to OUT with every graph input but
 *                             the first made an initializer holding
 *                             CASE/test_data_set_0/input_K.pb (not
 *                             stripped): an ONNX test case whose weights
 *                             and quantisation are inputs (QLinearConv's)
 *                             as exporters write it, with constants
 *   onnx_strip --compare F... read each F as it is and stripped, and print
 *                             `same F`, `refused F: MESSAGE` (a shape the
 *                             stripped file leaves unknowable), `differs F:
 *                             WHAT` or `unread F` (refused as it is)
 *
 * Exits 1 when a file differs, 2 when one cannot be read or written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_table.h"
#include "onnx.pb-c.h"

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	long size;

	if (f && !fseek(f, 0, SEEK_END) && (size = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (data = malloc((size_t)size + 1)) != NULL && fread(data, 1, (size_t)size, f) == (size_t)size)
		*len = (size_t)size;
	else
		free(data), data = NULL;
	if (f)
		fclose(f);
	if (data == NULL)
		fprintf(stderr, "onnx_strip: cannot read %s\n", path);
	return data;
}

/* Graph input NAME of M gets the dims of DIMS ("1x3x48x192"): 0, or -1
 * when M has no such input of that rank. */
static int set_input(Onnx__ModelProto *m, const char *name, const char *dims)
{
	for (size_t i = 0; i < m->graph->n_input; i++) {
		Onnx__ValueInfoProto *vi = m->graph->input[i];
		Onnx__TensorShapeProto *shape;
		const char *p = dims;

		if (strcmp(vi->name, name) || vi->type == NULL ||
		    vi->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
		    (shape = vi->type->tensor_type->shape) == NULL)
			continue;
		for (size_t k = 0; k < shape->n_dim; k++) {
			char *end;
			long long d = strtoll(p, &end, 10);

			if (end == p || d < 1 || (*end != 'x' && *end != '\0'))
				return -1;
			shape->dim[k]->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
			shape->dim[k]->dim_value = d;
			p = *end ? end + 1 : end;
		}
		return *p ? -1 : 0;
	}
	return -1;
}

/* DATA[LEN] with graph inputs 1... made initializers from the test case
 * CASE's input_K.pb, in a new buffer of *OUT_LEN bytes, or NULL. */
static unsigned char *with_constants(const unsigned char *data, size_t len, const char *dir,
				     size_t *out_len)
{
	Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, len, data);
	Onnx__GraphProto *g;
	Onnx__TensorProto **inits = NULL, **kept_inits;
	unsigned char *out = NULL;
	size_t n_inputs, n_inits, k;

	if (m == NULL || (g = m->graph) == NULL || g->n_input < 1)
		goto done;
	n_inputs = g->n_input;
	n_inits = g->n_initializer;
	kept_inits = g->initializer;
	if ((inits = calloc(n_inits + n_inputs, sizeof *inits)) == NULL)
		goto done;
	memcpy(inits, g->initializer, n_inits * sizeof *inits);
	for (k = 1; k < n_inputs; k++) {
		char path[4096];
		unsigned char *pb;
		size_t pb_len;

		snprintf(path, sizeof path, "%s/test_data_set_0/input_%zu.pb", dir, k);
		if ((pb = slurp(path, &pb_len)) == NULL)
			break;
		inits[n_inits + k - 1] = onnx__tensor_proto__unpack(NULL, pb_len, pb);
		free(pb);
		if (inits[n_inits + k - 1] == NULL)
			break;
		inits[n_inits + k - 1]->name = g->input[k]->name;
	}
	if (k == n_inputs) {
		g->initializer = inits;
		g->n_initializer = n_inits + n_inputs - 1;
		g->n_input = 1;
		*out_len = onnx__model_proto__get_packed_size(m);
		if ((out = malloc(*out_len + 1)) != NULL)
			onnx__model_proto__pack(m, out);
		g->n_input = n_inputs;
		g->n_initializer = n_inits;
		g->initializer = kept_inits;
	}
	/* The input names stay the graph's, for free_unpacked to free. */
	for (size_t i = 1; i < n_inputs; i++)
		if (inits[n_inits + i - 1]) {
			inits[n_inits + i - 1]->name = NULL;
			onnx__tensor_proto__free_unpacked(inits[n_inits + i - 1], NULL);
		}
done:
	free(inits);
	if (m)
		onnx__model_proto__free_unpacked(m, NULL);
	return out;
}

/* DATA[LEN] stripped, or instead with input INPUT ("NAME=DIMS") set
 * when not NULL, or with the default domain's OPSET imported when >= 0, in
 * a new buffer of *OUT_LEN bytes, or NULL. */
static unsigned char *strip(const unsigned char *data, size_t len, const char *input,
			    long long opset, size_t *out_len)
{
	Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, len, data);
	Onnx__TensorShapeProto **shapes;
	unsigned char *out = NULL;
	size_t n_value_info;

	if (m == NULL || m->graph == NULL)
		return NULL;
	if (input || opset >= 0) {
		char name[256];
		const char *eq = input ? strchr(input, '=') : NULL;

		for (size_t i = 0; opset >= 0 && i < m->n_opset_import; i++)
			if (m->opset_import[i]->domain == NULL || !m->opset_import[i]->domain[0])
				m->opset_import[i]->version = opset;
		if (input && (eq == NULL || (size_t)(eq - input) >= sizeof name))
			return NULL;
		if (input) {
			memcpy(name, input, (size_t)(eq - input));
			name[eq - input] = '\0';
			if (set_input(m, name, eq + 1) != 0)
				return NULL;
		}
		*out_len = onnx__model_proto__get_packed_size(m);
		if ((out = malloc(*out_len + 1)) != NULL)
			onnx__model_proto__pack(m, out);
		onnx__model_proto__free_unpacked(m, NULL);
		return out;
	}
	n_value_info = m->graph->n_value_info;
	shapes = calloc(m->graph->n_output + 1, sizeof *shapes);
	if (shapes == NULL)
		return NULL;
	m->graph->n_value_info = 0;
	for (size_t i = 0; i < m->graph->n_output; i++) {
		Onnx__TypeProto *t = m->graph->output[i]->type;

		if (t && t->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE) {
			shapes[i] = t->tensor_type->shape;
			t->tensor_type->shape = NULL;
		}
	}
	*out_len = onnx__model_proto__get_packed_size(m);
	if ((out = malloc(*out_len + 1)) != NULL)
		onnx__model_proto__pack(m, out);
	/* Put back what was left out, for free_unpacked to free. */
	m->graph->n_value_info = n_value_info;
	for (size_t i = 0; i < m->graph->n_output; i++)
		if (shapes[i])
			m->graph->output[i]->type->tensor_type->shape = shapes[i];
	free(shapes);
	onnx__model_proto__free_unpacked(m, NULL);
	return out;
}

/* What differs between models A and B (read from the same file with and
 * without value_info) into WHAT; 0 when nothing does. */
static int differ(const struct dmo_model *a, const struct dmo_model *b, char *what, size_t len)
{
	if (a->n_tensors != b->n_tensors || a->n_layers != b->n_layers)
		return snprintf(what, len, "%zu tensors and %zu layers, stripped %zu and %zu",
				a->n_tensors, a->n_layers, b->n_tensors, b->n_layers);
	for (size_t i = 0; i < a->n_tensors; i++) {
		/* By name: a tensor's number follows the order the file
		 * mentions it, value_info first. */
		const struct dmo_model_tensor *s = &a->tensors[i], *t = &b->tensors[i];

		for (size_t j = 0; j < b->n_tensors && strcmp(s->name, t->name); j++)
			t = &b->tensors[j];
		if (strcmp(s->name, t->name) || strcmp(s->type_name, t->type_name) ||
		    s->rank != t->rank || s->bytes != t->bytes || s->producer != t->producer ||
		    memcmp(s->shape, t->shape, (size_t)(s->rank > 0 ? s->rank : 0) * sizeof *s->shape))
			return snprintf(what, len, "tensor '%s' (%s, rank %d, %llu bytes), stripped '%s' (%s, rank %d, %llu bytes)",
					s->name, s->type_name, s->rank, (unsigned long long)s->bytes,
					t->name, t->type_name, t->rank, (unsigned long long)t->bytes);
	}
	for (size_t i = 0; i < a->n_layers; i++) {
		const struct dmo_model_layer *s = &a->layers[i], *t = &b->layers[i];

		if (s->supported != t->supported || (s->spec && strcmp(s->spec, t->spec)) ||
		    (s->why && strcmp(s->why, t->why)))
			return snprintf(what, len, "layer %s: '%s' (%s), stripped '%s' (%s)", s->name,
					s->spec ? s->spec : "-", s->why ? s->why : "-",
					t->spec ? t->spec : "-", t->why ? t->why : "-");
	}
	return 0;
}

/* Compare FILE as it is and stripped; returns 1 when they differ. */
static int compare(const char *file)
{
	struct dmo_model a, b;
	unsigned char *data, *stripped;
	size_t len, stripped_len;
	char err[1024], what[1024];
	int rc = 0;

	if ((data = slurp(file, &len)) == NULL)
		exit(2);
	if (dmo_model_parse_onnx(data, len, file, NULL, 0, &a, err, sizeof err) != 0) {
		printf("unread %s\n", file);
		free(data);
		return 0;
	}
	if ((stripped = strip(data, len, NULL, -1, &stripped_len)) == NULL) {
		fprintf(stderr, "onnx_strip: cannot strip %s\n", file);
		exit(2);
	}
	if (dmo_model_parse_onnx(stripped, stripped_len, file, NULL, 0, &b, err, sizeof err) != 0) {
		printf("refused %s\n", err);
	} else {
		if (differ(&a, &b, what, sizeof what)) {
			printf("differs %s: %s\n", file, what);
			rc = 1;
		} else {
			printf("same %s\n", file);
		}
		dmo_model_free(&b);
	}
	dmo_model_free(&a);
	free(stripped);
	free(data);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned char *data, *stripped;
	size_t len, stripped_len;
	const char *input = NULL, *case_dir = NULL;
	long long opset = -1;
	FILE *f;
	int rc = 0;

	if (argc >= 2 && !strcmp(argv[1], "--compare")) {
		for (int i = 2; i < argc; i++)
			rc |= compare(argv[i]);
		return rc;
	}
	if (argc == 5 && !strcmp(argv[1], "--input"))
		input = argv[2], argv += 2, argc -= 2;
	else if (argc == 5 && !strcmp(argv[1], "--opset"))
		opset = strtoll(argv[2], NULL, 10), argv += 2, argc -= 2;
	else if (argc == 5 && !strcmp(argv[1], "--constants"))
		case_dir = argv[2], argv += 2, argc -= 2;
	if (argc != 3) {
		fprintf(stderr, "usage: onnx_strip [--input NAME=D1xD2... | --opset N | --constants CASE] "
				"IN.onnx OUT.onnx | onnx_strip --compare FILE...\n");
		return 2;
	}
	if ((data = slurp(argv[1], &len)) == NULL)
		return 2;
	stripped = case_dir ? with_constants(data, len, case_dir, &stripped_len)
			    : strip(data, len, input, opset, &stripped_len);
	if (stripped == NULL) {
		fprintf(stderr, "onnx_strip: %s is not an ONNX model%s\n", argv[1],
			input ? " with that input" : "");
		return 2;
	}
	if ((f = fopen(argv[2], "wb")) == NULL || fwrite(stripped, 1, stripped_len, f) != stripped_len ||
	    fclose(f) != 0) {
		fprintf(stderr, "onnx_strip: cannot write %s\n", argv[2]);
		return 2;
	}
	free(stripped);
	free(data);
	return 0;
}
