// tflm_run.cc - dmo-tflm-run-KERNELS: run a .tflite inside TensorFlow Lite
// Micro's MicroInterpreter, linked with one kernel build of TFLM (its
// reference kernels, or its CMSIS-NN kernels in a variant; the build names
// it in DMO_TFLM_KERNELS).  It reads the input bytes, writes the output
// bytes and prints what the runtime did (arena use, the offline plan).
//
// Every op TFLM invokes is a dmo layer: each registered kernel's invoke is
// replaced by marked_invoke, which calls dmo_layer_begin on the op's input
// and output tensors, the kernel's own invoke, then dmo_layer_end.  Under
// `dmo profile` (as `dmo run --runtime`) the tool thus sees exactly the
// loads and stores of the kernel TFLM runs, on the buffers TFLM's planner
// placed.  Layer names and op specs come from dmo's own .tflite reader, so
// the layer table lines up by name with dmo's reference run of the model.
#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <dmo/harness.h>

#include "tensorflow/compiler/mlir/lite/schema/schema_utils.h"
#include "tensorflow/lite/micro/memory_helpers.h"
#include "tensorflow/lite/micro/micro_interpreter.h"
#include "tensorflow/lite/micro/micro_mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

extern "C" {
#include "model_table.h"
}

namespace {

const char kUsage[] =
	"usage: dmo-tflm-run-" DMO_TFLM_KERNELS " [--input FILE] [--output FILE] [--arena-size BYTES]\n"
	"           [--info] [--summary FILE] [--backend-csv FILE] [--tensor-offsets FILE]\n"
	"           MODEL.tflite\n"
	"\n"
	"Run MODEL inside TensorFlow Lite Micro's MicroInterpreter with the kernel\n"
	"build " DMO_TFLM_KERNELS ", and print (one per line) kernels NAME, tflm COMMIT,\n"
	"cmsis_nn COMMIT (CMSIS-NN builds), offline_plan yes|no (the model carries\n"
	"OfflineMemoryAllocation metadata) and arena_used_bytes N.  Every op TFLM\n"
	"invokes is marked as a dmo layer named as dmo's .tflite reader names it,\n"
	"so `dmo run --runtime " DMO_TFLM_KERNELS "` profiles it.\n"
	"\n"
	"  --input FILE       raw bytes of every model input, concatenated in input\n"
	"                     order (default: all-zero bytes)\n"
	"  --output FILE      write the raw bytes of every model output, concatenated\n"
	"                     in output order\n"
	"  --arena-size BYTES the tensor arena given to TFLM (default 33554432)\n"
	"  --info             allocate only: print the lines above, run nothing\n"
	"  --summary FILE     write the lines above to FILE instead of stdout\n"
	"  --backend-csv FILE write per layer the kernel build, versions and op\n"
	"                     (dmo's backend.csv columns)\n"
	"  --tensor-offsets FILE  write where TFLM placed every tensor the ops read\n"
	"                     or write in the arena (CSV tensor,offset,bytes; offsets\n"
	"                     from the arena's start, as an offline plan gives them)\n"
	"  -h, --help         this text\n"
	"\n"
	"Exit status: 0 ran, 1 TFLM failed (its message on stderr), 2 misuse or an\n"
	"unreadable model.\n";

const char kOfflinePlanName[] = "OfflineMemoryAllocation";

#ifdef DMO_CMSIS_NN_COMMIT
const char kVersion[] = "tflm " DMO_TFLM_COMMIT ", cmsis-nn " DMO_CMSIS_NN_COMMIT;
#else
const char kVersion[] = "tflm " DMO_TFLM_COMMIT;
#endif

// Every op of the shared real models (the person detector, visual wake
// words, keyword spotting, micro speech, hello world, MobileNet v2).
constexpr int kOps = 15;
using Resolver = tflite::MicroMutableOpResolver<kOps>;

using InvokeFn = TfLiteStatus (*)(TfLiteContext *, TfLiteNode *);

// What marked_invoke needs (the layer of each operator, the kernel invoke
// each registration had before it was replaced, where to write the layer's
// backend.csv row) and what it notes (where TFLM placed each tensor).
struct Marking {
	const dmo_model *model = nullptr;
	int *layer_of_tensor = nullptr; // output tensor -> producing layer, or -1
	size_t n_tensors = 0;
	InvokeFn original[tflite::BuiltinOperator_MAX + 1] = {};
	int *op_code = nullptr;         // per layer, its BuiltinOperator
	FILE *backend_csv = nullptr;
	int failed = 0;                 // a marker call failed: exit 1
	const uint8_t *arena = nullptr; // where TFLM's tensors live
	size_t arena_size = 0;
	long long *offset = nullptr;    // per tensor, its offset in the arena or -1
	size_t *bytes = nullptr;        // per tensor, its size when OFFSET is known
};
Marking marking;

bool overlap(const void *a, size_t a_len, const void *b, size_t b_len)
{
	uintptr_t x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
	return x < y + b_len && y < x + a_len;
}

// A CSV field, quoted when it holds a comma or a quote.
void csv_field(FILE *out, const char *text, bool last)
{
	if (strpbrk(text, ",\"\n") != nullptr) {
		fputc('"', out);
		for (const char *c = text; *c; c++) {
			if (*c == '"')
				fputc('"', out);
			fputc(*c, out);
		}
		fputc('"', out);
	} else {
		fputs(text, out);
	}
	fputc(last ? '\n' : ',', out);
}

void write_backend_row(const char *layer, int code)
{
	FILE *out = marking.backend_csv;
	if (out == nullptr)
		return;
	csv_field(out, layer, false);
	csv_field(out, DMO_TFLM_KERNELS, false);
	csv_field(out, kVersion, false);
	csv_field(out, "", false);
	csv_field(out, DMO_TFLM_ISA, false);
	csv_field(out, tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(code)),
		  false);
	csv_field(out, "", true);
}

// Note where TFLM placed tensor INDEX, when it lies in the arena.
void note_offset(TfLiteContext *context, int index)
{
	const TfLiteEvalTensor *t =
		index >= 0 && static_cast<size_t>(index) < marking.n_tensors
			? context->GetEvalTensor(context, index) : nullptr;
	size_t bytes = 0;
	if (t == nullptr || tflite::TfLiteEvalTensorByteLength(t, &bytes) != kTfLiteOk)
		return;
	const uint8_t *p = static_cast<const uint8_t *>(t->data.data);
	if (p >= marking.arena && p + bytes <= marking.arena + marking.arena_size) {
		marking.offset[index] = p - marking.arena;
		marking.bytes[index] = bytes;
	}
}

// The kernel TFLM invokes, between dmo_layer_begin and dmo_layer_end on
// its activation input (dmo's profiled operand: the first; add's and mul's
// first operand) and its output 0.  An op whose input and output share
// memory in the arena (an offline plan that overlaps them, or an op run in
// place) is run unmarked: the tool profiles separate buffers only.
TfLiteStatus marked_invoke(TfLiteContext *context, TfLiteNode *node)
{
	int out_index = node->outputs->size > 0 ? node->outputs->data[0] : -1;
	int l = out_index >= 0 && static_cast<size_t>(out_index) < marking.n_tensors
			? marking.layer_of_tensor[out_index] : -1;
	if (l < 0) {
		fprintf(stderr, "dmo-tflm-run: TFLM invoked an op dmo's reader has no layer for\n");
		marking.failed = 1;
		return kTfLiteError;
	}
	const dmo_model_layer *layer = &marking.model->layers[l];
	InvokeFn invoke = marking.original[marking.op_code[l]];
	for (int k = 0; k < node->inputs->size; k++)
		note_offset(context, node->inputs->data[k]);
	for (int k = 0; k < node->outputs->size; k++)
		note_offset(context, node->outputs->data[k]);
	if (layer->n_act_in == 0)
		return invoke(context, node);

	const TfLiteEvalTensor *in = context->GetEvalTensor(context, layer->act_in[0]);
	const TfLiteEvalTensor *out = context->GetEvalTensor(context, out_index);
	size_t in_bytes = 0, out_bytes = 0;
	if (in == nullptr || out == nullptr ||
	    tflite::TfLiteEvalTensorByteLength(in, &in_bytes) != kTfLiteOk ||
	    tflite::TfLiteEvalTensorByteLength(out, &out_bytes) != kTfLiteOk) {
		fprintf(stderr, "dmo-tflm-run: %s: TFLM gives no input or output tensor\n",
			layer->name);
		marking.failed = 1;
		return kTfLiteError;
	}
	if (overlap(in->data.data, in_bytes, out->data.data, out_bytes)) {
		fprintf(stderr, "dmo-tflm-run: %s: input and output overlap in the arena; "
			"not marked as a layer\n", layer->name);
		return invoke(context, node);
	}
	write_backend_row(layer->name, marking.op_code[l]);
	if (dmo_layer_begin(layer->name, layer->supported ? layer->spec : nullptr, in->data.data,
			    in_bytes, out->data.data, out_bytes) != 0) {
		fprintf(stderr, "dmo-tflm-run: %s: dmo_layer_begin failed: %s\n", layer->name,
			dmo_layer_error());
		marking.failed = 1;
		return kTfLiteError;
	}
	TfLiteStatus status = invoke(context, node);
	if (dmo_layer_end() != 0) {
		fprintf(stderr, "dmo-tflm-run: %s: dmo_layer_end failed: %s\n", layer->name,
			dmo_layer_error());
		marking.failed = 1;
		return kTfLiteError;
	}
	return status;
}

// Register REG for CODE with its invoke replaced by marked_invoke.
template <typename Add>
bool add_marked(Resolver &resolver, Add add, tflite::BuiltinOperator code, TFLMRegistration reg)
{
	marking.original[code] = reg.invoke;
	reg.invoke = marked_invoke;
	return (resolver.*add)(reg) == kTfLiteOk;
}

bool register_ops(Resolver &resolver)
{
	using namespace tflite;
	return add_marked(resolver, &Resolver::AddAdd, BuiltinOperator_ADD, Register_ADD()) &&
	       add_marked(resolver, &Resolver::AddAveragePool2D, BuiltinOperator_AVERAGE_POOL_2D,
			  Register_AVERAGE_POOL_2D()) &&
	       add_marked(resolver, &Resolver::AddConv2D, BuiltinOperator_CONV_2D,
			  Register_CONV_2D()) &&
	       add_marked(resolver, &Resolver::AddDepthwiseConv2D, BuiltinOperator_DEPTHWISE_CONV_2D,
			  Register_DEPTHWISE_CONV_2D()) &&
	       add_marked(resolver, &Resolver::AddDequantize, BuiltinOperator_DEQUANTIZE,
			  Register_DEQUANTIZE()) &&
	       add_marked(resolver, &Resolver::AddFullyConnected, BuiltinOperator_FULLY_CONNECTED,
			  Register_FULLY_CONNECTED()) &&
	       add_marked(resolver, &Resolver::AddMaxPool2D, BuiltinOperator_MAX_POOL_2D,
			  Register_MAX_POOL_2D()) &&
	       add_marked(resolver, &Resolver::AddMean, BuiltinOperator_MEAN, Register_MEAN()) &&
	       add_marked(resolver, &Resolver::AddMul, BuiltinOperator_MUL, Register_MUL()) &&
	       add_marked(resolver, &Resolver::AddPad, BuiltinOperator_PAD, Register_PAD()) &&
	       add_marked(resolver, &Resolver::AddQuantize, BuiltinOperator_QUANTIZE,
			  Register_QUANTIZE()) &&
	       add_marked(resolver, &Resolver::AddReshape, BuiltinOperator_RESHAPE,
			  Register_RESHAPE()) &&
	       add_marked(resolver, &Resolver::AddSoftmax, BuiltinOperator_SOFTMAX,
			  Register_SOFTMAX()) &&
	       add_marked(resolver, &Resolver::AddSvdf, BuiltinOperator_SVDF, Register_SVDF()) &&
	       add_marked(resolver, &Resolver::AddTranspose, BuiltinOperator_TRANSPOSE,
			  Register_TRANSPOSE());
}

// The input file, which must hold exactly EXPECTED bytes: its size is
// checked before anything is read, so no input makes the runner read more.
// NULL after a message on stderr.
unsigned char *read_input(const char *path, size_t expected)
{
	FILE *in = fopen(path, "rb");
	struct stat st;
	unsigned char *buf = nullptr;

	if (in == nullptr || fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "dmo-tflm-run: cannot read %s%s%s\n", path, errno ? ": " : "",
			errno ? strerror(errno) : " (not a regular file)");
	} else if (static_cast<uint64_t>(st.st_size) != expected) {
		fprintf(stderr, "dmo-tflm-run: --input %s: %llu bytes, the model's inputs take %zu\n",
			path, static_cast<unsigned long long>(st.st_size), expected);
	} else if ((buf = static_cast<unsigned char *>(malloc(expected ? expected : 1))) == nullptr ||
		   fread(buf, 1, expected, in) != expected) {
		fprintf(stderr, "dmo-tflm-run: cannot read %s%s%s\n", path, errno ? ": " : "",
			errno ? strerror(errno) : "");
		free(buf);
		buf = nullptr;
	}
	if (in != nullptr)
		fclose(in);
	return buf;
}

// Create PATH anew for writing, never through a symbolic link.
FILE *create_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *out = fd >= 0 ? fdopen(fd, "wb") : nullptr;
	if (out == nullptr) {
		fprintf(stderr, "dmo-tflm-run: cannot write %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return out;
}

bool has_offline_plan(const tflite::Model *model)
{
	if (model->metadata() == nullptr)
		return false;
	for (const tflite::Metadata *m : *model->metadata())
		if (m->name() != nullptr && strcmp(m->name()->c_str(), kOfflinePlanName) == 0)
			return true;
	return false;
}

// The layer of every operator's output 0, and every operator's op code,
// from dmo's reading of the same file (one layer per operator, in order).
bool map_layers(const dmo_model *dm, const tflite::Model *model)
{
	const tflite::SubGraph *graph = model->subgraphs()->Get(0);
	size_t n_ops = graph->operators() ? graph->operators()->size() : 0;

	if (n_ops != dm->n_layers) {
		fprintf(stderr, "dmo-tflm-run: dmo's reader found %zu layers, TFLM %zu operators\n",
			dm->n_layers, n_ops);
		return false;
	}
	marking.model = dm;
	marking.n_tensors = dm->n_tensors;
	marking.layer_of_tensor = static_cast<int *>(malloc((dm->n_tensors + 1) * sizeof(int)));
	marking.op_code = static_cast<int *>(malloc((n_ops + 1) * sizeof(int)));
	marking.offset = static_cast<long long *>(malloc((dm->n_tensors + 1) * sizeof(long long)));
	marking.bytes = static_cast<size_t *>(calloc(dm->n_tensors + 1, sizeof(size_t)));
	if (marking.layer_of_tensor == nullptr || marking.op_code == nullptr ||
	    marking.offset == nullptr || marking.bytes == nullptr) {
		fprintf(stderr, "dmo-tflm-run: out of memory\n");
		return false;
	}
	for (size_t t = 0; t < dm->n_tensors; t++) {
		marking.layer_of_tensor[t] = -1;
		marking.offset[t] = -1;
	}
	for (size_t l = 0; l < n_ops; l++) {
		const tflite::Operator *op = graph->operators()->Get(l);
		unsigned code_index = op->opcode_index();
		if (code_index >= model->operator_codes()->size())
			return false;
		marking.op_code[l] = tflite::GetBuiltinCode(model->operator_codes()->Get(code_index));
		if (dm->layers[l].n_results > 0)
			marking.layer_of_tensor[dm->layers[l].results[0]] = static_cast<int>(l);
	}
	return true;
}

bool parse_size(const char *text, size_t *value)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno || end == text || *end || *text == '-' || v < 1024 || v > (1ULL << 32))
		return false;
	*value = static_cast<size_t>(v);
	return true;
}

struct Options {
	const char *input = nullptr, *output = nullptr, *backend_csv = nullptr, *model = nullptr;
	const char *summary = nullptr, *tensor_offsets = nullptr;
	size_t arena_size = 32u << 20;
	bool info_only = false;
};

// Returns -1 on success, else the exit status.
int parse_options(int argc, char **argv, Options *opts)
{
	enum { OPT_INPUT = 0x100, OPT_OUTPUT, OPT_ARENA, OPT_INFO, OPT_BACKEND_CSV, OPT_SUMMARY,
	       OPT_TENSOR_OFFSETS };
	static const struct option longopts[] = {
		{ "input", required_argument, nullptr, OPT_INPUT },
		{ "output", required_argument, nullptr, OPT_OUTPUT },
		{ "arena-size", required_argument, nullptr, OPT_ARENA },
		{ "info", no_argument, nullptr, OPT_INFO },
		{ "backend-csv", required_argument, nullptr, OPT_BACKEND_CSV },
		{ "summary", required_argument, nullptr, OPT_SUMMARY },
		{ "tensor-offsets", required_argument, nullptr, OPT_TENSOR_OFFSETS },
		{ "help", no_argument, nullptr, 'h' },
		{ nullptr, 0, nullptr, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "h", longopts, nullptr)) != -1) {
		switch (c) {
		case OPT_INPUT: opts->input = optarg; break;
		case OPT_OUTPUT: opts->output = optarg; break;
		case OPT_BACKEND_CSV: opts->backend_csv = optarg; break;
		case OPT_SUMMARY: opts->summary = optarg; break;
		case OPT_TENSOR_OFFSETS: opts->tensor_offsets = optarg; break;
		case OPT_INFO: opts->info_only = true; break;
		case OPT_ARENA:
			if (!parse_size(optarg, &opts->arena_size)) {
				fprintf(stderr, "dmo-tflm-run: --arena-size must be 1024..4294967296 "
					"bytes, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'h': fputs(kUsage, stdout); return 0;
		default: fputs(kUsage, stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "dmo-tflm-run: give one MODEL.tflite\n%s", kUsage);
		return 2;
	}
	opts->model = argv[optind];
	return -1;
}

// The input bytes: FILE's, which must hold exactly every input's bytes in
// order, or zeros.  Returns 0, or the exit status.
int fill_inputs(tflite::MicroInterpreter &interp, const char *path)
{
	size_t total = 0;
	for (size_t i = 0; i < interp.inputs_size(); i++)
		total += interp.input(i)->bytes;
	if (path == nullptr) {
		for (size_t i = 0; i < interp.inputs_size(); i++)
			memset(interp.input(i)->data.raw, 0, interp.input(i)->bytes);
		return 0;
	}
	unsigned char *bytes = read_input(path, total);
	if (bytes == nullptr)
		return 2;
	for (size_t i = 0, at = 0; i < interp.inputs_size(); at += interp.input(i)->bytes, i++)
		memcpy(interp.input(i)->data.raw, bytes + at, interp.input(i)->bytes);
	free(bytes);
	return 0;
}

int write_outputs(tflite::MicroInterpreter &interp, const char *path)
{
	FILE *out = create_file(path);
	if (out == nullptr)
		return 2;
	bool ok = true;
	for (size_t i = 0; i < interp.outputs_size(); i++)
		ok &= fwrite(interp.output(i)->data.raw, 1, interp.output(i)->bytes, out) ==
		      interp.output(i)->bytes;
	if (fclose(out) != 0 || !ok) {
		fprintf(stderr, "dmo-tflm-run: cannot write %s\n", path);
		return 2;
	}
	return 0;
}

int write_offsets(const char *path)
{
	FILE *out = create_file(path);
	if (out == nullptr)
		return 2;
	fputs("tensor,offset,bytes\n", out);
	for (size_t t = 0; t < marking.n_tensors; t++)
		if (marking.offset[t] >= 0)
			fprintf(out, "%zu,%lld,%zu\n", t, marking.offset[t], marking.bytes[t]);
	if (fclose(out) != 0) {
		fprintf(stderr, "dmo-tflm-run: cannot write %s\n", path);
		return 2;
	}
	return 0;
}

// Run MODEL in ARENA and print the lines of the usage text.  The
// interpreter lives only here: its destructor frees the kernels' data in the
// arena and must run before the arena and the model are released.
int run(const Options &opts, const tflite::Model *model, uint8_t *arena)
{
	static Resolver resolver;
	if (!register_ops(resolver)) {
		fprintf(stderr, "dmo-tflm-run: cannot register the ops\n");
		return 1;
	}
	marking.arena = arena;
	marking.arena_size = opts.arena_size;
	tflite::MicroInterpreter interp(model, resolver, arena, opts.arena_size);
	if (interp.AllocateTensors() != kTfLiteOk) {
		fprintf(stderr, "dmo-tflm-run: TFLM cannot allocate the model's tensors\n");
		return 1;
	}
	int rc;
	if (!opts.info_only) {
		if ((rc = fill_inputs(interp, opts.input)) != 0)
			return rc;
		if (opts.backend_csv != nullptr) {
			marking.backend_csv = create_file(opts.backend_csv);
			if (marking.backend_csv == nullptr)
				return 2;
			fputs("name,backend,version,isa_cap,isa,implementation,cpu\n",
			      marking.backend_csv);
		}
		TfLiteStatus status = interp.Invoke();
		if (marking.backend_csv != nullptr && fclose(marking.backend_csv) != 0) {
			fprintf(stderr, "dmo-tflm-run: cannot write %s\n", opts.backend_csv);
			return 2;
		}
		if (status != kTfLiteOk || marking.failed) {
			fprintf(stderr, "dmo-tflm-run: TFLM failed to run the model\n");
			return 1;
		}
		if (opts.output != nullptr && (rc = write_outputs(interp, opts.output)) != 0)
			return rc;
		if (opts.tensor_offsets != nullptr && (rc = write_offsets(opts.tensor_offsets)) != 0)
			return rc;
	}
	FILE *out = opts.summary != nullptr ? create_file(opts.summary) : stdout;
	if (out == nullptr)
		return 2;
	fprintf(out, "kernels %s\n", DMO_TFLM_KERNELS);
	fprintf(out, "tflm %s\n", DMO_TFLM_COMMIT);
#ifdef DMO_CMSIS_NN_COMMIT
	fprintf(out, "cmsis_nn %s\n", DMO_CMSIS_NN_COMMIT);
#endif
	fprintf(out, "offline_plan %s\n", has_offline_plan(model) ? "yes" : "no");
	fprintf(out, "arena_used_bytes %zu\n", interp.arena_used_bytes());
	if ((out == stdout ? fflush(out) : fclose(out)) != 0) {
		fprintf(stderr, "dmo-tflm-run: cannot write %s\n",
			opts.summary != nullptr ? opts.summary : "stdout");
		return 2;
	}
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	Options opts;
	int rc = parse_options(argc, argv, &opts);
	if (rc >= 0)
		return rc;

	// dmo's reader first: it checks every offset of the file, which TFLM
	// does not, and it names the layers.
	char err[1024] = "";
	dmo_model dm = {};
	if (dmo_model_load(opts.model, &dm, err, sizeof err) != 0 ||
	    dm.format != DMO_FORMAT_TFLITE) {
		if (dm.format != DMO_FORMAT_TFLITE && !*err)
			fprintf(stderr, "dmo-tflm-run: %s: not a .tflite model\n", opts.model);
		else
			fprintf(stderr, "dmo-tflm-run: %s\n", err);
		return 2;
	}
	const tflite::Model *model = tflite::GetModel(dm.blob);
	flatbuffers::Verifier verifier(dm.blob, dm.blob_len);
	if (!tflite::VerifyModelBuffer(verifier) || model->subgraphs() == nullptr ||
	    model->subgraphs()->size() != 1 || model->operator_codes() == nullptr) {
		fprintf(stderr, "dmo-tflm-run: %s: not a one-subgraph TFLite model TFLM can read\n",
			opts.model);
		return 2;
	}
	if (!map_layers(&dm, model))
		return 2;

	void *arena = nullptr;
	if (posix_memalign(&arena, 16, opts.arena_size) != 0) {
		fprintf(stderr, "dmo-tflm-run: cannot allocate a %zu-byte arena\n", opts.arena_size);
		return 2;
	}
	rc = run(opts, model, static_cast<uint8_t *>(arena));
	free(arena);
	dmo_model_free(&dm);
	return rc;
}
