// SPDX-License-Identifier: GPL-3.0-or-later
// Where NVRTC finds the toolkit's device headers (cuda_fp16.h, mma.h, cuda/std/...).
#pragma once
#include <string>
#include <vector>

namespace crucible {

// The toolkit include directory, searched at run time so an installed binary
// follows the machine's toolkit: $CUDA_HOME/include, $CUDA_PATH/include,
// /usr/local/cuda/include, then the directory found when Crucible was
// configured. A directory counts only if it holds cuda_fp16.h. Empty if none.
std::string findCudaIncludeDir();

// The -I directories for NVRTC under a toolkit include directory: the
// directory itself and, when present, its cccl/ subdirectory (CUDA 13 keeps
// libcu++/CUB there). Empty for an empty directory.
std::vector<std::string> nvrtcIncludeDirs(const std::string& toolkitIncludeDir);

}  // namespace crucible
