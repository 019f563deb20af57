#include "harness/judge/case_judge.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace matload {

absl::string_view CaseClassName(CaseClass kind) {
  switch (kind) {
    case CaseClass::kPass: return "pass";
    case CaseClass::kMismatch: return "mismatch";
    case CaseClass::kExpectedFault: return "expected fault";
    case CaseClass::kKnownFault: return "known fault";
    case CaseClass::kUnexpectedFault: return "unexpected fault";
    case CaseClass::kMissingFault: return "missing fault";
    case CaseClass::kUndefinedRan: return "undefined, ran";
    case CaseClass::kUndefinedFaulted: return "undefined, faulted";
    case CaseClass::kLegalRejected: return "legal form rejected";
    case CaseClass::kIllegalRejected: return "illegal form rejected";
    case CaseClass::kIllegalAccepted: return "illegal form accepted";
    case CaseClass::kTimeout: return "timeout";
    case CaseClass::kUnsupported: return "not supported here";
  }
  return "unknown";
}

CaseOutcome OutcomeOf(CaseClass kind) {
  switch (kind) {
    case CaseClass::kPass: return CaseOutcome::kPass;
    case CaseClass::kMismatch: return CaseOutcome::kMismatch;
    case CaseClass::kExpectedFault: return CaseOutcome::kExpectedFault;
    case CaseClass::kKnownFault: return CaseOutcome::kKnownFault;
    case CaseClass::kUnexpectedFault: return CaseOutcome::kUnexpectedFault;
    case CaseClass::kMissingFault: return CaseOutcome::kMissingFault;
    case CaseClass::kUndefinedRan: return CaseOutcome::kUndefinedRan;
    case CaseClass::kUndefinedFaulted: return CaseOutcome::kUndefinedFaulted;
    case CaseClass::kLegalRejected: return CaseOutcome::kLegalRejected;
    case CaseClass::kIllegalRejected: return CaseOutcome::kIllegalRejected;
    case CaseClass::kIllegalAccepted: return CaseOutcome::kIllegalAccepted;
    case CaseClass::kTimeout: return CaseOutcome::kTimeout;
    case CaseClass::kUnsupported: return CaseOutcome::kUnsupported;
  }
  return CaseOutcome::kUnjudged;
}

bool IsFinding(CaseClass kind) {
  switch (kind) {
    case CaseClass::kMismatch:
    case CaseClass::kUnexpectedFault:
    case CaseClass::kMissingFault:
    case CaseClass::kLegalRejected:
    case CaseClass::kIllegalAccepted:
    case CaseClass::kTimeout: return true;
    default: return false;
  }
}

int Severity(CaseClass kind) {
  static constexpr std::array<CaseClass, 13> kMostSevereFirst = {
      CaseClass::kMismatch,     CaseClass::kUnexpectedFault, CaseClass::kMissingFault,
      CaseClass::kTimeout,      CaseClass::kLegalRejected,   CaseClass::kIllegalAccepted,
      CaseClass::kKnownFault,   CaseClass::kExpectedFault,   CaseClass::kUndefinedFaulted,
      CaseClass::kUndefinedRan, CaseClass::kIllegalRejected, CaseClass::kUnsupported,
      CaseClass::kPass};
  const auto* found = std::find(kMostSevereFirst.begin(), kMostSevereFirst.end(), kind);
  return static_cast<int>(kMostSevereFirst.end() - found);
}

std::vector<std::uint8_t> ExpectedBytes(const LaneValues& values) {
  std::vector<std::uint8_t> bytes;
  for (std::uint32_t word : values.words) {
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<std::uint8_t>(word >> (8 * b)));
  }
  return bytes;
}

CaseVerdict JudgeOutput(const Outcome& expected, absl::Span<const std::uint8_t> output) {
  if (const auto* undefined = std::get_if<Undefined>(&expected)) {
    return {CaseClass::kUndefinedRan, {}, undefined->why};
  }
  if (const auto* fault = std::get_if<MustFault>(&expected)) return {CaseClass::kMissingFault, {}, fault->why};
  const LaneValues& values = std::get<LaneValues>(expected);
  CaseVerdict verdict;
  // The common case, a whole warp equal, is one comparison of the bytes.
  static_assert(std::endian::native == std::endian::little, "output records are little-endian words");
  const size_t expected_bytes = values.words.size() * sizeof(std::uint32_t);
  if (output.size() >= expected_bytes && std::memcmp(output.data(), values.words.data(), expected_bytes) == 0) {
    return verdict;
  }
  size_t index = 0;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int word = 0; word < values.words_per_lane; ++word, ++index) {
      const std::uint32_t actual = OutputWord(output, index);
      if (actual != values.words[index]) verdict.mismatches.push_back({lane, word, values.words[index], actual});
    }
  }
  if (!verdict.mismatches.empty()) {
    verdict.kind = CaseClass::kMismatch;
    verdict.detail = absl::StrCat(verdict.mismatches.size(), " of ", index, " register words differ");
  }
  return verdict;
}

CaseVerdict JudgeFault(const Outcome& expected, absl::string_view error, absl::string_view known_fault_id) {
  if (std::holds_alternative<Undefined>(expected)) return {CaseClass::kUndefinedFaulted, {}, std::string(error)};
  if (std::holds_alternative<MustFault>(expected)) return {CaseClass::kExpectedFault, {}, std::string(error)};
  if (!known_fault_id.empty()) {
    return {CaseClass::kKnownFault, {}, absl::StrCat(known_fault_id, ": ", error)};
  }
  return {CaseClass::kUnexpectedFault, {}, std::string(error)};
}

std::string MismatchPattern(const CaseVerdict& verdict, const LaneValues& expected) {
  absl::flat_hash_set<std::uint32_t> model_words;
  model_words.insert(expected.words.begin(), expected.words.end());
  bool all_poison = true;
  bool all_moved = true;
  // FNV-1a over the slots: stable across runs and machines, unlike absl::Hash.
  std::uint32_t slots = 2166136261u;
  for (const WordMismatch& mismatch : verdict.mismatches) {
    all_poison = all_poison && mismatch.actual == kPoisonWord;
    all_moved = all_moved && model_words.contains(mismatch.actual);
    for (int value : {mismatch.lane, mismatch.word}) slots = (slots ^ static_cast<std::uint32_t>(value)) * 16777619u;
  }
  const char* look = all_poison ? "poison" : all_moved ? "moved" : "other";
  return absl::StrFormat("%s-%d-words-%08x", look, verdict.mismatches.size(), slots);
}

}  // namespace matload
