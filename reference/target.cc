#include "reference/target.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace matload {
namespace {

constexpr SpecRef kTargetNotes{"target.introduced", "PTX 9.0 .target directive, PTX ISA Notes (docs/spec-decisions.md target.introduced)"};
constexpr SpecRef kRenameNotes{"target.sm101-renamed",
                               "PTX 9.0 Target ISA Notes: sm_101* renamed to sm_110* from PTX ISA 9.0"};
constexpr SpecRef kNewTargetNotes{
    "target.introduced",
    "PTX 9.4 .target directive, PTX ISA Notes: sm_107, sm_107a and sm_107f in 9.4 (sm_10x family); measured with "
    "ptxas 13.4.92 and 13.5.37: .version 9.3 rejects them (docs/spec-decisions.md target.introduced)"};
constexpr SpecRef kFamilyNotes{"target.families", "PTX 9.0 .target directive, family-specific targets (docs/spec-decisions.md target.families)"};

constexpr TargetVariant kBase = TargetVariant::kBaseline;
constexpr TargetVariant kArch = TargetVariant::kArchSpecific;
constexpr TargetVariant kFam = TargetVariant::kFamilySpecific;

std::vector<TargetInfo> BuildTargetTable() {
  // One row per .target value, copied from the PTX ISA .target notes.
  struct Row {
    int sm;
    TargetVariant variant;
    PtxVersion introduced;
    TargetFamily family;
  };
  const Row kRows[] = {
      {70, kBase, {6, 0}, TargetFamily::kNone},   {72, kBase, {6, 1}, TargetFamily::kNone},
      {75, kBase, {6, 3}, TargetFamily::kNone},   {80, kBase, {7, 0}, TargetFamily::kNone},
      {86, kBase, {7, 1}, TargetFamily::kNone},   {87, kBase, {7, 4}, TargetFamily::kNone},
      {88, kBase, {9, 0}, TargetFamily::kNone},   {89, kBase, {7, 8}, TargetFamily::kNone},
      {90, kBase, {7, 8}, TargetFamily::kNone},   {90, kArch, {8, 0}, TargetFamily::kNone},
      {100, kBase, {8, 6}, TargetFamily::kSm10x}, {100, kArch, {8, 6}, TargetFamily::kSm10x},
      {100, kFam, {8, 8}, TargetFamily::kSm10x},  {101, kBase, {8, 6}, TargetFamily::kSm11x},
      {101, kArch, {8, 6}, TargetFamily::kSm11x}, {101, kFam, {8, 8}, TargetFamily::kSm11x},
      {103, kBase, {8, 8}, TargetFamily::kSm10x}, {103, kArch, {8, 8}, TargetFamily::kSm10x},
      {103, kFam, {8, 8}, TargetFamily::kSm10x},  {107, kBase, {9, 4}, TargetFamily::kSm10x},
      {107, kArch, {9, 4}, TargetFamily::kSm10x}, {107, kFam, {9, 4}, TargetFamily::kSm10x},
      {110, kBase, {9, 0}, TargetFamily::kSm11x}, {110, kArch, {9, 0}, TargetFamily::kSm11x},
      {110, kFam, {9, 0}, TargetFamily::kSm11x},  {120, kBase, {8, 7}, TargetFamily::kSm12x},
      {120, kArch, {8, 7}, TargetFamily::kSm12x}, {120, kFam, {8, 8}, TargetFamily::kSm12x},
      {121, kBase, {8, 8}, TargetFamily::kSm12x}, {121, kArch, {8, 8}, TargetFamily::kSm12x},
      {121, kFam, {8, 8}, TargetFamily::kSm12x},
  };
  std::vector<TargetInfo> table;
  for (const Row& row : kRows) {
    TargetInfo info{.target = {row.sm, row.variant}, .introduced = row.introduced, .family = row.family,
                    .source = row.family == TargetFamily::kNone ? kTargetNotes : kFamilyNotes};
    if (row.introduced > PtxVersion{9, 0}) info.source = kNewTargetNotes;
    if (row.sm == 101) {
      info.withdrawn = PtxVersion{9, 0};
      info.source = kRenameNotes;
    }
    table.push_back(info);
  }
  return table;
}

}  // namespace

std::string Target::Name() const {
  switch (variant) {
    case TargetVariant::kBaseline:
      return absl::StrCat("sm_", sm);
    case TargetVariant::kArchSpecific:
      return absl::StrCat("sm_", sm, "a");
    case TargetVariant::kFamilySpecific:
      return absl::StrCat("sm_", sm, "f");
  }
  return "sm_?";
}

const std::vector<TargetInfo>& AllTargets() {
  static const std::vector<TargetInfo>* const kTable = new std::vector<TargetInfo>(BuildTargetTable());
  return *kTable;
}

const TargetInfo* FindTarget(Target target) {
  for (const TargetInfo& info : AllTargets()) {
    if (info.target == target) return &info;
  }
  return nullptr;
}

bool TargetExistsIn(Target target, PtxVersion version) {
  const TargetInfo* info = FindTarget(target);
  if (info == nullptr || version < info->introduced) return false;
  return !info->withdrawn.has_value() || version < *info->withdrawn;
}

absl::StatusOr<Target> ParseTarget(absl::string_view name) {
  absl::string_view rest = absl::StripAsciiWhitespace(name);
  Target target;
  if (absl::ConsumeSuffix(&rest, "a")) {
    target.variant = TargetVariant::kArchSpecific;
  } else if (absl::ConsumeSuffix(&rest, "f")) {
    target.variant = TargetVariant::kFamilySpecific;
  }
  if (!absl::ConsumePrefix(&rest, "sm_") || !absl::SimpleAtoi(rest, &target.sm) || FindTarget(target) == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown target '", name, "': matload knows ", AllTargets().front().target.Name(), " to ",
                     AllTargets().back().target.Name(),
                     " (sm_90, sm_100a, sm_120f, ...); a new target is added to reference/target.cc ",
                     "as docs/adding-a-ptx-version.md says"));
  }
  return target;
}

absl::StatusOr<std::vector<Target>> ParseTargetList(absl::string_view text) {
  std::vector<Target> targets;
  if (absl::StripAsciiWhitespace(text) == "all") {
    for (const TargetInfo& info : AllTargets()) targets.push_back(info.target);
    return targets;
  }
  for (absl::string_view name : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    absl::StatusOr<Target> target = ParseTarget(name);
    if (!target.ok()) return target.status();
    targets.push_back(*target);
  }
  if (targets.empty()) return absl::InvalidArgumentError("empty target list: name targets or say 'all'");
  return targets;
}

bool TargetClause::Matches(Target candidate, PtxVersion version) const {
  if (version < since) return false;
  switch (kind) {
    case Kind::kOnionFrom:
      // The onion model: a baseline feature carries to every later target,
      // whatever its suffix.
      return candidate.sm >= target.sm;
    case Kind::kExactly:
      return candidate == target;
    case Kind::kFamilyFrom: {
      // Family-specific features exist on f-targets and on a-targets of the
      // same family and no earlier member; never on baseline targets.
      const TargetInfo* mine = FindTarget(target);
      const TargetInfo* theirs = FindTarget(candidate);
      return mine != nullptr && theirs != nullptr && theirs->family == mine->family &&
             candidate.variant != TargetVariant::kBaseline && candidate.sm >= target.sm;
    }
  }
  return false;
}

std::string TargetClause::ToString() const {
  std::string text;
  switch (kind) {
    case Kind::kOnionFrom:
      text = absl::StrCat(target.Name(), " or higher");
      break;
    case Kind::kExactly:
      text = target.Name();
      break;
    case Kind::kFamilyFrom:
      text = absl::StrCat(target.Name(), " or higher in the same family");
      break;
  }
  if (since > PtxVersion{0, 0}) absl::StrAppend(&text, " (from PTX ISA ", since.ToString(), ")");
  return text;
}

}  // namespace matload
