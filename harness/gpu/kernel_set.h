// KernelSet: the kernels of several test programs in one PTX module, each
// under an entry name of its own, so that one JIT compile serves them all.
// A JIT compile has a fixed cost of several milliseconds whatever the module
// holds (measured with nvJitLink 13.0: 10 ms for one test kernel alone,
// 70 ms for 16 together), so forms met for the first time are cheaper in
// sets.
#ifndef MATLOAD_HARNESS_GPU_KERNEL_SET_H_
#define MATLOAD_HARNESS_GPU_KERNEL_SET_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/families/test_program.h"

namespace matload {

// KernelSet is one module and where each program's kernel went.
struct KernelSet {
  std::string module;                // PTX text: one header, then every kernel
  std::vector<std::string> entries;  // entries[i] is programs[i]'s kernel in `module`
};

// CombineKernels writes the kernels of `programs`, in order, into one module.
// Kernel i keeps its text but is renamed "<entry>_<i>". The programs must
// share one module header (.version, .target, .address_size), that is one
// target and PTX version: else kInvalidArgument, as for no programs. `tag`,
// when given, is written as a first-line comment. A caller that needs the
// driver to compile the same kernels again (a benchmark of first-time work)
// gives a new tag, and so gets a module text the driver's caches have not
// seen.
absl::StatusOr<KernelSet> CombineKernels(absl::Span<const TestProgram* const> programs, absl::string_view tag = "");

}  // namespace matload

#endif  // MATLOAD_HARNESS_GPU_KERNEL_SET_H_
