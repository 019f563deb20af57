#include "harness/judge/discrepancy_registry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

constexpr absl::string_view kEntry = R"json({"discrepancies": [{
  "id": "dup-sync", "pattern": "\\.sync\\.sync\\b", "direction": "toolchain-accepts",
  "targets": ["sm_90"], "rule": "syntax.duplicate-qualifier", "toolchains": ["ptxas 13.0"],
  "toolchain_message": "(accepted)", "judgement": "lenient", "example": "ldmatrix.sync.sync ..."}]})json";

TEST(DiscrepancyRegistryTest, MatchesByPatternTargetAndDirection) {
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Parse(kEntry);
  ASSERT_TRUE(registry.ok()) << registry.status();
  const Target sm90 = *ParseTarget("sm_90");
  EXPECT_NE(registry->Find("ldmatrix.sync.sync.aligned.m8n8.x1.b16 {a}, [p];", sm90, Direction::kToolchainAccepts,
                           "ptxas 13.0.88"),
            nullptr);
  EXPECT_EQ(registry->Find("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];", sm90, Direction::kToolchainAccepts,
                           "ptxas 13.0.88"),
            nullptr);
  EXPECT_EQ(registry->Find("ldmatrix.sync.sync {a}, [p];", *ParseTarget("sm_80"), Direction::kToolchainAccepts,
                           "ptxas 13.0.88"),
            nullptr);
  EXPECT_EQ(registry->Find("ldmatrix.sync.sync {a}, [p];", sm90, Direction::kToolchainRejects, "ptxas 13.0.88"),
            nullptr);
  // Entries apply to the toolchains they were measured on, matched by prefix.
  EXPECT_EQ(registry->Find("ldmatrix.sync.sync {a}, [p];", sm90, Direction::kToolchainAccepts, "ptxas 12.9.86"),
            nullptr);
}

// FindAnywhere names the entry on a toolchain it does not list, which the
// support history reports; the target and direction still decide.
TEST(DiscrepancyRegistryTest, FindsAnEntryOnAnyToolchain) {
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Parse(kEntry);
  ASSERT_TRUE(registry.ok()) << registry.status();
  const Target sm90 = *ParseTarget("sm_90");
  const DiscrepancyEntry* entry =
      registry->FindAnywhere("ldmatrix.sync.sync {a}, [p];", sm90, Direction::kToolchainAccepts);
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->id, "dup-sync");
  EXPECT_EQ(registry->FindAnywhere("ldmatrix.sync.sync {a}, [p];", *ParseTarget("sm_80"), Direction::kToolchainAccepts),
            nullptr);
  EXPECT_EQ(registry->FindAnywhere("ldmatrix.sync.sync {a}, [p];", sm90, Direction::kToolchainRejects), nullptr);
}

// An entry stays in force for later releases of a tool it was measured on
// until a recorded fix; releases compare as numbers, never across tools.
TEST(DiscrepancyRegistryTest, AnEntryIsCarriedToLaterReleasesUntilAFix) {
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Parse(
      absl::StrReplaceAll(kEntry, {{R"("toolchains": ["ptxas 13.0"],)",
                                    R"("toolchains": ["ptxas 12.9.86", "ptxas 13.0", "nvJitLink 13.0", "ptxas 13.9.1"],
                                       "fixed_in": ["ptxas 13.4.92", "ptxas 13.10"],)"}}));
  ASSERT_TRUE(registry.ok()) << registry.status();
  const DiscrepancyEntry& entry = registry->entries().front();
  for (const auto& [toolchain, coverage] : std::vector<std::pair<std::string, Coverage>>{
           {"ptxas 12.8.93", Coverage::kNone},  // before every measurement
           {"ptxas 12.9.86", Coverage::kMeasured},
           {"ptxas 12.10.1", Coverage::kCarried},  // 10 after 9, as numbers
           {"ptxas 13.0.88", Coverage::kMeasured},
           {"ptxas 13.4.91", Coverage::kCarried},
           {"ptxas 13.4.92", Coverage::kNone},     // at the fix
           {"ptxas 13.6.1", Coverage::kNone},      // after it
           {"ptxas 13.9.1", Coverage::kMeasured},  // measured again since
           {"ptxas 13.9.2", Coverage::kCarried},
           {"ptxas 13.10.0", Coverage::kNone},
           {"nvJitLink 13.6", Coverage::kCarried},
           {"driver JIT CUDA 13.6; 590.1", Coverage::kNone},  // never across tools
       }) {
    EXPECT_EQ(DiscrepancyRegistry::CoverageOf(entry, toolchain), coverage) << toolchain;
  }
  EXPECT_EQ(DiscrepancyRegistry::Standing(entry, "ptxas 13.0.88"), "");
  EXPECT_EQ(DiscrepancyRegistry::Standing(entry, "ptxas 13.1.2"), "also seen on ptxas 13.1.2");
  const Target sm90 = *ParseTarget("sm_90");
  EXPECT_NE(registry->Find("ldmatrix.sync.sync {a}, [p];", sm90, Direction::kToolchainAccepts, "ptxas 13.1.2"),
            nullptr);
  EXPECT_EQ(registry->Find("ldmatrix.sync.sync {a}, [p];", sm90, Direction::kToolchainAccepts, "ptxas 13.6.1"),
            nullptr);
  EXPECT_EQ(registry->ById("dup-sync"), &entry);
  EXPECT_EQ(registry->ById("dup"), nullptr);
}

// A fix that names no release, or follows no release the entry was
// measured on, is bad input that names the entry.
TEST(DiscrepancyRegistryTest, RejectsAFixThatMeansNothing) {
  for (const auto& [fixes, message] : std::vector<std::pair<std::string, std::string>>{
           {R"(["ptxas"])", "dup-sync: fixed_in 'ptxas' names no tool and release"},
           {R"([13])", "dup-sync: fixed_in '13' names no tool and release"},
           {R"("ptxas 13.4")", "dup-sync: 'fixed_in' must be an array of toolchains"},
           {R"(["nvcc 13.4"])", "dup-sync: fixed_in 'nvcc 13.4' follows no release of its tool"},
           {R"(["ptxas 12.9"])", "dup-sync: fixed_in 'ptxas 12.9' follows no release of its tool"},
           {R"(["ptxas 13.0"])", "dup-sync: fixed_in 'ptxas 13.0' is also a release it was measured on"},
       }) {
    const std::string json =
        absl::StrReplaceAll(kEntry, {{R"("toolchains": ["ptxas 13.0"],)",
                                      absl::StrCat(R"("toolchains": ["ptxas 13.0"], "fixed_in": )", fixes, ",")}});
    EXPECT_THAT(std::string(DiscrepancyRegistry::Parse(json).status().message()), HasSubstr(message)) << fixes;
  }
}

// A misdiagnosis entry must name the target its example is assembled for.
TEST(DiscrepancyRegistryTest, MisdiagnosisEntriesNeedATarget) {
  constexpr absl::string_view kMisdiagnosis = R"json({"discrepancies": [{
    "id": "bad-matrix", "pattern": "wmma\\.load\\.d", "direction": "toolchain-misdiagnoses", %s
    "rule": "wmma.syntax", "toolchains": ["ptxas 13.0"], "toolchain_message": "Not a name of any known instruction",
    "judgement": "wrong reason", "example": "wmma.load.d ..."}]})json";
  absl::StatusOr<DiscrepancyRegistry> with_target =
      DiscrepancyRegistry::Parse(absl::StrReplaceAll(kMisdiagnosis, {{"%s", "\"targets\": [\"sm_90\"],"}}));
  ASSERT_TRUE(with_target.ok()) << with_target.status();
  EXPECT_EQ(with_target->entries().front().direction, Direction::kToolchainMisdiagnoses);
  absl::StatusOr<DiscrepancyRegistry> without = DiscrepancyRegistry::Parse(absl::StrReplaceAll(kMisdiagnosis, {{"%s", ""}}));
  ASSERT_FALSE(without.ok());
  EXPECT_THAT(without.status().message(), HasSubstr("names the targets"));
}

// FindMisdiagnosis matches by pattern and message, on every target and
// toolchain: an entry's targets are where its example is assembled.
TEST(DiscrepancyRegistryTest, FindsAMisdiagnosisByItsMessage) {
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Parse(R"json({"discrepancies": [{
    "id": "bad-matrix", "pattern": "wmma\\.load\\.d", "direction": "toolchain-misdiagnoses", "targets": ["sm_90"],
    "rule": "wmma.syntax", "toolchains": ["ptxas 13.0"], "toolchain_message": "Not a name of any known instruction",
    "judgement": "wrong reason", "example": "wmma.load.d ..."}]})json");
  ASSERT_TRUE(registry.ok()) << registry.status();
  const DiscrepancyEntry* entry =
      registry->FindMisdiagnosis("wmma.load.d.sync {x}, [p];", "Not a name of any known instruction: 'wmma'");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->id, "bad-matrix");
  EXPECT_EQ(registry->FindMisdiagnosis("wmma.load.d.sync {x}, [p];", "Unknown modifier '.d'"), nullptr);
  EXPECT_EQ(registry->FindMisdiagnosis("wmma.load.a.sync {x}, [p];", "Not a name of any known instruction: 'wmma'"),
            nullptr);
}

// The committed registry's run-time entry: named .shared wmma.load.a/.b with
// rows not 16-byte aligned faults on the H100 (driver JIT).
TEST(DiscrepancyRegistryTest, DeviceFaultEntriesMatchRunCases) {
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  ASSERT_TRUE(registry.ok()) << registry.status();
  const Target sm90 = *ParseTarget("sm_90");
  const std::string jit = "driver JIT CUDA 13.0; NVRM version 580.159.04";
  const DiscrepancyEntry* entry =
      registry->Find("wmma.load.a.sync.aligned.row.m16n16k16.shared.s8; p-mod16=0; row-pitch-bytes=24; row-pitch-mod16=8",
                     sm90, Direction::kDeviceFaults, jit);
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->id, "shared-wmma-load-ab-needs-16-byte-rows");
  // A row start that is fragment-aligned but not 16-byte aligned faults too.
  EXPECT_NE(registry->Find("wmma.load.a.sync.aligned.row.m16n16k16.shared.s8; p-mod16=8; row-pitch-bytes=16; row-pitch-mod16=0",
                           sm90, Direction::kDeviceFaults, jit),
            nullptr);
  EXPECT_NE(registry->Find("wmma.load.a.sync.aligned.row.m16n16k16.shared.s8; p-mod16=8; row-pitch-bytes=16; row-pitch-mod16=0",
                           sm90, Direction::kDeviceFaults, "ptxas 13.0.88"),
            nullptr);
  // Forms ptxas does not lower to LDSM run at the same addresses (measured).
  EXPECT_EQ(registry->Find("wmma.load.a.sync.aligned.col.m16n16k16.shared.s8; p-mod16=8; row-pitch-bytes=24; row-pitch-mod16=8",
                           sm90, Direction::kDeviceFaults, jit),
            nullptr);
  EXPECT_EQ(registry->Find("wmma.load.b.sync.aligned.row.m8n8k4.shared.f64; p-mod16=8; row-pitch-bytes=40; row-pitch-mod16=8",
                           sm90, Direction::kDeviceFaults, jit),
            nullptr);
  EXPECT_NE(registry->Find("wmma.load.b.sync.aligned.row.m32n8k16.shared::cta.bf16; p-mod16=8; row-pitch-bytes=32; row-pitch-mod16=0",
                           sm90, Direction::kDeviceFaults, jit),
            nullptr);
  EXPECT_EQ(registry->Find("wmma.load.a.sync.aligned.row.m16n16k16.shared.s8; p-mod16=0; row-pitch-bytes=32; row-pitch-mod16=0",
                           sm90, Direction::kDeviceFaults, jit),
            nullptr);
  EXPECT_EQ(registry->Find("wmma.load.a.sync.aligned.row.m16n16k16.s8; p-mod16=8; row-pitch-bytes=24; row-pitch-mod16=8", sm90,
                           Direction::kDeviceFaults, jit),
            nullptr);
  EXPECT_EQ(registry->Find("wmma.load.c.sync.aligned.row.m16n16k16.shared.f32; p-mod16=8; row-pitch-bytes=40; row-pitch-mod16=8",
                           sm90, Direction::kDeviceFaults, jit),
            nullptr);
}

TEST(DiscrepancyRegistryTest, RejectsCorruptRegistriesWithTheEntryNamed) {
  EXPECT_THAT(std::string(DiscrepancyRegistry::Parse("{not json").status().message()), HasSubstr("not valid JSON"));
  EXPECT_THAT(std::string(DiscrepancyRegistry::Parse(R"({"discrepancies": [{"id": "x"}]})").status().message()),
              HasSubstr("entry 0: missing field 'pattern'"));
  std::string no_toolchains(kEntry);
  no_toolchains.replace(no_toolchains.find(R"("toolchains": ["ptxas 13.0"],)"), 29, "");
  EXPECT_THAT(std::string(DiscrepancyRegistry::Parse(no_toolchains).status().message()),
              HasSubstr("dup-sync: 'toolchains' must list where it was measured"));
  EXPECT_THAT(
      std::string(
          DiscrepancyRegistry::Parse(absl::StrReplaceAll(kEntry, {{"ptxas 13.0", "ptxas"}})).status().message()),
      HasSubstr("dup-sync: toolchains 'ptxas' names no tool and release"));
  std::string bad_regex(kEntry);
  const std::string pattern = R"("\\.sync\\.sync\\b")";
  bad_regex.replace(bad_regex.find(pattern), pattern.size(), R"("(unclosed")");
  EXPECT_THAT(std::string(DiscrepancyRegistry::Parse(bad_regex).status().message()), HasSubstr("dup-sync: bad pattern"));
  std::string bad_target(kEntry);
  bad_target.replace(bad_target.find("sm_90"), 5, "sm_91");
  EXPECT_THAT(std::string(DiscrepancyRegistry::Parse(bad_target).status().message()), HasSubstr("unknown target"));
  EXPECT_EQ(DiscrepancyRegistry::Load("/nonexistent/registry.json").status().code(), absl::StatusCode::kNotFound);
}

TEST(DiscrepancyRegistryTest, TheCheckedInRegistryLoads) {
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  ASSERT_TRUE(registry.ok()) << registry.status();
  EXPECT_FALSE(registry->entries().empty());
}

}  // namespace
}  // namespace matload
