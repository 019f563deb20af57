// DiscrepancyRegistry: the one checked-in list of known disagreements between
// the spec (as the model states it) and a toolchain.
//
// Every entry says what it matches, which way the toolchain differs, the rule
// the model applies, the toolchain's message, and a one-line judgement. Tests
// fail on a disagreement no entry explains, and on an entry that no longer
// reproduces, so the list stays exactly as long as the truth.
//
// An entry names the releases it was measured on ('toolchains') and may
// name releases measured no longer to show it ('fixed_in'). It stays in
// force for later releases of a tool it was measured on until a recorded
// fix: a new toolkit with the same answers is the same known discrepancies,
// "also seen on" it (docs/known-discrepancies.md gives the format and the
// rule).
#ifndef MATLOAD_HARNESS_JUDGE_DISCREPANCY_REGISTRY_H_
#define MATLOAD_HARNESS_JUDGE_DISCREPANCY_REGISTRY_H_

#include <regex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/judge/toolchain_release.h"
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

// Coverage is how an entry stands on one toolchain.
enum class Coverage : unsigned char {
  // Not in force: another tool, a release before every one it was measured
  // on, or one at or after a recorded fix with no measurement since.
  kNone,
  kMeasured,  // measured on it: one of the entry's `toolchains`
  // A later release of a tool it was measured on, with no fix recorded
  // since that measurement: in force, "known, also seen on" it.
  kCarried,
};

// DiscrepancyEntry is one known disagreement.
struct DiscrepancyEntry {
  std::string id;
  std::string pattern;       // ECMAScript regex over the case text
  std::vector<Target> targets;  // empty: every target (kToolchainMisdiagnoses: at least one)
  Direction direction = Direction::kToolchainAccepts;
  std::string rule;           // the model's rule id
  std::vector<std::string> toolchains;  // where it was measured: "ptxas 13.0.88", "nvJitLink 13.0"
  std::vector<std::string> fixed_in;    // releases measured no longer to show it (optional): "ptxas 13.4.92"
  std::string toolchain_message;
  std::string judgement;      // one line: whose error it is, and why
  std::string example;        // a standalone snippet that shows it
  std::string link;           // optional
  std::regex compiled;
  std::vector<ToolchainRelease> measured;  // `toolchains`, parsed
  std::vector<ToolchainRelease> fixed;     // `fixed_in`, parsed
};

// DiscrepancyRegistry is the loaded list.
class DiscrepancyRegistry {
 public:
  // Load reads the registry JSON. Malformed JSON, a missing field, a bad
  // regex, an unknown target, a toolchain that names no tool and release or
  // a fix that follows no release it was measured on is a kInvalidArgument
  // error naming the entry.
  static absl::StatusOr<DiscrepancyRegistry> Load(const std::string& path);
  static absl::StatusOr<DiscrepancyRegistry> Parse(absl::string_view json);

  // Find returns the entry that explains a disagreement of `toolchain`
  // ("ptxas 13.0.88": Tool() and Version()) on `case_text` (an instruction,
  // ".version V .target T", or for kDeviceFaults the opcode followed by the
  // run's inputs: "wmma.load...; p-mod16=0; row-pitch-bytes=24; ...") for `target`, or nullptr. An entry applies to
  // the toolchains it is in force on (CoverageOf).
  const DiscrepancyEntry* Find(absl::string_view case_text, Target target, Direction direction,
                               absl::string_view toolchain) const;

  // FindAnywhere is Find on whichever toolchain an entry was measured: the
  // entry a disagreement falls under where the entry is not in force on its
  // toolchain (an earlier release, or one after a fix), which the support
  // history (harness/support/support_history.h) reports for every release
  // it sweeps.
  const DiscrepancyEntry* FindAnywhere(absl::string_view case_text, Target target, Direction direction) const;

  // FindMisdiagnosis is the kToolchainMisdiagnoses entry whose pattern
  // matches `case_text` and whose toolchain_message is part of `message`, on
  // any target and toolchain (an entry's targets are where its example is
  // assembled), or nullptr.
  const DiscrepancyEntry* FindMisdiagnosis(absl::string_view case_text, absl::string_view message) const;

  // CoverageOf is how `entry` stands on `toolchain` ("ptxas 13.6.1"): of
  // the entry's measured and fixed releases that `toolchain` is or follows
  // (of its own tool, compared as numbers), the latest decides.
  static Coverage CoverageOf(const DiscrepancyEntry& entry, absl::string_view toolchain);

  // AppliesTo says whether `entry` is in force on `toolchain`: measured on
  // it, or carried to it.
  static bool AppliesTo(const DiscrepancyEntry& entry, absl::string_view toolchain);

  // Standing is what a report says of a disagreement `entry` explains on
  // `toolchain`: empty where it was measured there, else "also seen on
  // ptxas 13.6.1", the words every report uses for a carried entry.
  static std::string Standing(const DiscrepancyEntry& entry, absl::string_view toolchain);

  // Falls says whether `case_text` on `target`, disagreeing in
  // `direction`, falls under `entry` on whatever toolchain: its direction,
  // targets and pattern.
  static bool Falls(const DiscrepancyEntry& entry, const std::string& case_text, Target target, Direction direction);

  // ById is the entry named `id`, or nullptr.
  const DiscrepancyEntry* ById(absl::string_view id) const;

  const std::vector<DiscrepancyEntry>& entries() const { return entries_; }

 private:
  // Matching is Find, on `toolchain` unless it is null.
  const DiscrepancyEntry* Matching(absl::string_view case_text, Target target, Direction direction,
                                   const absl::string_view* toolchain) const;

  std::vector<DiscrepancyEntry> entries_;
};

// DefaultRegistryPath is corpora/known_discrepancies.json under the source
// tree ($MATLOAD_SOURCE_DIR, else the current directory): what the tests,
// the fuzz targets and the benchmarks read, beside a source tree.
std::string DefaultRegistryPath();

// LoadRegistryInForce parses the registry matload judges by
// (harness/runs/registry_in_force.h: the built-in one, or --registry
// FILE); a malformed one is kInvalidArgument naming where it came from.
absl::StatusOr<DiscrepancyRegistry> LoadRegistryInForce();

}  // namespace matload

#endif  // MATLOAD_HARNESS_JUDGE_DISCREPANCY_REGISTRY_H_
