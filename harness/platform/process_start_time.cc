#include "harness/platform/process_start_time.h"

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace matload {

std::optional<std::uint64_t> ProcessStartTime(pid_t pid) {
  std::ifstream file(absl::StrCat("/proc/", pid, "/stat"));
  const std::string stat(std::istreambuf_iterator<char>(file), {});
  // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses, so
  // the fields are counted after its last ')'; STATE is the 3rd field.
  const size_t comm_end = stat.rfind(')');
  if (comm_end == std::string::npos) return std::nullopt;
  const std::vector<absl::string_view> fields =
      absl::StrSplit(absl::string_view(stat).substr(comm_end + 1), ' ', absl::SkipEmpty());
  constexpr size_t kStartTime = 22 - 3;  // the 22nd field, counted from STATE
  std::uint64_t start = 0;
  if (fields.size() <= kStartTime || !absl::SimpleAtoi(fields[kStartTime], &start)) return std::nullopt;
  return start;
}

}  // namespace matload
