#include "harness/output_files.h"

#include <cerrno>
#include <fstream>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "harness/infrastructure.h"

namespace matload {

absl::Status WriteFile(const std::filesystem::path& path, absl::string_view text) {
  std::ofstream file(path, std::ios::binary);
  file.write(text.data(), static_cast<std::streamsize>(text.size()));
  file.close();
  if (!file) return absl::DataLossError(absl::StrCat("cannot write ", path.string()));
  return absl::OkStatus();
}

absl::Status CreateDirectories(const std::filesystem::path& path) {
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (!error && std::filesystem::is_directory(path, error)) return absl::OkStatus();
  if (!error) error = std::make_error_code(std::errc::not_a_directory);
  const std::string message = absl::StrCat("cannot create directory ", path.string(), ": ", error.message());
  if (error == std::errc::no_space_on_device || error == std::errc::io_error || error.value() == EDQUOT) {
    return InfrastructureError(InfrastructureCause::kOutOfDisk, message);
  }
  return absl::FailedPreconditionError(message);
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
