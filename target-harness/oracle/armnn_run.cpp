// armnn_run.cpp - dmo-armnn-run, the independent oracle: runs a .tflite model
// with Arm NN's TfLite parser on its CpuRef backend (nobody on dmo wrote
// either) and writes the raw bytes of its outputs, so that dmo's own
// inference can be compared with it byte for byte.
//
//   dmo-armnn-run [--debug] MODEL.tflite INPUT.bin OUTPUT.bin
//
// INPUT.bin holds the raw bytes of every input tensor of subgraph 0, in the
// subgraph's input order; OUTPUT.bin receives every output tensor the same
// way.  A summary (names, shapes, data types, byte counts) goes to stderr.
// --debug has Arm NN print every intermediate tensor (its Debug layers: one
// JSON object a line, quantised values raw) on stdout, to find the first
// layer where another runtime and Arm NN part.
// Exit status: 0 done, 1 bad input file or I/O error, 2 usage, 3 Arm NN
// refused the model (at parse, optimise or load time; its message is shown).
#include <armnn/ArmNN.hpp>
#include <armnnTfLiteParser/ITfLiteParser.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

const char *prog = "dmo-armnn-run";

// Imported or not, Arm NN wants 16-byte aligned tensor memory.
struct Aligned {
	explicit Aligned(size_t bytes) : size(bytes)
	{
		if (posix_memalign(&data, 16, bytes ? bytes : 16))
			data = nullptr;
	}
	~Aligned() { free(data); }
	Aligned(const Aligned &) = delete;
	Aligned &operator=(const Aligned &) = delete;
	void *data = nullptr;
	size_t size;
};

std::string describe(const std::string &name, const armnn::TensorInfo &info)
{
	std::string s = name + " [";
	const armnn::TensorShape &shape = info.GetShape();
	for (unsigned i = 0; i < shape.GetNumDimensions(); i++)
		s += (i ? "x" : "") + std::to_string(shape[i]);
	s += "] " + std::string(armnn::GetDataTypeName(info.GetDataType())) + " " +
	     std::to_string(info.GetNumBytes()) + " B";
	return s;
}

int refuse(const char *stage, const std::string &why)
{
	fprintf(stderr, "%s: Arm NN refuses the model at %s: %s\n", prog, stage, why.c_str());
	return 3;
}

int run(const char *model, const char *input_path, const char *output_path, bool debug)
{
	FILE *probe = fopen(model, "rb");
	if (!probe) {
		fprintf(stderr, "%s: %s: %s\n", prog, model, strerror(errno));
		return 1;
	}
	fclose(probe);
	armnnTfLiteParser::ITfLiteParserPtr parser = armnnTfLiteParser::ITfLiteParser::Create();
	armnn::INetworkPtr net(nullptr, nullptr);
	try {
		net = parser->CreateNetworkFromBinaryFile(model);
	} catch (const std::exception &e) {
		return refuse("parse", e.what());
	}
	if (parser->GetSubgraphCount() != 1)
		return refuse("parse", std::to_string(parser->GetSubgraphCount()) +
					       " subgraphs (dmo-armnn-run runs models with one)");

	armnn::IRuntime::CreationOptions options;
	armnn::IRuntimePtr runtime = armnn::IRuntime::Create(options);
	armnn::IOptimizedNetworkPtr optimized(nullptr, nullptr);
	std::vector<std::string> messages;
	armnn::OptimizerOptions optimizer_options;
	optimizer_options.m_Debug = debug;
	try {
		optimized = armnn::Optimize(*net, { armnn::Compute::CpuRef }, runtime->GetDeviceSpec(),
					    optimizer_options, armnn::Optional<std::vector<std::string> &>(messages));
	} catch (const std::exception &e) {
		return refuse("optimize", e.what());
	}
	if (!optimized) {
		std::string why = "CpuRef supports no implementation of some layer";
		for (const std::string &m : messages)
			why += "; " + m;
		return refuse("optimize", why);
	}
	armnn::NetworkId id;
	std::string load_error;
	try {
		if (runtime->LoadNetwork(id, std::move(optimized), load_error) != armnn::Status::Success)
			return refuse("load", load_error);
	} catch (const std::exception &e) {
		return refuse("load", e.what());
	}

	FILE *in = fopen(input_path, "rb");
	if (!in) {
		fprintf(stderr, "%s: %s: %s\n", prog, input_path, strerror(errno));
		return 1;
	}
	std::vector<std::unique_ptr<Aligned>> buffers;
	armnn::InputTensors inputs;
	for (const std::string &name : parser->GetSubgraphInputTensorNames(0)) {
		armnnTfLiteParser::BindingPointInfo b = parser->GetNetworkInputBindingInfo(0, name);
		buffers.emplace_back(new Aligned(b.second.GetNumBytes()));
		Aligned &buf = *buffers.back();
		if (!buf.data || fread(buf.data, 1, buf.size, in) != buf.size) {
			fprintf(stderr, "%s: %s: too short for input %s\n", prog, input_path,
				describe(name, b.second).c_str());
			fclose(in);
			return 1;
		}
		fprintf(stderr, "input  %s\n", describe(name, b.second).c_str());
		inputs.push_back({ b.first, armnn::ConstTensor(b.second, buf.data) });
	}
	int extra = fgetc(in);
	fclose(in);
	if (extra != EOF) {
		fprintf(stderr, "%s: %s: longer than the model's inputs\n", prog, input_path);
		return 1;
	}

	armnn::OutputTensors outputs;
	std::vector<Aligned *> output_buffers;
	for (const std::string &name : parser->GetSubgraphOutputTensorNames(0)) {
		armnnTfLiteParser::BindingPointInfo b = parser->GetNetworkOutputBindingInfo(0, name);
		buffers.emplace_back(new Aligned(b.second.GetNumBytes()));
		Aligned &buf = *buffers.back();
		if (!buf.data) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return 1;
		}
		fprintf(stderr, "output %s\n", describe(name, b.second).c_str());
		outputs.push_back({ b.first, armnn::Tensor(b.second, buf.data) });
		output_buffers.push_back(&buf);
	}
	try {
		if (runtime->EnqueueWorkload(id, inputs, outputs) != armnn::Status::Success)
			return refuse("run", "EnqueueWorkload failed");
	} catch (const std::exception &e) {
		return refuse("run", e.what());
	}

	FILE *out = fopen(output_path, "wb");
	if (!out) {
		fprintf(stderr, "%s: %s: %s\n", prog, output_path, strerror(errno));
		return 1;
	}
	for (Aligned *buf : output_buffers)
		fwrite(buf->data, 1, buf->size, out);
	if (fclose(out) != 0) {
		fprintf(stderr, "%s: %s: write failed\n", prog, output_path);
		return 1;
	}
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: %s [--debug] MODEL.tflite INPUT.bin OUTPUT.bin\n"
		       "Runs MODEL on Arm NN's CpuRef backend with the raw input bytes of\n"
		       "INPUT.bin (every input tensor in order) and writes the raw output\n"
		       "tensors to OUTPUT.bin.  Exit 3 when Arm NN refuses the model.\n"
		       "--debug prints every intermediate tensor on stdout (Arm NN's Debug\n"
		       "layers, one JSON object a line).\n",
		       prog);
		return 0;
	}
	bool debug = argc > 1 && !strcmp(argv[1], "--debug");
	if (argc != 4 + debug) {
		fprintf(stderr, "usage: %s [--debug] MODEL.tflite INPUT.bin OUTPUT.bin\n", prog);
		return 2;
	}
	armnn::ConfigureLogging(false, false, armnn::LogSeverity::Fatal);
	try {
		return run(argv[1 + debug], argv[2 + debug], argv[3 + debug], debug);
	} catch (const std::exception &e) {
		fprintf(stderr, "%s: %s\n", prog, e.what());
		return 1;
	}
}
