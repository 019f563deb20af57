// SupportHistory: what every ptxas release accepted, from the oldest to the
// newest, for users who ask since when a form works, since when a
// discrepancy holds, and what a release changed. Each toolkit is swept at
// the newest PTX ISA version it and matload both speak, and every toolkit at
// one common version; the history is told each sweep in release order and
// works out, per form class and target, the first and last toolkit that
// accepts it; per model–toolchain disagreement, its range (last good, first
// bad, last bad, first fixed); between consecutive releases, the forms newly
// accepted or rejected and the messages reworded; and, for every form both
// reject, whether the compiler's message is a diagnostic
// (harness/judge/diagnostic_judge.h), counted per toolkit and grouped into
// distinct misdiagnoses with the registry entry that lists each.
// support_history_report.h writes it down; `matload history` runs it.
#ifndef MATLOAD_HARNESS_SUPPORT_SUPPORT_HISTORY_H_
#define MATLOAD_HARNESS_SUPPORT_SUPPORT_HISTORY_H_

#include <array>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "harness/compile/ptx_dialect.h"
#include "harness/judge/diagnostic_judge.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/support/support_sweep.h"
#include "reference/ptx_version.h"

namespace matload {

// kMisdiagnosisKinds is how many MisdiagnosisKinds there are.
inline constexpr size_t kMisdiagnosisKinds = 3;

// HistoryToolkit is one release of the history.
struct HistoryToolkit {
  std::string toolchain;             // "ptxas 12.4.131"
  std::string path;                  // the binary swept
  std::string identity;              // its ToolchainIdentity (verdict cache), empty when it has none
  PtxDialect dialect;                // the PTX ISA version it speaks (ptx_dialect.h)
  PtxVersion newest;                 // what its newest sweep is at: dialect.Judged()
  std::vector<std::string> targets;  // matload's targets that it builds for
};

// SweepFacts are what the command measured of one sweep besides its
// verdicts: how long it took and what the verdict cache answered.
struct SweepFacts {
  double seconds = 0;
  size_t cache_found = 0;  // answers found in the verdict cache
  size_t cache_kept = 0;   // answers compiled and kept there
};

// HistorySweep counts one sweep of the history.
struct HistorySweep {
  size_t toolkit = 0;
  PtxVersion ptx;
  bool newest = false;  // at the toolkit's newest version
  bool common = false;  // at the common version (both, where they are one)
  size_t targets_compiled = 0;
  size_t forms = 0;      // legal and near-miss forms compared, every compiled target's
  size_t agree = 0;      // of the forms and the matrix rows
  size_t explained = 0;  // disagreements an entry measured on this toolchain explains
  // explained by an entry measured on earlier releases only, in force here
  // (DiscrepancyRegistry::CoverageOf): known, also seen on this toolchain
  size_t also_seen = 0;
  // under an entry not in force here: measured on later releases or other
  // tools only, or fixed by this release
  size_t explained_elsewhere = 0;
  size_t unexplained = 0;                                 // under no entry
  size_t both_reject = 0;                                 // forms both reject, whose messages were judged
  std::array<size_t, kMisdiagnosisKinds> misdiagnosed{};  // by MisdiagnosisKind
  size_t unregistered = 0;                                // of the misdiagnosed forms, those no entry lists
  size_t compiler_runs = 0;
  SweepFacts facts;
};

// kNotSwept marks a toolkit that did not sweep a form class or a
// disagreement's form (the target or the form is not at its version).
inline constexpr char kNotSwept = ' ';

// FormClassHistory is one qualifier set (a support matrix row) on one
// target across the toolkits' newest sweeps. `states` holds a character
// per toolkit: 'Y' both accept, 'y' the compiler accepts what the model
// rejects at that version, 'N' the model accepts and the compiler rejects,
// 'n' both reject, '-' the compiler cannot build for the target, kNotSwept.
struct FormClassHistory {
  std::string family;
  std::string opcode;  // "ldmatrix.sync.aligned.m8n8.x1.b16"
  std::string target;
  std::string states;
  std::optional<size_t> first_accepted;  // toolkit indices
  std::optional<size_t> last_accepted;
};

// DisagreementHistory is one form that disagrees with the model on some
// toolkit, at one PTX version and target. `states` holds a character per
// toolkit: 'E' it disagrees and the registry lists that for the toolkit,
// 'X' it disagrees otherwise, 'o' it agrees, kNotSwept.
struct DisagreementHistory {
  PtxVersion ptx;
  std::string target;
  std::string instruction;
  bool model_legal = false;
  std::string entry;    // the registry entry it falls under on some toolchain, or empty
  std::string message;  // the compiler's first message where it rejects
  std::string states;
  size_t first_bad = 0;
  size_t last_bad = 0;
  std::optional<size_t> last_good;    // the last toolkit before first_bad that agrees
  std::optional<size_t> first_fixed;  // the first toolkit after last_bad that agrees
};

// ChangeKind is how a form's verdict changed from one release to the next.
enum class ChangeKind : unsigned char { kNewlyAccepted, kNewlyRejected, kReworded };

// ChangeKindName spells a kind for reports: "newly accepted", ...
absl::string_view ChangeKindName(ChangeKind kind);

// ReleaseChange is every form whose verdict changed the same way between
// two consecutive toolkits that compared it, at one PTX version: with the
// same messages before and after (joined by " | ").
struct ReleaseChange {
  size_t from = 0;
  size_t to = 0;
  PtxVersion ptx;
  ChangeKind kind = ChangeKind::kNewlyAccepted;
  std::string before;
  std::string after;
  size_t count = 0;
  std::set<std::string> targets;
  // forms are "TARGET INSTRUCTION", every one for acceptances and
  // rejections, the first for a rewording (which touches many).
  std::vector<std::string> forms;
};

// DistinctMisdiagnosis is one misdiagnosis, as MessageShape tells them
// apart, of one kind and family, with the first form that drew it.
struct DistinctMisdiagnosis {
  MisdiagnosisKind kind = MisdiagnosisKind::kInternalSymbol;
  std::string family;  // "wmma.load"
  std::string shape;
  std::string entry;                // the toolchain-misdiagnoses entry that lists it, or empty
  std::vector<size_t> per_toolkit;  // forms drawing it, both sweeps of each toolkit
  size_t toolkit = 0;               // the example: the first form that drew it
  PtxVersion ptx;
  std::string target;
  std::string instruction;
  std::vector<std::string> messages;
  // others: up to kOtherExamples more forms that drew it, "TARGET
  // INSTRUCTION", for a reader to see what they share.
  std::vector<std::string> others;
};

// kOtherExamples bounds DistinctMisdiagnosis::others.
inline constexpr size_t kOtherExamples = 4;

// SupportHistory gathers the sweeps, and is thread-safe while it does.
class SupportHistory {
 public:
  // `toolkits` are in release order, oldest first; `common` is the version
  // every toolkit that speaks it is swept at besides its newest.
  SupportHistory(std::vector<HistoryToolkit> toolkits, PtxVersion common, const DiscrepancyRegistry& registry);

  // Compared is the SweepHooks::compared hook of toolkit `toolkit`'s sweep
  // at `ptx`: it compares every form with the last toolkit that compared
  // it at `ptx`, and judges the messages of every form both reject. The
  // toolkits must sweep in release order.
  std::function<void(const ComparedForms&)> Compared(size_t toolkit, PtxVersion ptx);
  // Add adds toolkit `toolkit`'s sweep once it is done: its matrix (for a
  // sweep at its newest version), its disagreements and its counts.
  void Add(size_t toolkit, const SupportSweep& sweep, const SweepFacts& facts);
  // Forget lets go of what the history keeps to hold the next toolkit's
  // sweep at `ptx` against (every form's verdict and the model's reasons),
  // once no later toolkit sweeps `ptx`.
  void Forget(PtxVersion ptx);

  const std::vector<HistoryToolkit>& toolkits() const { return toolkits_; }
  PtxVersion common() const { return common_; }
  const std::vector<HistorySweep>& sweeps() const { return sweeps_; }
  // FormClasses lists every qualifier set on every target some newest sweep
  // compared, by family, opcode and target.
  std::vector<FormClassHistory> FormClasses() const;
  // Disagreements lists every form that disagreed on some toolkit, by PTX
  // version, target and text.
  std::vector<DisagreementHistory> Disagreements() const;
  // Changes lists the changes between consecutive toolkits, in release order.
  std::vector<ReleaseChange> Changes() const;
  // Misdiagnoses lists the distinct misdiagnoses, unregistered first.
  std::vector<DistinctMisdiagnosis> Misdiagnoses() const;

 private:
  // FormState is one form's compiler verdict in a toolkit's sweep, its
  // messages known by their digest (message_texts_).
  struct FormState {
    bool accepted = false;
    size_t messages = 0;
  };
  // Series is what the history keeps of one (PTX version, target): the
  // last toolkit's verdicts, to hold the next one's against, the model's
  // reasons per form (worked out once, for the forms both reject), and
  // every toolkit that compared it.
  struct Series {
    std::optional<size_t> last_toolkit;
    std::vector<FormState> last;
    std::vector<std::vector<ReasonCode>> reasons;
    std::vector<bool> reasoned;
    std::set<size_t> toolkits;
  };
  // ChangeKey groups changes: from, to, PTX version, kind, messages before
  // and after (digests).
  using ChangeKey = std::tuple<size_t, size_t, PtxVersion, ChangeKind, size_t, size_t>;
  // MisdiagnosisKey groups misdiagnoses: kind, family, shape.
  using MisdiagnosisKey = std::tuple<MisdiagnosisKind, std::string, std::string>;
  // SweepCounts are what Compared counted of one (toolkit, PTX version).
  struct SweepCounts {
    size_t both_reject = 0;
    std::array<size_t, kMisdiagnosisKinds> misdiagnosed{};
    size_t unregistered = 0;
  };

  // CompareTarget is Compared's work for one target.
  void CompareTarget(size_t toolkit, PtxVersion ptx, const ComparedForms& forms);
  // Judge judges the messages of form `i` of `forms`, which both reject,
  // into `counts` and `found`.
  void Judge(size_t toolkit, PtxVersion ptx, const ComparedForms& forms, size_t i, Series& series, SweepCounts& counts,
             std::map<MisdiagnosisKey, DistinctMisdiagnosis>& found) const;
  // AddMatrix adds a newest sweep's matrix rows to form_classes_.
  void AddMatrix(size_t toolkit, const SupportSweep& sweep);
  // AddDisagreements adds a sweep's disagreements, and counts them.
  void AddDisagreements(size_t toolkit, const SupportSweep& sweep, HistorySweep& counted);

  std::vector<HistoryToolkit> toolkits_;
  PtxVersion common_;
  const DiscrepancyRegistry& registry_;

  mutable std::mutex mutex_;  // guards everything below
  std::vector<HistorySweep> sweeps_;
  std::map<std::pair<PtxVersion, std::string>, Series> series_;
  absl::flat_hash_map<size_t, std::string> message_texts_;  // by digest
  std::map<std::pair<size_t, PtxVersion>, SweepCounts> counts_;
  std::map<std::pair<std::string, std::string>, FormClassHistory> form_classes_;  // by (opcode, target)
  std::map<std::tuple<PtxVersion, std::string, std::string>, DisagreementHistory> disagreements_;
  std::map<ChangeKey, ReleaseChange> changes_;
  std::map<MisdiagnosisKey, DistinctMisdiagnosis> misdiagnoses_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_SUPPORT_SUPPORT_HISTORY_H_
