// `matload check`: the model's verdict on snippets, per target.
#ifndef MATLOAD_HARNESS_CLI_CHECK_COMMAND_H_
#define MATLOAD_HARNESS_CLI_CHECK_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "reference/legality.h"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {

// LabeledSnippet is one snippet and where it came from ("F:12" or "argv").
struct LabeledSnippet {
  std::string label;
  std::string text;
};

// kMaxSnippetFileBytes bounds a --file, so that `--file /dev/zero` or a
// runaway file is an error and not all of memory.
inline constexpr size_t kMaxSnippetFileBytes = size_t{64} << 20;

// ReadSnippetFile reads one snippet per line, skipping blank lines and lines
// starting with '#'. A file that cannot be opened is kNotFound, a directory
// or a file over kMaxSnippetFileBytes kFailedPrecondition, a failed read
// kDataLoss; each message names the path.
absl::StatusOr<std::vector<LabeledSnippet>> ReadSnippetFile(const std::string& path);

// VerdictJson is the JSON object for one snippet on one target:
// {"instruction", "target", "ptx", "verdict", "reasons": [{"code", "rule", "message"}]}.
nlohmann::json VerdictJson(const std::string& instruction, Target target, PtxVersion ptx, const Verdict& verdict);

// VerdictText is "legal", or "illegal: " followed by each reason as
// "<code> (<rule>): <message>", separated by "; ".
std::string VerdictText(const Verdict& verdict);

// WriteCheck judges every snippet on every target. Text output is one line
// per pair, "legal" or "illegal: ..." alone when there is one pair, else
// prefixed by the label and target; JSON output is one object per line.
void WriteCheck(const std::vector<LabeledSnippet>& snippets, const std::vector<Target>& targets, PtxVersion ptx,
                bool json, std::ostream& out);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_CHECK_COMMAND_H_
