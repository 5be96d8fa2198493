// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/torch_extension_export.h"

#include <array>
#include <cctype>
#include <sstream>
#include <stdexcept>
#include "core/model/host_launcher.h"
#include "core/task/kernel_abi.h"
#include "core/task/task_spec.h"

namespace crucible {
namespace {

const char* torchScalarType(DType d) {
  switch (d) {
    case DType::F32: return "torch::kFloat";
    case DType::F16: return "torch::kHalf";
    case DType::BF16: return "torch::kBFloat16";
    case DType::F64: return "torch::kDouble";
    case DType::I32: return "torch::kInt";
    case DType::I64: return "torch::kLong";
  }
  throw std::invalid_argument("no PyTorch dtype for this tensor type");
}

const char* tensorMapDataType(DType d) {
  switch (d) {
    case DType::F32: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT32";
    case DType::F16: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
    case DType::BF16: return "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16";
    case DType::F64: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT64";
    case DType::I32: return "CU_TENSOR_MAP_DATA_TYPE_INT32";
    case DType::I64: return "CU_TENSOR_MAP_DATA_TYPE_INT64";
  }
  throw std::invalid_argument("TMA has no data type for this tensor type");
}

const char* swizzleName(const std::string& swizzle) {
  switch (swizzleBytes(swizzle)) {
    case 0: return "CU_TENSOR_MAP_SWIZZLE_NONE";
    case 32: return "CU_TENSOR_MAP_SWIZZLE_32B";
    case 64: return "CU_TENSOR_MAP_SWIZZLE_64B";
    case 128: return "CU_TENSOR_MAP_SWIZZLE_128B";
  }
  throw std::invalid_argument("unknown swizzle '" + swizzle + "'");
}

std::string shapeList(const TaskSpec& spec, const TensorSpec& t) {
  std::string out = "{";
  bool first = true;
  for (std::int64_t d : resolveShape(spec, t)) {
    out += (first ? "" : ", ") + std::to_string(d);
    first = false;
  }
  return out + "}";
}

const TensorSpec& tensorNamed(const TaskSpec& spec, const std::string& name) {
  for (const auto* list : {&spec.inputs, &spec.outputs})
    for (const TensorSpec& t : *list)
      if (t.name == name) return t;
  throw std::invalid_argument("'" + name + "' is not an input or output of task '" + spec.name + "'");
}

// A C++ string literal of arbitrary text (descriptions come from task files).
std::string cppString(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c < 0x20 || c == 0x7f) out += ' ';
    else out += static_cast<char>(c);
  }
  return out + "\"";
}

// A Python string literal (double-quoted, escapes only what must be).
std::string pyString(const std::string& text) { return cppString(text); }

// Text safe inside a Python triple-quoted docstring.
std::string docstring(std::string text) {
  for (char& c : text)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '\'';
  return text;
}

}  // namespace

TorchExtensionNames torchExtensionNames(const std::string& base) {
  std::string clean;
  for (unsigned char c : base) clean += (std::isalnum(c) || c == '_') ? static_cast<char>(c) : '_';
  if (clean.empty() || std::isdigit(static_cast<unsigned char>(clean.front()))) clean.insert(clean.begin(), '_');
  return {clean + "_kernel.cu", clean + "_binding.cpp", clean + ".py", "crucible_" + clean};
}

std::string pythonParameterName(const std::string& tensor) {
  static const std::array<const char*, 38> reserved = {
      "False", "None",   "True",  "and",    "as",       "assert", "async", "await",  "break",  "class",
      "continue", "def", "del",   "elif",   "else",     "except", "finally", "for",  "from",   "global",
      "if",    "import", "in",    "is",     "lambda",   "nonlocal", "not", "or",     "pass",   "raise",
      "return", "try",   "while", "with",   "yield",    "torch",  "os",    "run"};
  for (const char* r : reserved)
    if (tensor == r) return tensor + "_";
  return tensor;
}

std::string torchBindingSource(const TaskSpec& spec, const LaunchRule& rule, const std::string& description) {
  std::ostringstream out;
  out << "// PyTorch binding of kernel " << rule.entry << " (" << description << "),\n"
      << "// written by Crucible's export. Build it with the loader beside it.\n"
      << "#include <torch/extension.h>\n"
      << "#include <ATen/cuda/CUDAContext.h>\n"
      << "#include <c10/cuda/CUDAGuard.h>\n"
      << "#include <cuda_runtime.h>\n";
  if (!rule.tensorMaps.empty()) out << "#include <cuda.h>\n";
  out << "#include <cstdint>\n#include <string>\n#include <vector>\n\n";

  out << "extern \"C\" cudaError_t " << hostLauncherName(rule) << "(";
  const auto params = hostLauncherParameters(spec, rule);
  for (std::size_t i = 0; i < params.size(); ++i) out << (i ? ", " : "") << params[i].type;
  out << ");\n\nnamespace {\n\n"
      << "// The kernel was validated at one shape, on contiguous tensors of the task's dtypes: nothing else is launched.\n"
      << "void check_tensor(const torch::Tensor& t, const char* name, c10::ScalarType dtype,\n"
      << "                  std::vector<int64_t> shape, const torch::Device& device) {\n"
      << "  TORCH_CHECK(t.is_cuda(), name, \" must be a CUDA tensor\");\n"
      << "  TORCH_CHECK(t.device() == device, name, \" must be on \", device, \", like the first input\");\n"
      << "  TORCH_CHECK(t.scalar_type() == dtype, name, \" must be \", dtype, \", not \", t.scalar_type());\n"
      // The shapes compared and printed dimension by dimension: on the H200 (PyTorch 2.11, g++ 13) a
      // TORCH_CHECK that streamed a c10::IntArrayRef into its message crashed the process instead of
      // raising (tests/gpu/interop/check_torch_extension.py).
      << "  bool same_shape = t.dim() == static_cast<int64_t>(shape.size());\n"
      << "  for (size_t d = 0; same_shape && d < shape.size(); ++d) same_shape = t.size(static_cast<int64_t>(d)) == shape[d];\n"
      << "  if (!same_shape) {\n"
      << "    std::string want = \"[\", got = \"[\";\n"
      << "    for (size_t d = 0; d < shape.size(); ++d) want += (d ? \", \" : \"\") + std::to_string(shape[d]);\n"
      << "    for (int64_t d = 0; d < t.dim(); ++d) got += (d ? \", \" : \"\") + std::to_string(t.size(d));\n"
      << "    TORCH_CHECK(false, name, \" must have shape \", want, \"] (the shape the kernel was validated at), not \", got, \"]\");\n"
      << "  }\n"
      << "  TORCH_CHECK(t.is_contiguous(), name, \" must be contiguous\");\n"
      << "}\n";
  if (!rule.tensorMaps.empty()) {
    out << "\n// The TMA descriptor the kernel takes for a tensor seen as a row-major matrix (rows x cols),\n"
        << "// encoded as Crucible's worker encodes it when it validates and times the kernel.\n"
        << "CUtensorMap encode_tensor_map(const torch::Tensor& t, const char* name, CUtensorMapDataType type,\n"
        << "                              cuuint64_t rows, cuuint64_t cols, cuuint64_t row_stride_bytes,\n"
        << "                              cuuint32_t box_rows, cuuint32_t box_cols, CUtensorMapSwizzle swizzle) {\n"
        << "  TORCH_CHECK(reinterpret_cast<std::uintptr_t>(t.data_ptr()) % 16 == 0, name,\n"
        << "              \": TMA needs a 16-byte aligned address\");\n"
        << "  CUtensorMap map;\n"
        << "  const cuuint64_t dims[2] = {cols, rows};\n"
        << "  const cuuint64_t strides[1] = {row_stride_bytes};\n"
        << "  const cuuint32_t box[2] = {box_cols, box_rows};\n"
        << "  const cuuint32_t element_strides[2] = {1, 1};\n"
        << "  const CUresult rc = cuTensorMapEncodeTiled(&map, type, 2, t.data_ptr(), dims, strides, box, element_strides,\n"
        << "                                             CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,\n"
        << "                                             CU_TENSOR_MAP_L2_PROMOTION_L2_256B,\n"
        << "                                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);\n"
        << "  TORCH_CHECK(rc == CUDA_SUCCESS, name, \": cuTensorMapEncodeTiled refused the tensor map (error \", int(rc), \")\");\n"
        << "  return map;\n"
        << "}\n";
  }
  out << "\n}  // namespace\n\n";

  out << "std::vector<torch::Tensor> run(";
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) out << (i ? ", " : "") << "const torch::Tensor& " << spec.inputs[i].name;
  out << ") {\n";
  if (spec.inputs.empty()) {
    out << "  const torch::Device device(torch::kCUDA, c10::cuda::current_device());\n";
  } else {
    out << "  const torch::Device device = " << spec.inputs.front().name << ".device();\n";
  }
  for (const TensorSpec& t : spec.inputs)
    out << "  check_tensor(" << t.name << ", " << cppString(t.name) << ", " << torchScalarType(t.dtype) << ", "
        << shapeList(spec, t) << ", device);\n";
  out << "  const c10::cuda::CUDAGuard guard(device);\n";
  for (const TensorSpec& t : spec.outputs)
    out << "  torch::Tensor " << t.name << " = torch::empty(" << shapeList(spec, t)
        << ", torch::TensorOptions().device(device).dtype(" << torchScalarType(t.dtype) << "));\n";
  for (const TensorMapRule& m : rule.tensorMaps) {
    const TensorSpec& t = tensorNamed(spec, m.tensor);
    const TensorMatrix matrix = tensorMatrix(spec, m.tensor);
    out << "  const CUtensorMap " << tensorMapParameterName(m) << " = encode_tensor_map(" << t.name << ", "
        << cppString(t.name) << ", " << tensorMapDataType(t.dtype) << ", " << matrix.rows << ", " << matrix.cols << ", "
        << matrix.rowStrideBytes() << ", " << m.boxRows << ", " << m.boxCols << ", " << swizzleName(m.swizzle) << ");\n";
  }
  // The launcher's order (host_launcher.h): inputs, outputs, tensor maps, stream.
  out << "  const cudaError_t launched = " << hostLauncherName(rule) << "(";
  for (const auto* list : {&spec.inputs, &spec.outputs})
    for (const TensorSpec& t : *list) out << t.name << ".data_ptr(), ";
  for (const TensorMapRule& m : rule.tensorMaps) out << "&" << tensorMapParameterName(m) << ", ";
  out << "at::cuda::getCurrentCUDAStream().stream()";
  out << ");\n"
      << "  TORCH_CHECK(launched == cudaSuccess, " << cppString(rule.entry + ": ") << ", cudaGetErrorString(launched));\n"
      << "  return {";
  for (std::size_t i = 0; i < spec.outputs.size(); ++i) out << (i ? ", " : "") << spec.outputs[i].name;
  out << "};\n}\n\n"
      << "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n"
      << "  m.def(\"run\", &run, " << cppString(description) << ");\n"
      << "}\n";
  return out.str();
}

std::string torchLoaderSource(const TaskSpec& spec, const LaunchRule& rule, const TorchExtensionNames& names,
                              const std::string& compileArch, const std::string& description) {
  std::string args, callArgs;
  for (const TensorSpec& t : spec.inputs) {
    const std::string p = pythonParameterName(t.name);
    args += (args.empty() ? "" : ", ") + p;
    callArgs += (callArgs.empty() ? "" : ", ") + p;
  }
  std::ostringstream out;
  out << "\"\"\"PyTorch extension of kernel " << rule.entry << ", written by Crucible's export.\n\n"
      << "    import " << names.loaderFile.substr(0, names.loaderFile.size() - 3) << "\n"
      << "    outputs = " << names.loaderFile.substr(0, names.loaderFile.size() - 3) << ".run(" << args
      << ")  # {output name: tensor}\n\n"
      << "Built on first import by torch.utils.cpp_extension.load (nvcc from CUDA_HOME). The kernel was validated\n"
      << "at " << describeAxes(spec.axes) << ": run() accepts contiguous CUDA tensors of exactly that shape.\n"
      << "\"\"\"\n"
      << "import os\n\n"
      << "import torch.utils.cpp_extension as cpp_extension\n\n"
      << "# PyTorch compiles CUDA with -D__CUDA_NO_HALF_OPERATORS__ and the like; Crucible validated the kernel\n"
      << "# as NVRTC compiled it, without them, so they are left out here.\n"
      << "cpp_extension.COMMON_NVCC_FLAGS = [f for f in cpp_extension.COMMON_NVCC_FLAGS if not f.startswith(\"-D__CUDA_NO_\")]\n\n"
      << "DESCRIPTION = " << pyString(description) << "\n"
      << "INPUTS = (";
  for (const TensorSpec& t : spec.inputs) out << pyString(t.name) << ", ";
  out << ")\nOUTPUTS = (";
  for (const TensorSpec& t : spec.outputs) out << pyString(t.name) << ", ";
  out << ")\n\n_HERE = os.path.dirname(os.path.abspath(__file__))\n"
      << "_FLAGS = [\"-std=c++17\", \"-lineinfo\"";
  if (!compileArch.empty()) {
    // "sm_90a" -> real and virtual arch of the same name, as NVRTC compiled it.
    const std::string number = compileArch.rfind("sm_", 0) == 0 ? compileArch.substr(3) : compileArch;
    out << ", \"-gencode=arch=compute_" << number << ",code=sm_" << number << "\"";
  }
  out << "]\n"
      << "_ext = cpp_extension.load(name=" << pyString(names.module) << ",\n"
      << "                          sources=[os.path.join(_HERE, " << pyString(names.kernelFile) << "), os.path.join(_HERE, "
      << pyString(names.bindingFile) << ")],\n"
      << "                          extra_cuda_cflags=_FLAGS,\n";
  if (!rule.tensorMaps.empty()) out << "                          extra_ldflags=[\"-lcuda\"],\n";
  out << "                          verbose=False)\n\n\n"
      << "def run(" << args << "):\n"
      << "    \"\"\"" << docstring(description) << "\"\"\"\n"
      << "    return dict(zip(OUTPUTS, _ext.run(" << callArgs << ")))\n";
  return out.str();
}

std::vector<ExportedFile> torchExtensionFiles(const TaskSpec& spec, const Candidate& kernel,
                                              const std::string& kernelFile, const std::string& base,
                                              const std::string& description) {
  const TorchExtensionNames names = torchExtensionNames(base);
  std::string cu = kernelFile;
  if (cu.find(hostLauncherName(kernel.launch)) == std::string::npos) cu += hostLauncherSource(spec, kernel.launch);
  const std::string arch = kernel.compile ? kernel.compile->arch : "";
  return {{names.kernelFile, cu},
          {names.bindingFile, torchBindingSource(spec, kernel.launch, description)},
          {names.loaderFile, torchLoaderSource(spec, kernel.launch, names, arch, description)}};
}

}  // namespace crucible
