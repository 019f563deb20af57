// Reproducer: the standalone C++ program a divergence bundle carries. It
// needs only cuda.h, the bundle's kernel.ptx, record.bin and expected.bin;
// it runs the one variant through the driver JIT and prints PASS or FAIL.
#ifndef MATLOAD_HARNESS_KERNELS_REPRODUCER_H_
#define MATLOAD_HARNESS_KERNELS_REPRODUCER_H_

#include <string>

#include "harness/kernels/kernel_text.h"

namespace matload {

// ReproducerSource is the program's text for a kernel `entry` with `frame`.
// Build and run it in the bundle's directory:
//   g++ -std=c++17 -I$CUDA_HOME/include repro.cpp -o repro -lcuda && ./repro
// Exit status 0 is PASS, 1 is FAIL (a differing word, a fault or a rejected
// module, each printed), 2 is a missing file.
std::string ReproducerSource(const std::string& label, const std::string& entry, const KernelFrame& frame);

// kReproducerBuild is the build command the bundle's README gives.
inline constexpr char kReproducerBuild[] = "g++ -std=c++17 -I$CUDA_HOME/include repro.cpp -o repro -lcuda && ./repro";

}  // namespace matload

#endif  // MATLOAD_HARNESS_KERNELS_REPRODUCER_H_
