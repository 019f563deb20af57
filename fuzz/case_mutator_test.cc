#include "fuzz/case_mutator.h"

#include <set>
#include <string>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "reference/families.h"
#include "reference/legality.h"

namespace matload {
namespace {

// kIterations bounds the walk in which every qualifier value and every
// illegal class must turn up.
constexpr int kIterations = 20000;

// Walk is what a random walk of the mutator produced: each step mutates a
// case drawn from a pool of earlier results, as a campaign does with its
// corpus.
struct Walk {
  std::set<std::tuple<Family, int, std::string>> qualifier_values;  // (family, axis, spelling)
  std::set<ReasonCode> reasons;
  std::set<Mutation> effective;  // mutations that changed a case
  int legal = 0;
  int illegal = 0;
};

void Record(const FuzzCase& fuzz_case, Walk& walk) {
  const RawInstruction& instruction = fuzz_case.snippet.instruction;
  if (const FamilySpec* spec = FindFamily(instruction.opcode); spec != nullptr) {
    for (size_t i = spec->mnemonic.size(); i < instruction.opcode.size(); ++i) {
      for (size_t axis = 0; axis < spec->axes.size(); ++axis) {
        for (absl::string_view spelling : spec->axes[axis].spellings) {
          if (spelling.substr(1) == instruction.opcode[i]) {
            walk.qualifier_values.insert({spec->family, static_cast<int>(axis), std::string(spelling)});
          }
        }
      }
    }
  }
  const Verdict verdict = Judge(fuzz_case.snippet, fuzz_case.ptx, fuzz_case.target);
  ++(verdict.legal() ? walk.legal : walk.illegal);
  for (const Reason& reason : verdict.reasons()) walk.reasons.insert(reason.code);
}

Walk RandomWalk(std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<FuzzCase> pool;
  for (int i = 0; i < 16; ++i) pool.push_back(RandomLegalCase(random));
  Walk walk;
  for (int step = 0; step < kIterations; ++step) {
    FuzzCase mutated = pool[random() % pool.size()];
    const Mutation mutation = static_cast<Mutation>(random() % kMutationCount);
    const FuzzCase before = mutated;
    Mutate(mutation, random, mutated);
    if (!(mutated == before)) walk.effective.insert(mutation);
    // Every case the mutator makes must encode to text that decodes back.
    absl::StatusOr<FuzzCase> decoded = DecodeFuzzCase(EncodeFuzzCase(mutated));
    EXPECT_TRUE(decoded.ok() && *decoded == mutated) << MutationName(mutation) << "\n" << EncodeFuzzCase(mutated);
    Record(mutated, walk);
    if (pool.size() < 256) {
      pool.push_back(std::move(mutated));
    } else {
      pool[random() % pool.size()] = std::move(mutated);
    }
  }
  return walk;
}

TEST(CaseMutatorTest, ReachesEveryQualifierValueAndEveryIllegalClass) {
  const Walk walk = RandomWalk(1);

  std::vector<std::string> missing_values;
  for (const FamilySpec* spec : AllFamilies()) {
    for (size_t axis = 0; axis < spec->axes.size(); ++axis) {
      for (absl::string_view spelling : spec->axes[axis].spellings) {
        if (!walk.qualifier_values.contains({spec->family, static_cast<int>(axis), std::string(spelling)})) {
          missing_values.push_back(absl::StrCat(spec->MnemonicText(), " ", spec->axes[axis].name, " ", spelling));
        }
      }
    }
  }
  EXPECT_TRUE(missing_values.empty()) << "never produced: " << absl::StrJoin(missing_values, ", ");

  // kSyntax is the one class a decoded case cannot have: text that does not
  // parse never decodes (the text target fuzzes the parser).
  std::vector<std::string> missing_reasons;
  for (int code = 0; code <= static_cast<int>(ReasonCode::kStateSpaceMismatch); ++code) {
    const ReasonCode reason = static_cast<ReasonCode>(code);
    if (reason != ReasonCode::kSyntax && !walk.reasons.contains(reason)) {
      missing_reasons.emplace_back(ReasonCodeName(reason));
    }
  }
  EXPECT_TRUE(missing_reasons.empty()) << "never produced: " << absl::StrJoin(missing_reasons, ", ");

  std::vector<std::string> idle;
  for (int mutation = 0; mutation < kMutationCount; ++mutation) {
    if (!walk.effective.contains(static_cast<Mutation>(mutation))) {
      idle.emplace_back(MutationName(static_cast<Mutation>(mutation)));
    }
  }
  EXPECT_TRUE(idle.empty()) << "never changed a case: " << absl::StrJoin(idle, ", ");

  // The mix of legal and illegal cases is kept on purpose.
  EXPECT_GT(walk.legal, kIterations / 20) << walk.legal << " legal of " << kIterations;
  EXPECT_GT(walk.illegal, kIterations / 2) << walk.illegal << " illegal of " << kIterations;
}

TEST(CaseMutatorTest, SameInputAndSeedGiveTheSameOutput) {
  std::mt19937_64 random(3);
  const std::string input = EncodeFuzzCase(RandomLegalCase(random));
  for (unsigned seed = 0; seed < 200; ++seed) {
    std::vector<std::uint8_t> first(input.begin(), input.end());
    std::vector<std::uint8_t> second = first;
    first.resize(8192);
    second.resize(8192);
    const size_t first_size = MutateCaseBytes(first.data(), input.size(), first.size(), seed);
    const size_t second_size = MutateCaseBytes(second.data(), input.size(), second.size(), seed);
    ASSERT_EQ(first_size, second_size);
    ASSERT_TRUE(std::equal(first.begin(), first.begin() + static_cast<long>(first_size), second.begin())) << seed;
    EXPECT_TRUE(DecodeFuzzCase(absl::string_view(reinterpret_cast<const char*>(first.data()), first_size)).ok());
  }
}

TEST(CaseMutatorTest, UndecodableInputsBecomeCases) {
  std::vector<std::uint8_t> data(8192, 0xff);
  const size_t size = MutateCaseBytes(data.data(), 17, data.size(), 5);
  absl::StatusOr<FuzzCase> decoded = DecodeFuzzCase(absl::string_view(reinterpret_cast<const char*>(data.data()), size));
  EXPECT_TRUE(decoded.ok()) << decoded.status();
}

TEST(CaseMutatorTest, OutputThatDoesNotFitLeavesTheInput) {
  std::mt19937_64 random(4);
  const std::string input = EncodeFuzzCase(RandomLegalCase(random));
  std::vector<std::uint8_t> data(input.begin(), input.end());
  EXPECT_EQ(MutateCaseBytes(data.data(), data.size(), 8, 1), data.size());
  EXPECT_EQ(std::string(data.begin(), data.end()), input);
}

TEST(CaseMutatorTest, CrossOverTakesFromBoth) {
  std::mt19937_64 random(5);
  const FuzzCase first = RandomLegalCase(random);
  FuzzCase second = RandomLegalCase(random);
  second.runtime.offset = 4096;
  bool took_instruction = false;
  bool spliced = false;
  for (int i = 0; i < 50; ++i) {
    const FuzzCase child = CrossOver(first, second, random);
    EXPECT_EQ(child.runtime, first.runtime);
    took_instruction |= child.snippet == second.snippet;
    spliced |= child.snippet.instruction.opcode != first.snippet.instruction.opcode &&
               child.snippet.instruction.opcode != second.snippet.instruction.opcode;
  }
  EXPECT_TRUE(took_instruction);
  EXPECT_TRUE(spliced);
}

}  // namespace
}  // namespace matload
