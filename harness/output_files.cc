#include "harness/output_files.h"

#include <fstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace matload {

absl::Status WriteFile(const std::filesystem::path& path, absl::string_view text) {
  std::ofstream file(path, std::ios::binary);
  file.write(text.data(), static_cast<std::streamsize>(text.size()));
  file.close();
  if (!file) return absl::DataLossError(absl::StrCat("cannot write ", path.string()));
  return absl::OkStatus();
}

std::string Slug(absl::string_view text) {
  std::string slug;
  for (char c : text) slug.push_back(absl::ascii_isalnum(static_cast<unsigned char>(c)) ? c : '-');
  return slug;
}

std::uint32_t StableHash(absl::string_view text) {
  std::uint32_t hash = 2166136261u;
  for (char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  return hash;
}

}  // namespace matload
