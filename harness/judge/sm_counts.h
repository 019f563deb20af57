// SmCounts: what the device judge (harness/kernels/device_judge.h) said on
// one SM of one GPU, counted from the SM number each verdict word carries,
// so that a fleet sees which SM of which GPU disagreed with the model's plan
// (docs/gpu-judge.md).
#ifndef MATLOAD_HARNESS_JUDGE_SM_COUNTS_H_
#define MATLOAD_HARNESS_JUDGE_SM_COUNTS_H_

#include <cstdint>

namespace matload {

// SmCounts are one SM's blocks with a device verdict, and of those the
// ones it called wrong.
struct SmCounts {
  std::uint64_t blocks = 0;
  std::uint64_t disagreed = 0;

  // Add counts `other` in.
  void Add(const SmCounts& other) {
    blocks += other.blocks;
    disagreed += other.disagreed;
  }
  friend bool operator==(const SmCounts&, const SmCounts&) = default;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_JUDGE_SM_COUNTS_H_
