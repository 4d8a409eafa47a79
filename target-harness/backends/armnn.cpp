/* armnn.cpp - the `armnn` backend: an Arm NN network of one layer on the
 * CpuRef backend (Arm NN's reference C++ kernels), f32, behind
 * <dmo/backend.h>.
 *
 * Arm NN runs a network on its own tensors unless the input and output
 * memory is imported (MemorySource::Malloc): then the layer reads and
 * writes the caller's buffers.  Import needs 16-byte aligned pointers, so
 * the descriptor asks dmo for that alignment.  CpuRef is portable C++ with
 * no ISA dispatch. */
#include <memory>
#include <string>
#include <vector>

#include <armnn/ArmNN.hpp>

extern "C" {
#include "plugin.h"
}

namespace {

armnn::IRuntimePtr runtime(nullptr, &armnn::IRuntime::Destroy);

struct ArmnnOp {
	armnn::NetworkId id = 0;
	armnn::TensorInfo in_info, in2_info, out_info;
	const void *in2 = nullptr;
	bool binary = false;
};

armnn::TensorInfo nhwc(int n, int h, int w, int c)
{
	return armnn::TensorInfo(armnn::TensorShape({ unsigned(n), unsigned(h), unsigned(w), unsigned(c) }),
				 armnn::DataType::Float32);
}

/* The geometry both convolution descriptors share. */
template <typename Descriptor> Descriptor conv_geometry(const dmo_backend_op *op, bool bias)
{
	Descriptor d;
	d.m_PadLeft = op->pad_left; d.m_PadRight = op->pad_right;
	d.m_PadTop = op->pad_top; d.m_PadBottom = op->pad_bottom;
	d.m_StrideX = op->stride_w; d.m_StrideY = op->stride_h;
	d.m_DilationX = op->dil_w; d.m_DilationY = op->dil_h;
	d.m_BiasEnabled = bias;
	d.m_DataLayout = armnn::DataLayout::NHWC;
	return d;
}

/* The layer of OP between the input and output layers; weights are copied
 * by Arm NN when the network is built (dwconv2d: permuted to its
 * [mult][in_c][k_h][k_w]). */
armnn::IConnectableLayer *add_layer(armnn::INetwork &net, const dmo_backend_op *op,
				    std::vector<float> &scratch)
{
	const float *filter = static_cast<const float *>(op->filter);
	armnn::TensorInfo bias_info(armnn::TensorShape({ unsigned(op->out_c) }), armnn::DataType::Float32);
	armnn::Optional<armnn::ConstTensor> bias;

	if (op->bias != nullptr)
		bias = armnn::ConstTensor(bias_info, op->bias);
	if (op_is(op, "conv2d") || op_is(op, "dwconv2d")) {
		armnn::TensorShape shape;
		if (op_is(op, "conv2d")) {
			shape = armnn::TensorShape({ unsigned(op->out_c), unsigned(op->k_h), unsigned(op->k_w),
						     unsigned(op->in_c) });
		} else {
			shape = armnn::TensorShape({ unsigned(op->mult), unsigned(op->in_c), unsigned(op->k_h),
						     unsigned(op->k_w) });
			scratch.resize(size_t(op->k_h) * op->k_w * op->out_c);
			for (int m = 0; m < op->mult; m++)
				for (int c = 0; c < op->in_c; c++)
					for (int y = 0; y < op->k_h; y++)
						for (int x = 0; x < op->k_w; x++)
							scratch[((size_t(m) * op->in_c + c) * op->k_h + y) * op->k_w + x] =
								filter[(size_t(y) * op->k_w + x) * op->out_c + c * op->mult + m];
			filter = scratch.data();
		}
		armnn::ConstTensor weights(armnn::TensorInfo(shape, armnn::DataType::Float32), filter);
		if (op_is(op, "conv2d"))
			return net.AddConvolution2dLayer(conv_geometry<armnn::Convolution2dDescriptor>(op, bias.has_value()),
							 weights, bias, "conv2d");
		return net.AddDepthwiseConvolution2dLayer(
			conv_geometry<armnn::DepthwiseConvolution2dDescriptor>(op, bias.has_value()), weights, bias,
			"dwconv2d");
	}
	if (op_is(op, "maxpool") || op_is(op, "avgpool")) {
		armnn::Pooling2dDescriptor d;
		d.m_PoolType = op_is(op, "maxpool") ? armnn::PoolingAlgorithm::Max
						    : armnn::PoolingAlgorithm::Average;
		d.m_PadLeft = op->pad_left; d.m_PadRight = op->pad_right;
		d.m_PadTop = op->pad_top; d.m_PadBottom = op->pad_bottom;
		d.m_PoolWidth = op->k_w; d.m_PoolHeight = op->k_h;
		d.m_StrideX = op->stride_w; d.m_StrideY = op->stride_h;
		d.m_OutputShapeRounding = armnn::OutputShapeRounding::Floor;
		d.m_PaddingMethod = armnn::PaddingMethod::Exclude;
		d.m_DataLayout = armnn::DataLayout::NHWC;
		return net.AddPooling2dLayer(d, op->op);
	}
	if (op_is(op, "fc")) {
		unsigned k = unsigned(op->in_h) * op->in_w * op->in_c;
		armnn::FullyConnectedDescriptor d;
		d.m_BiasEnabled = bias.has_value();
		d.m_TransposeWeightMatrix = true; /* weights [out_c][K] */
		armnn::ConstTensor weights(armnn::TensorInfo(armnn::TensorShape({ unsigned(op->out_c), k }),
							     armnn::DataType::Float32), filter);
		return net.AddFullyConnectedLayer(d, weights, bias, "fc");
	}
	if (op_is(op, "relu") || op_is(op, "relu6")) {
		armnn::ActivationDescriptor d;
		d.m_Function = op_is(op, "relu") ? armnn::ActivationFunction::ReLu
						 : armnn::ActivationFunction::BoundedReLu;
		d.m_A = 6.0f;
		d.m_B = 0.0f;
		return net.AddActivationLayer(d, op->op);
	}
	if (op_is(op, "add"))
		return net.AddAdditionLayer("add");
	if (op_is(op, "mul"))
		return net.AddMultiplicationLayer("mul");
	return nullptr;
}

int armnn_init(const char *isa, char *err, size_t err_len)
{
	(void)isa; /* CpuRef is portable C++: nothing to cap */
	try {
		armnn::ConfigureLogging(false, false, armnn::LogSeverity::Fatal);
		runtime = armnn::IRuntime::Create(armnn::IRuntime::CreationOptions());
	} catch (const std::exception &e) {
		snprintf(err, err_len, "armnn: %s", e.what());
		return -1;
	}
	return 0;
}

const char *armnn_version(void)
{
	return "Arm NN " ARMNN_VERSION " CpuRef";
}

const char *armnn_isa(void)
{
	return "compiled";
}

void *armnn_prepare(const dmo_backend_op *op, char *err, size_t err_len)
{
	if (refuse_non_f32(op, "armnn", err, err_len) != 0)
		return nullptr;
	try {
		std::unique_ptr<ArmnnOp> a(new ArmnnOp);
		armnn::INetworkPtr net = armnn::INetwork::Create();
		std::vector<float> scratch;
		armnn::IConnectableLayer *layer = add_layer(*net, op, scratch);

		if (layer == nullptr) {
			snprintf(err, err_len, "armnn backend has no %s", op->op);
			return nullptr;
		}
		bool fc = op_is(op, "fc");
		int k = op->in_h * op->in_w * op->in_c;
		a->in_info = fc ? armnn::TensorInfo(armnn::TensorShape({ unsigned(op->batch), unsigned(k) }),
						    armnn::DataType::Float32)
				: nhwc(op->batch, op->in_h, op->in_w, op->in_c);
		a->out_info = fc ? armnn::TensorInfo(armnn::TensorShape({ unsigned(op->batch), unsigned(op->out_c) }),
						     armnn::DataType::Float32)
				 : nhwc(op->batch, op->out_h, op->out_w, op->out_c);
		a->binary = op_is(op, "add") || op_is(op, "mul");
		armnn::IConnectableLayer *input = net->AddInputLayer(0, "in");
		armnn::IConnectableLayer *output = net->AddOutputLayer(0, "out");
		input->GetOutputSlot(0).SetTensorInfo(a->in_info);
		input->GetOutputSlot(0).Connect(layer->GetInputSlot(0));
		if (a->binary) {
			armnn::IConnectableLayer *input2 = net->AddInputLayer(1, "in2");
			input2->GetOutputSlot(0).SetTensorInfo(a->in_info);
			input2->GetOutputSlot(0).Connect(layer->GetInputSlot(1));
			a->in2 = op->in2;
		}
		layer->GetOutputSlot(0).SetTensorInfo(a->out_info);
		layer->GetOutputSlot(0).Connect(output->GetInputSlot(0));

		armnn::IOptimizedNetworkPtr opt =
			armnn::Optimize(*net, { armnn::Compute::CpuRef }, runtime->GetDeviceSpec());
		if (!opt) {
			snprintf(err, err_len, "armnn could not optimise %s for CpuRef", op->spec);
			return nullptr;
		}
		std::string message;
		armnn::INetworkProperties imported(true, true);
		if (runtime->LoadNetwork(a->id, std::move(opt), message, imported) != armnn::Status::Success) {
			snprintf(err, err_len, "armnn refused %s: %s", op->spec, message.c_str());
			return nullptr;
		}
		return a.release();
	} catch (const std::exception &e) {
		snprintf(err, err_len, "armnn refused %s: %s", op->spec, e.what());
		return nullptr;
	}
}

const char *armnn_implementation(void *prepared)
{
	(void)prepared;
	return "CpuRef, imported input and output";
}

int armnn_run(void *prepared, const void *in, void *out)
{
	ArmnnOp *a = static_cast<ArmnnOp *>(prepared);

	try {
		armnn::InputTensors inputs{ { 0, armnn::ConstTensor(a->in_info, in) } };
		if (a->binary)
			inputs.push_back({ 1, armnn::ConstTensor(a->in_info, a->in2) });
		armnn::OutputTensors outputs{ { 0, armnn::Tensor(a->out_info, out) } };
		return runtime->EnqueueWorkload(a->id, inputs, outputs) == armnn::Status::Success ? 0 : -1;
	} catch (const std::exception &) {
		return -1;
	}
}

void armnn_release(void *prepared)
{
	ArmnnOp *a = static_cast<ArmnnOp *>(prepared);

	runtime->UnloadNetwork(a->id);
	delete a;
}

} // namespace

extern "C" const struct dmo_backend *dmo_backend_v2(void)
{
	static const struct dmo_backend backend = {
		DMO_BACKEND_ABI_VERSION, "armnn", 16, armnn_init, armnn_version, armnn_isa,
		armnn_prepare, armnn_implementation, armnn_run, armnn_release, 0, nullptr,
	};
	return &backend;
}
