#include "harness/platform/process_tree.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>

#include "absl/strings/numbers.h"

namespace matload {
namespace {

// ParentOf reads the parent of `process` (/proc/PID) from its stat file, whose fourth
// field it is; the second, the command name in parentheses, may hold
// spaces and parentheses itself, so the fields are counted from the last ')'.
std::optional<pid_t> ParentOf(const std::filesystem::path& process) {
  std::ifstream stat(process / "stat");
  std::string line;
  if (!std::getline(stat, line)) return std::nullopt;
  const size_t name_end = line.rfind(')');
  if (name_end == std::string::npos) return std::nullopt;
  char state = 0;
  pid_t parent = 0;
  std::istringstream fields(line.substr(name_end + 1));
  if (!(fields >> state >> parent)) return std::nullopt;
  return parent;
}

}  // namespace

std::vector<pid_t> Descendants(pid_t root) {
  std::multimap<pid_t, pid_t> children;  // parent -> child
  std::error_code error;
  for (std::filesystem::directory_iterator entry("/proc", error), end; !error && entry != end;
       entry.increment(error)) {
    pid_t pid = 0;
    if (!absl::SimpleAtoi(entry->path().filename().string(), &pid)) continue;
    if (const std::optional<pid_t> parent = ParentOf(entry->path())) children.emplace(*parent, pid);
  }
  std::vector<pid_t> below;
  std::vector<pid_t> frontier = {root};
  while (!frontier.empty()) {
    const pid_t parent = frontier.back();
    frontier.pop_back();
    const auto [first, last] = children.equal_range(parent);
    for (auto child = first; child != last; ++child) {
      below.push_back(child->second);
      frontier.push_back(child->second);
    }
  }
  return below;
}

bool HasEnded(pid_t process) {
  std::ifstream stat("/proc/" + std::to_string(process) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const size_t name_end = line.rfind(')');  // the state follows the command name
  return name_end != std::string::npos && name_end + 2 < line.size() && line[name_end + 2] == 'Z';
}

bool WaitUntilEnded(pid_t process, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!HasEnded(process) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return HasEnded(process);
}

}  // namespace matload
