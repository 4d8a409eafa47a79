/* model.c - the in-memory model every reader fills (model_table.h): loading
 * a file whatever its format (told by content), linking tensors to the
 * layers that write and read them, live ranges, and release. */
#include "errbuf.h"
#include "model_table.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *dmo_act_name(enum dmo_act act)
{
	static const char *const names[] = { "none", "relu", "relu_n1_to_1", "relu6", "tanh",
					     "other" };

	return (unsigned)act <= DMO_ACT_OTHER ? names[act] : "?";
}

const char *dmo_model_format_name(enum dmo_model_format format)
{
	switch (format) {
	case DMO_FORMAT_TFLITE:
		return "tflite";
	case DMO_FORMAT_ONNX:
		return "onnx";
	default:
		return "table";
	}
}

int dmo_model_shape_parse(const char *text, struct dmo_model_shape *shape, char *err,
			  size_t err_len)
{
	const char *eq = strrchr(text, '=');
	const char *p;

	if (eq == NULL || eq == text || eq[1] == '\0')
		return dmo_errf(err, err_len, "--shape '%s': expected NAME=D1xD2x... (e.g. input=1x224x224x3)",
			    text);
	*shape = (struct dmo_model_shape){ .tensor = text };
	p = eq + 1;
	for (;;) {
		char *end;
		long long d;

		errno = 0;
		d = strtoll(p, &end, 10);
		if (end == p || errno || d <= 0 || d > (1LL << 31) ||
		    shape->rank == DMO_MODEL_MAX_RANK || (*end != 'x' && *end != '\0'))
			return dmo_errf(err, err_len,
				    "--shape '%s': dimensions must be positive integers joined by 'x', at most %d",
				    text, DMO_MODEL_MAX_RANK);
		shape->dims[shape->rank++] = d;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	return 0;
}

int dmo_model_shape_names(const struct dmo_model_shape *shape, const char *name)
{
	size_t len = (size_t)(strrchr(shape->tensor, '=') - shape->tensor);

	return strlen(name) == len && memcmp(shape->tensor, name, len) == 0;
}

size_t dmo_model_unsupported(const struct dmo_model *model)
{
	size_t n = 0;

	for (size_t l = 0; l < model->n_layers; l++)
		n += !model->layers[l].supported;
	return n;
}

int dmo_model_layer_spec(struct dmo_model *m, size_t l, const char *text, int in, int out,
			 const char *source, char *err, size_t err_len)
{
	struct dmo_model_layer *layer = &m->layers[l];
	const struct dmo_model_tensor *ti = &m->tensors[in], *to = &m->tensors[out];
	char msg[256];

	if (dmo_opspec_parse(text, &layer->op, msg, sizeof msg) != 0)
		return dmo_errf(err, err_len, "%s: operator %zu (%s): op spec '%s': %s", source, l + 1,
			    layer->op_name, text, msg);
	if (dmo_opspec_in_bytes(&layer->op) != ti->bytes ||
	    dmo_opspec_out_bytes(&layer->op) != to->bytes)
		return dmo_errf(err, err_len,
			    "%s: operator %zu (%s): its options give %s (%llu input and %llu output bytes), but tensor '%s' has %llu bytes and '%s' %llu",
			    source, l + 1, layer->op_name, text,
			    (unsigned long long)dmo_opspec_in_bytes(&layer->op),
			    (unsigned long long)dmo_opspec_out_bytes(&layer->op), ti->name,
			    (unsigned long long)ti->bytes, to->name, (unsigned long long)to->bytes);
	layer->spec = strdup(text);
	if (layer->spec == NULL)
		return dmo_errf(err, err_len, "%s: out of memory", source);
	layer->supported = 1;
	return 0;
}

int dmo_model_layer_spec_runnable(struct dmo_model *m, size_t l, const char *text, int in,
				  int out, const char *source, char *err, size_t err_len)
{
	struct dmo_opspec spec;
	char msg[256];
	const char *gap;

	/* Tensors the op-spec language cannot describe (an empty or a huge
	 * dimension), and op specs the kernels cannot run (they could not be
	 * verified), leave the layer without one. */
	if (dmo_opspec_parse(text, &spec, msg, sizeof msg) != 0)
		return dmo_model_layer_unsupported(&m->layers[l], source, err, err_len, "%s", msg);
	if ((gap = dmo_opspec_kernel_gap(&spec)) != NULL)
		return dmo_model_layer_unsupported(&m->layers[l], source, err, err_len,
						   "%s to %s: dmo's reference kernels have %s",
						   m->tensors[in].type_name, m->tensors[out].type_name,
						   gap);
	return dmo_model_layer_spec(m, l, text, in, out, source, err, err_len);
}

int dmo_model_layer_unsupported(struct dmo_model_layer *layer, const char *source, char *err,
				size_t err_len, const char *why, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, why);
	vsnprintf(msg, sizeof msg, why, ap);
	va_end(ap);
	layer->supported = 0;
	free(layer->why);
	layer->why = strdup(msg);
	return layer->why ? 0 : dmo_errf(err, err_len, "%s: out of memory", source);
}

int dmo_model_flat_shape(const struct dmo_model_tensor *t, char *buf, size_t len)
{
	int64_t d[4] = { 1, 1, 1, 1 };

	for (int i = 0; i < t->rank; i++) {
		int at = 4 - t->rank + i;
		if (at < 0)
			at = 0;
		d[at] *= t->shape[i];
	}
	return snprintf(buf, len, "%lldx%lldx%lldx%lld", (long long)d[0], (long long)d[1],
			(long long)d[2], (long long)d[3]);
}

static int is_activation(const struct dmo_model_tensor *t)
{
	return t->producer != DMO_MODEL_CONSTANT;
}

int dmo_model_link(struct dmo_model *m, const char *source, char *err, size_t err_len)
{
	int last_layer = (int)m->n_layers - 1;

	for (size_t t = 0; t < m->n_tensors; t++) {
		struct dmo_model_tensor *tt = &m->tensors[t];

		if (tt->producer != DMO_MODEL_CONSTANT)
			tt->producer = DMO_MODEL_INPUT;
		tt->first = tt->last = -1;
		tt->n_consumers = 0;
	}
	for (size_t l = 0; l < m->n_layers; l++) {
		struct dmo_model_layer *layer = &m->layers[l];

		for (size_t k = 0; k < layer->n_results; k++) {
			int r = layer->results[k];
			struct dmo_model_tensor *tt;

			/* The readers check every index against the file. */
			assert(r >= 0 && (size_t)r < m->n_tensors);
			tt = &m->tensors[r];
			if (tt->producer == DMO_MODEL_CONSTANT || tt->graph_input || tt->variable)
				return dmo_errf(err, err_len,
					    "%s: operator %zu (%s) writes tensor '%s', which is a %s",
					    source, l + 1, layer->name, tt->name,
					    tt->variable ? "variable (state) tensor, not supported as an output"
					    : tt->graph_input ? "model input" : "constant");
			if (tt->producer != DMO_MODEL_INPUT)
				return dmo_errf(err, err_len,
					    "%s: tensor '%s' is written by two operators, %d (%s) and %zu (%s)",
					    source, tt->name, tt->producer + 1,
					    m->layers[tt->producer].name, l + 1, layer->name);
			tt->producer = (int)l;
			tt->first = (int)l;
		}
	}
	for (size_t l = 0; l < m->n_layers; l++) {
		struct dmo_model_layer *layer = &m->layers[l];
		size_t n = 0;

		free(layer->act_in);
		free(layer->inputs);
		layer->act_in = calloc(layer->n_operands + 1, sizeof *layer->act_in);
		layer->inputs = calloc(layer->n_operands + 1, sizeof *layer->inputs);
		layer->n_act_in = layer->n_inputs = 0;
		if (layer->act_in == NULL || layer->inputs == NULL)
			return dmo_errf(err, err_len, "%s: out of memory", source);
		for (size_t k = 0; k < layer->n_operands; k++) {
			int o = layer->operands[k];
			struct dmo_model_tensor *tt;

			if (o == DMO_MODEL_ABSENT)
				continue;
			assert(o >= 0 && (size_t)o < m->n_tensors);
			tt = &m->tensors[o];
			tt->n_consumers++;
			if (!is_activation(tt))
				continue;
			if (tt->producer >= (int)l)
				return dmo_errf(err, err_len,
					    "%s: operator %zu (%s) reads tensor '%s' before operator %d writes it (operators must be in execution order)",
					    source, l + 1, layer->name, tt->name, tt->producer + 1);
			if (tt->producer == DMO_MODEL_INPUT && !tt->graph_input && !tt->variable)
				return dmo_errf(err, err_len,
					    "%s: operator %zu (%s) reads tensor '%s', which no operator writes and which is neither a model input, a constant nor a variable",
					    source, l + 1, layer->name, tt->name);
			if ((int)l > tt->last)
				tt->last = (int)l;
			layer->act_in[n] = o;
			layer->inputs[n++] = tt->producer;
		}
		layer->n_act_in = layer->n_inputs = n;
	}
	for (size_t t = 0; t < m->n_tensors; t++) {
		struct dmo_model_tensor *tt = &m->tensors[t];

		if (!is_activation(tt))
			continue;
		if (tt->producer == DMO_MODEL_INPUT)
			tt->first = 0;
		/* A tensor nobody reads is a result of the model; model
		 * outputs and state stay live to the end. */
		if (tt->n_consumers == 0 && tt->producer != DMO_MODEL_INPUT)
			tt->graph_output = 1;
		if (tt->graph_output || tt->variable || tt->last < 0)
			tt->last = last_layer;
		if (tt->variable)
			tt->first = 0;
	}
	return 0;
}

static int has_tflite_identifier(const unsigned char *data, size_t len)
{
	return len >= 8 && memcmp(data + 4, "TFL3", 4) == 0;
}

/* A layer table is text whose first line is its header. */
static int looks_like_table(const unsigned char *data, size_t len)
{
	static const char header[] = "layer,";

	return len >= sizeof header - 1 && memcmp(data, header, sizeof header - 1) == 0;
}

int dmo_model_parse_any(const unsigned char *data, size_t len, const char *source,
			const struct dmo_model_shape *shapes, size_t n_shapes,
			struct dmo_model *model, char *err, size_t err_len)
{
	unsigned char *copy = malloc(len ? len : 1);
	int rc;

	*model = (struct dmo_model){ 0 };
	if (copy == NULL)
		return dmo_errf(err, err_len, "%s: out of memory", source);
	memcpy(copy, data, len);
	if (has_tflite_identifier(copy, len)) {
		rc = dmo_model_parse_tflite(copy, len, source, shapes, n_shapes, model, err,
					    err_len);
	} else if (looks_like_table(copy, len) || len == 0) {
		if (n_shapes)
			rc = dmo_errf(err, err_len, "%s: --shape applies to .tflite and .onnx files, not layer tables",
				  source);
		else
			rc = dmo_model_parse((const char *)copy, len, source, model, err, err_len);
	} else {
		/* Not TFLite, not a table: ONNX, whose protobuf has no magic
		 * number; its parser says clearly when it is not one either. */
		rc = dmo_model_parse_onnx(copy, len, source, shapes, n_shapes, model, err,
					  err_len);
	}
	if (rc != 0) {
		free(copy);
		return -1;
	}
	model->blob = copy;
	model->blob_len = len;
	return 0;
}

int dmo_model_quant_check(const struct dmo_model_tensor *t, char *why, size_t why_len)
{
	/* The range of an integer element type (none for float). */
	static const struct { int64_t lo, hi; } range[DMO_DTYPE_COUNT] = {
		[DMO_I8] = { INT8_MIN, INT8_MAX }, [DMO_U8] = { 0, UINT8_MAX },
		[DMO_I16] = { INT16_MIN, INT16_MAX }, [DMO_I32] = { INT32_MIN, INT32_MAX },
	};
	int ranged = t->known_dtype && t->dtype != DMO_F32;

	for (size_t i = 0; i < t->quant.count; i++) {
		float scale = t->quant.scale[i];
		int64_t zero = t->quant.zero_point[i];

		/* Not !(scale > 0): NaN fails that too, and the message says so. */
		if (!isfinite(scale) || !(scale > 0))
			return dmo_errf(why, why_len, "quantisation scale %zu is %g: it must be "
				    "finite and positive", i, (double)scale);
		if (ranged && (zero < range[t->dtype].lo || zero > range[t->dtype].hi))
			return dmo_errf(why, why_len, "quantisation zero point %zu is %lld, outside "
				    "%s's range [%lld, %lld]", i, (long long)zero,
				    dmo_dtype_name(t->dtype), (long long)range[t->dtype].lo,
				    (long long)range[t->dtype].hi);
	}
	return 0;
}

int dmo_model_size_limit(uint64_t *bytes, char *err, size_t err_len)
{
	const char *text = getenv(DMO_MAX_MODEL_SIZE_ENV);
	char *end;
	unsigned shift = 0;

	*bytes = DMO_MAX_MODEL_BYTES;
	if (text == NULL || *text == '\0')
		return 0;
	errno = 0;
	unsigned long long value = text[0] >= '0' && text[0] <= '9' ? strtoull(text, &end, 10) : 0;
	if (text[0] >= '0' && text[0] <= '9' && errno == 0) {
		const char *units = "KMGT", *unit = *end ? strchr(units, *end & ~0x20) : NULL;
		shift = unit ? 10 * (unsigned)(unit - units + 1) : 0;
		if ((*end == '\0' || (unit && end[1] == '\0')) && value <= (UINT64_MAX >> shift)) {
			*bytes = (uint64_t)value << shift;
			return 0;
		}
	}
	return dmo_errf(err, err_len, "%s='%s' is not a size (bytes, or a number with K, M, G "
		    "or T)", DMO_MAX_MODEL_SIZE_ENV, text);
}

int dmo_model_load_shaped(const char *path, const struct dmo_model_shape *shapes,
			  size_t n_shapes, struct dmo_model *model, char *err, size_t err_len)
{
	unsigned char *data = NULL;
	size_t len = 0, cap = 0;
	uint64_t limit;
	struct stat info;
	int rc, fd;
	FILE *f;

	*model = (struct dmo_model){ 0 };
	if (dmo_model_size_limit(&limit, err, err_len) != 0)
		return -1;
	/* The size is judged before a byte is read: a device (/dev/zero)
	 * never ends, a regular file says its size, a pipe is read up to the
	 * limit and no further. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return dmo_errf(err, err_len, "%s: %s", path, strerror(errno));
	if (fstat(fd, &info) != 0 || S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) ||
	    S_ISSOCK(info.st_mode)) {
		close(fd);
		return dmo_errf(err, err_len, "%s: a device, not a model file", path);
	}
	if (S_ISREG(info.st_mode) && (uint64_t)info.st_size > limit) {
		close(fd);
		return dmo_errf(err, err_len, "%s: %llu bytes, more than the %llu a model file may "
			    "have (set %s to raise it)", path, (unsigned long long)info.st_size,
			    (unsigned long long)limit, DMO_MAX_MODEL_SIZE_ENV);
	}
	f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return dmo_errf(err, err_len, "%s: %s", path, strerror(errno));
	}
	for (;;) {
		if (len > limit) {
			free(data);
			fclose(f);
			return dmo_errf(err, err_len, "%s: more than the %llu bytes a model file may "
				    "have (set %s to raise it)", path, (unsigned long long)limit,
				    DMO_MAX_MODEL_SIZE_ENV);
		}
		if (len == cap) {
			cap = cap ? 2 * cap : 65536;
			unsigned char *grown = realloc(data, cap);
			if (!grown) {
				free(data);
				fclose(f);
				return dmo_errf(err, err_len, "%s: out of memory", path);
			}
			data = grown;
		}
		/* Never past one byte over the limit, which is enough to tell. */
		size_t want = cap - len;
		if ((uint64_t)want > limit + 1 - len)
			want = (size_t)(limit + 1 - len);
		size_t got = fread(data + len, 1, want, f);
		len += got;
		if (got == 0)
			break;
	}
	/* fread's errno says why (a folder: EISDIR), before fclose can change it. */
	int bad = ferror(f) ? errno : 0;
	fclose(f);
	rc = bad ? dmo_errf(err, err_len, "%s: %s", path, strerror(bad))
		 : dmo_model_parse_any(data, len, path, shapes, n_shapes, model, err, err_len);
	free(data);
	return rc;
}

int dmo_model_load(const char *path, struct dmo_model *model, char *err, size_t err_len)
{
	return dmo_model_load_shaped(path, NULL, 0, model, err, err_len);
}

void dmo_model_free(struct dmo_model *m)
{
	for (size_t i = 0; i < m->n_layers; i++) {
		struct dmo_model_layer *l = &m->layers[i];

		free(l->name);
		free(l->spec);
		free(l->op_name);
		free(l->why);
		free(l->inputs);
		free(l->operands);
		free(l->act_in);
		free(l->results);
	}
	for (size_t t = 0; t < m->n_tensors; t++) {
		free(m->tensors[t].name);
		free(m->tensors[t].quant.scale);
		free(m->tensors[t].quant.zero_point);
	}
	free(m->layers);
	free(m->tensors);
	free(m->blob);
	if (m->reader_free)
		m->reader_free(m->reader_state);
	*m = (struct dmo_model){ 0 };
}
