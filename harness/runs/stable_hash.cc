#include "harness/runs/stable_hash.h"

namespace matload {

std::uint32_t StableHash(absl::string_view text) {
  std::uint32_t hash = 2166136261u;
  for (char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  return hash;
}

}  // namespace matload
