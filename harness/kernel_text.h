// Kernel text: PTX fragments that every one-warp test kernel shares.
#ifndef MATLOAD_HARNESS_KERNEL_TEXT_H_
#define MATLOAD_HARNESS_KERNEL_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace matload {

// SharedWindowCopy is a PTX block, with registers of its own, in which a
// warp copies `window_bytes` (a multiple of 4) bytes from the global
// address in the .b64 register `source` into the .shared array `window`,
// one word per lane per step, then waits at bar.sync 0.
std::string SharedWindowCopy(absl::string_view window, int window_bytes, absl::string_view source);

}  // namespace matload

#endif  // MATLOAD_HARNESS_KERNEL_TEXT_H_
