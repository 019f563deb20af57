// DiscrepancyRegistry: the one checked-in list of known disagreements between
// the spec (as the model states it) and a toolchain.
//
// Every entry says what it matches, which way the toolchain differs, the rule
// the model applies, the toolchain's message, and a one-line judgement. Tests
// fail on a disagreement no entry explains, and on an entry that no longer
// reproduces, so the list stays exactly as long as the truth.
#ifndef MATLOAD_HARNESS_JUDGE_DISCREPANCY_REGISTRY_H_
#define MATLOAD_HARNESS_JUDGE_DISCREPANCY_REGISTRY_H_

#include <regex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "reference/target.h"

namespace matload {

// Direction says which side accepts.
enum class Direction : unsigned char {
  kToolchainAccepts,  // the model says illegal, the toolchain accepts
  kToolchainRejects,  // the model says legal, the toolchain rejects
  kDeviceFaults,      // the model predicts values for a run; the GPU faults
  // Both reject, but the toolchain's message is no diagnostic: it names an
  // internal symbol, gives no line, or names the wrong reason. The entry's
  // example, on its first target, must still draw toolchain_message.
  kToolchainMisdiagnoses,
  // The toolchain dies of a fault of its own on the form
  // (CompilerVerdict::crashed), whatever the model says.
  kToolchainCrashes,
};

// DiscrepancyEntry is one known disagreement.
struct DiscrepancyEntry {
  std::string id;
  std::string pattern;       // ECMAScript regex over the case text
  std::vector<Target> targets;  // empty: every target (kToolchainMisdiagnoses: at least one)
  Direction direction = Direction::kToolchainAccepts;
  std::string rule;           // the model's rule id
  std::vector<std::string> toolchains;  // where it was measured: "ptxas 13.0.88", "nvJitLink 13.0"
  std::string toolchain_message;
  std::string judgement;      // one line: whose error it is, and why
  std::string example;        // a standalone snippet that shows it
  std::string link;           // optional
  std::regex compiled;
};

// DiscrepancyRegistry is the loaded list.
class DiscrepancyRegistry {
 public:
  // Load reads the registry JSON. Malformed JSON, a missing field, a bad
  // regex or an unknown target is a kInvalidArgument error naming the entry.
  static absl::StatusOr<DiscrepancyRegistry> Load(const std::string& path);
  static absl::StatusOr<DiscrepancyRegistry> Parse(absl::string_view json);

  // Find returns the entry that explains a disagreement of `toolchain`
  // ("ptxas 13.0.88": Tool() and Version()) on `case_text` (an instruction,
  // ".version V .target T", or for kDeviceFaults the opcode followed by the
  // run's inputs: "wmma.load...; p-mod16=0; row-pitch-bytes=24; ...") for `target`, or nullptr. An entry applies to
  // the toolchains that start with one of its `toolchains`.
  const DiscrepancyEntry* Find(absl::string_view case_text, Target target, Direction direction,
                               absl::string_view toolchain) const;

  // FindAnywhere is Find on whichever toolchain an entry was measured: the
  // entry a disagreement falls under where its toolchain is not one the
  // entry lists, which the support history (harness/support/
  // support_history.h) reports for every release it sweeps.
  const DiscrepancyEntry* FindAnywhere(absl::string_view case_text, Target target, Direction direction) const;

  // FindMisdiagnosis is the kToolchainMisdiagnoses entry whose pattern
  // matches `case_text` and whose toolchain_message is part of `message`, on
  // any target and toolchain (an entry's targets are where its example is
  // assembled), or nullptr.
  const DiscrepancyEntry* FindMisdiagnosis(absl::string_view case_text, absl::string_view message) const;

  // AppliesTo says whether `entry` was measured on `toolchain`.
  static bool AppliesTo(const DiscrepancyEntry& entry, absl::string_view toolchain);

  const std::vector<DiscrepancyEntry>& entries() const { return entries_; }

 private:
  // Matching is Find, on `toolchain` unless it is null.
  const DiscrepancyEntry* Matching(absl::string_view case_text, Target target, Direction direction,
                                   const absl::string_view* toolchain) const;

  std::vector<DiscrepancyEntry> entries_;
};

// DefaultRegistryPath is corpora/known_discrepancies.json under the source
// tree ($MATLOAD_SOURCE_DIR, else the current directory).
std::string DefaultRegistryPath();

}  // namespace matload

#endif  // MATLOAD_HARNESS_JUDGE_DISCREPANCY_REGISTRY_H_
