#include "harness/support/support_history.h"

#include <algorithm>
#include <variant>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "reference/declaration_index.h"
#include "reference/enumerate.h"
#include "reference/families.h"
#include "reference/legality.h"

namespace matload {
namespace {

// kJoin joins a form's messages in reports.
constexpr absl::string_view kJoin = " | ";

// FamilyOf is the mnemonic of the family `instruction` is written in, or
// its first token.
std::string FamilyOf(absl::string_view instruction) {
  for (const FamilySpec* spec : AllFamilies()) {
    const std::string mnemonic(spec->MnemonicText());
    if (absl::StartsWith(instruction, mnemonic)) return mnemonic;
  }
  return std::string(instruction.substr(0, instruction.find_first_of(". ")));
}

// UsedDeclarations are the standard register file's declarations of the
// names `instruction` uses, as UsedStandardDeclarations (enumerate.h) gives
// them, looked up by name instead of scanning the file: the history asks
// for every form both reject.
std::vector<Declaration> UsedDeclarations(const RawInstruction& instruction) {
  std::vector<Declaration> used;
  const auto add = [&used](const std::string& name) {
    const Declaration* declaration = StandardDeclarationIndex().Find(name);
    if (declaration != nullptr && std::find(used.begin(), used.end(), *declaration) == used.end()) {
      used.push_back(*declaration);
    }
  };
  for (const Operand& operand : instruction.operands) {
    if (const auto* vector = std::get_if<VectorOperand>(&operand)) {
      for (const std::string& element : vector->elements) add(element);
    }
    if (const auto* reg = std::get_if<RegisterOperand>(&operand)) add(reg->name);
    if (const auto* address = std::get_if<AddressOperand>(&operand)) add(address->base);
  }
  return used;
}

// ModelReasons are the model's reason codes for `instruction`, written
// against the standard register file as every swept form is: judged with
// the declarations it uses, which give the verdict the whole file gives
// without copying it.
std::vector<ReasonCode> ModelReasons(const RawInstruction& instruction, PtxVersion ptx, Target target) {
  std::vector<Declaration> declarations = UsedDeclarations(instruction);
  // None: Judge would declare the names itself (implicit_declarations.h);
  // against the whole file they are undeclared, as the sweep judges them.
  if (declarations.empty()) declarations = StandardRegisterFile();
  const Verdict verdict = Judge(Snippet{std::move(declarations), instruction}, ptx, target);
  std::vector<ReasonCode> codes;
  for (const Reason& reason : verdict.reasons()) codes.push_back(reason.code);
  return codes;
}

// HistoryStateOf is a matrix cell's FormClassHistory state.
char HistoryStateOf(const SupportCell& cell) {
  if (!cell.compiled) return '-';
  if (cell.compiler_accepted) return cell.model_legal ? 'Y' : 'y';
  return cell.model_legal ? 'N' : 'n';
}

// Accepts says whether a FormClassHistory state is an acceptance.
bool Accepts(char state) { return state == 'Y' || state == 'y'; }

// AddOther keeps `form` among `misdiagnosis`'s other examples, while there
// is room and it is not the example or one of them already.
void AddOther(DistinctMisdiagnosis& misdiagnosis, const std::string& form) {
  std::vector<std::string>& others = misdiagnosis.others;
  if (others.size() >= kOtherExamples || absl::EndsWith(form, misdiagnosis.instruction) ||
      std::find(others.begin(), others.end(), form) != others.end()) {
    return;
  }
  others.push_back(form);
}

// Merge adds one target's `found` to `kept`, the same misdiagnosis seen on
// other targets: the counts add up, the example is the first form by
// (toolkit, PTX version, target, text) and the others are the first of the
// rest by text, so that the report does not depend on which target's sweep
// ended first.
void Merge(DistinctMisdiagnosis& kept, const DistinctMisdiagnosis& found) {
  for (size_t t = 0; t < kept.per_toolkit.size(); ++t) kept.per_toolkit[t] += found.per_toolkit[t];
  std::vector<std::string> others = kept.others;
  others.insert(others.end(), found.others.begin(), found.others.end());
  const bool earlier = std::tie(found.toolkit, found.ptx, found.target, found.instruction) <
                       std::tie(kept.toolkit, kept.ptx, kept.target, kept.instruction);
  const DistinctMisdiagnosis& later = earlier ? kept : found;
  others.push_back(absl::StrCat(later.target, " ", later.instruction));
  if (earlier) {
    kept.toolkit = found.toolkit;
    kept.ptx = found.ptx;
    kept.target = found.target;
    kept.instruction = found.instruction;
    kept.messages = found.messages;
  }
  std::sort(others.begin(), others.end());
  others.erase(std::unique(others.begin(), others.end()), others.end());
  kept.others.clear();
  for (const std::string& other : others) AddOther(kept, other);
}

}  // namespace

absl::string_view ChangeKindName(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::kNewlyAccepted: return "newly accepted";
    case ChangeKind::kNewlyRejected: return "newly rejected";
    case ChangeKind::kReworded: return "reworded";
  }
  return "unknown";
}

SupportHistory::SupportHistory(std::vector<HistoryToolkit> toolkits, PtxVersion common,
                               const DiscrepancyRegistry& registry)
    : toolkits_(std::move(toolkits)), common_(common), registry_(registry) {}

std::function<void(const ComparedForms&)> SupportHistory::Compared(size_t toolkit, PtxVersion ptx) {
  return [this, toolkit, ptx](const ComparedForms& forms) { CompareTarget(toolkit, ptx, forms); };
}

void SupportHistory::Judge(size_t toolkit, PtxVersion ptx, const ComparedForms& forms, size_t i, Series& series,
                           SweepCounts& counts, std::map<MisdiagnosisKey, DistinctMisdiagnosis>& found) const {
  ++counts.both_reject;
  if (!series.reasoned[i]) {
    series.reasons[i] = ModelReasons(forms.instructions[i], ptx, forms.target);
    series.reasoned[i] = true;
  }
  const CompilerVerdict& verdict = forms.verdicts[i];
  const std::optional<Misdiagnosis> misdiagnosis = JudgeDiagnostic(forms.texts[i], series.reasons[i], verdict);
  if (!misdiagnosis.has_value()) return;
  ++counts.misdiagnosed[static_cast<size_t>(misdiagnosis->kind)];
  const DiscrepancyEntry* entry = nullptr;
  for (const std::string& message : verdict.messages) {
    if ((entry = registry_.FindMisdiagnosis(forms.texts[i], message)) != nullptr) break;
  }
  if (entry == nullptr) ++counts.unregistered;
  const MisdiagnosisKey key{misdiagnosis->kind, FamilyOf(forms.texts[i]), MessageShape(misdiagnosis->message)};
  auto [distinct, added] = found.try_emplace(key);
  if (added) {
    distinct->second = {.kind = misdiagnosis->kind,
                        .family = std::get<1>(key),
                        .shape = std::get<2>(key),
                        .entry = entry == nullptr ? "" : entry->id,
                        .per_toolkit = std::vector<size_t>(toolkits_.size()),
                        .toolkit = toolkit,
                        .ptx = ptx,
                        .target = forms.target.Name(),
                        .instruction = forms.texts[i],
                        .messages = verdict.messages};
  }
  ++distinct->second.per_toolkit[toolkit];
  AddOther(distinct->second, absl::StrCat(forms.target.Name(), " ", forms.texts[i]));
}

void SupportHistory::CompareTarget(size_t toolkit, PtxVersion ptx, const ComparedForms& forms) {
  const size_t count = forms.texts.size();
  Series* series = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    series = &series_[{ptx, forms.target.Name()}];
  }
  // One thread at a time sweeps a target, so `series` is this call's alone.
  if (series->reasons.size() != count) {
    *series = Series{.reasons = std::vector<std::vector<ReasonCode>>(count), .reasoned = std::vector<bool>(count)};
  }
  std::vector<FormState> states(count);
  absl::flat_hash_map<size_t, std::string> texts;
  std::map<ChangeKey, ReleaseChange> changes;
  std::map<MisdiagnosisKey, DistinctMisdiagnosis> found;
  SweepCounts counts;
  absl::flat_hash_set<absl::string_view> seen;  // a matrix row is a legal form too: one case
  for (size_t i = 0; i < count; ++i) {
    const CompilerVerdict& verdict = forms.verdicts[i];
    if (!verdict.judged || !seen.insert(forms.texts[i]).second) continue;
    states[i] = {verdict.accepted, absl::HashOf(verdict.messages)};
    if (auto [text, added] = texts.try_emplace(states[i].messages); added) {
      text->second = absl::StrJoin(verdict.messages, kJoin);
    }
    // A crash is a disagreement (AddDisagreements), never a rejection.
    if (!forms.model_legal[i] && !verdict.accepted && !verdict.crashed) {
      Judge(toolkit, ptx, forms, i, *series, counts, found);
    }
    if (!series->last_toolkit.has_value()) continue;
    const FormState& before = series->last[i];
    const FormState& after = states[i];
    if (before.accepted == after.accepted && (after.accepted || before.messages == after.messages)) continue;
    const ChangeKind kind = before.accepted == after.accepted ? ChangeKind::kReworded
                            : after.accepted                  ? ChangeKind::kNewlyAccepted
                                                              : ChangeKind::kNewlyRejected;
    ReleaseChange& change = changes[{*series->last_toolkit, toolkit, ptx, kind, before.messages, after.messages}];
    if (change.count++ == 0) {
      change.from = *series->last_toolkit;
      change.to = toolkit;
      change.ptx = ptx;
      change.kind = kind;
    }
    change.targets.insert(forms.target.Name());
    if (kind != ChangeKind::kReworded || change.forms.empty()) {
      change.forms.push_back(absl::StrCat(forms.target.Name(), " ", forms.texts[i]));
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [key, change] : changes) {
    change.before = message_texts_.contains(std::get<4>(key)) ? message_texts_[std::get<4>(key)] : "";
    change.after = texts[std::get<5>(key)];
    ReleaseChange& kept = changes_[key];
    if (kept.count == 0) {
      kept = std::move(change);
      continue;
    }
    kept.count += change.count;
    kept.targets.insert(change.targets.begin(), change.targets.end());
    if (change.kind != ChangeKind::kReworded) {
      kept.forms.insert(kept.forms.end(), change.forms.begin(), change.forms.end());
    } else if (change.forms.front() < kept.forms.front()) {
      kept.forms = std::move(change.forms);  // the first by text, whichever target ended first
    }
  }
  for (auto& [digest, text] : texts) message_texts_.try_emplace(digest, std::move(text));
  for (auto& [key, distinct] : found) {
    auto [kept, added] = misdiagnoses_.try_emplace(key, distinct);
    if (!added) Merge(kept->second, distinct);
  }
  SweepCounts& total = counts_[{toolkit, ptx}];
  total.both_reject += counts.both_reject;
  total.unregistered += counts.unregistered;
  for (size_t k = 0; k < kMisdiagnosisKinds; ++k) total.misdiagnosed[k] += counts.misdiagnosed[k];
  series->last_toolkit = toolkit;
  series->last = std::move(states);
  series->toolkits.insert(toolkit);
}

void SupportHistory::AddMatrix(size_t toolkit, const SupportSweep& sweep) {
  for (const SupportRow& row : sweep.rows) {
    for (const auto& [target, cell] : row.cells) {
      FormClassHistory& history = form_classes_[{row.opcode, target}];
      if (history.states.empty()) {
        history = {.family = row.family,
                   .opcode = row.opcode,
                   .target = target,
                   .states = std::string(toolkits_.size(), kNotSwept)};
      }
      history.states[toolkit] = HistoryStateOf(cell);
    }
  }
}

void SupportHistory::AddDisagreements(size_t toolkit, const SupportSweep& sweep, HistorySweep& counted) {
  for (const Disagreement& disagreement : sweep.disagreements) {
    DisagreementHistory& history = disagreements_[{sweep.ptx, disagreement.target, disagreement.instruction}];
    if (history.states.empty()) {
      history = {.ptx = sweep.ptx,
                 .target = disagreement.target,
                 .instruction = disagreement.instruction,
                 .model_legal = disagreement.model_legal,
                 .states = std::string(toolkits_.size(), kNotSwept)};
    }
    history.states[toolkit] = disagreement.registry_id.empty() ? 'X' : 'E';
    if (history.message.empty() && !disagreement.compiler_messages.empty()) {
      history.message = disagreement.compiler_messages.front();
    }
    if (!disagreement.registry_id.empty()) {
      history.entry = disagreement.registry_id;
      const DiscrepancyEntry* entry = registry_.ById(disagreement.registry_id);
      const bool carried =
          entry != nullptr && DiscrepancyRegistry::CoverageOf(*entry, sweep.compiler) == Coverage::kCarried;
      ++(carried ? counted.also_seen : counted.explained);
      continue;
    }
    if (history.entry.empty()) {
      const DiscrepancyEntry* entry =
          registry_.FindAnywhere(disagreement.instruction, *ParseTarget(disagreement.target),
                                 disagreement.compiler_crashed ? Direction::kToolchainCrashes
                                 : disagreement.model_legal    ? Direction::kToolchainRejects
                                                               : Direction::kToolchainAccepts);
      if (entry != nullptr) history.entry = entry->id;
    }
    ++(history.entry.empty() ? counted.unexplained : counted.explained_elsewhere);
  }
}

void SupportHistory::Add(size_t toolkit, const SupportSweep& sweep, const SweepFacts& facts) {
  std::lock_guard<std::mutex> lock(mutex_);
  const bool newest = sweep.ptx == toolkits_[toolkit].newest;
  HistorySweep counted{
      .toolkit = toolkit, .ptx = sweep.ptx, .newest = newest, .common = sweep.ptx == common_, .facts = facts};
  for (const TargetSummary& summary : sweep.summaries) {
    if (!summary.compiled) continue;
    ++counted.targets_compiled;
    counted.forms += summary.legal + summary.near_miss;
    counted.agree += summary.agree;
    counted.compiler_runs += summary.compiler_runs;
  }
  const SweepCounts& counts = counts_[{toolkit, sweep.ptx}];
  counted.both_reject = counts.both_reject;
  counted.misdiagnosed = counts.misdiagnosed;
  counted.unregistered = counts.unregistered;
  if (newest) AddMatrix(toolkit, sweep);
  AddDisagreements(toolkit, sweep, counted);
  sweeps_.push_back(counted);
}

void SupportHistory::Forget(PtxVersion ptx) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [key, series] : series_) {
    if (key.first != ptx) continue;
    series.last_toolkit.reset();
    series.last = {};
    series.reasons = {};
    series.reasoned = {};
  }
}

std::vector<FormClassHistory> SupportHistory::FormClasses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<FormClassHistory> classes;
  for (const auto& [key, kept] : form_classes_) {
    FormClassHistory history = kept;
    for (size_t t = 0; t < history.states.size(); ++t) {
      if (!Accepts(history.states[t])) continue;
      if (!history.first_accepted.has_value()) history.first_accepted = t;
      history.last_accepted = t;
    }
    classes.push_back(std::move(history));
  }
  std::stable_sort(classes.begin(), classes.end(), [](const FormClassHistory& a, const FormClassHistory& b) {
    return std::tie(a.family, a.opcode) < std::tie(b.family, b.opcode);
  });
  return classes;
}

std::vector<DisagreementHistory> SupportHistory::Disagreements() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<DisagreementHistory> ranges;
  for (const auto& [key, kept] : disagreements_) {
    DisagreementHistory history = kept;
    const auto series = series_.find({history.ptx, history.target});
    for (size_t t : series == series_.end() ? std::set<size_t>() : series->second.toolkits) {
      if (history.states[t] == kNotSwept) history.states[t] = 'o';
    }
    const size_t first = history.states.find_first_of("EX");
    const size_t last = history.states.find_last_of("EX");
    history.first_bad = first;
    history.last_bad = last;
    for (size_t t = 0; t < first; ++t) {
      if (history.states[t] == 'o') history.last_good = t;
    }
    for (size_t t = last + 1; t < history.states.size() && !history.first_fixed.has_value(); ++t) {
      if (history.states[t] == 'o') history.first_fixed = t;
    }
    ranges.push_back(std::move(history));
  }
  return ranges;
}

std::vector<ReleaseChange> SupportHistory::Changes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<ReleaseChange> changes;
  for (const auto& [key, change] : changes_) changes.push_back(change);
  for (ReleaseChange& change : changes) std::sort(change.forms.begin(), change.forms.end());
  std::sort(changes.begin(), changes.end(), [](const ReleaseChange& a, const ReleaseChange& b) {
    return std::tie(a.to, a.ptx, a.kind, a.before, a.after) < std::tie(b.to, b.ptx, b.kind, b.before, b.after);
  });
  return changes;
}

std::vector<DistinctMisdiagnosis> SupportHistory::Misdiagnoses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<DistinctMisdiagnosis> distinct;
  for (const auto& [key, misdiagnosis] : misdiagnoses_) distinct.push_back(misdiagnosis);
  std::stable_sort(distinct.begin(), distinct.end(), [](const DistinctMisdiagnosis& a, const DistinctMisdiagnosis& b) {
    return !a.entry.empty() < !b.entry.empty();
  });
  return distinct;
}

}  // namespace matload
