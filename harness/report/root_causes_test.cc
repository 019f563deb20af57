#include "harness/report/root_causes.h"

#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/outcome.h"

namespace matload {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// Words lays 32 lanes of `words_per_lane` words out as a bundle's .bin
// files do, slot (lane, word) holding value(lane, word).
std::string Words(int words_per_lane, const std::function<std::uint32_t(int, int)>& value) {
  std::string bytes;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int word = 0; word < words_per_lane; ++word) {
      for (int shift = 0; shift < 32; shift += 8) bytes.push_back(static_cast<char>(value(lane, word) >> shift));
    }
  }
  return bytes;
}

CaseRecord Case(std::string id, std::string bundle, std::string detail) {
  return {.id = std::move(id),
          .outcome = CaseOutcome::kMismatch,
          .finding = true,
          .detail = std::move(detail),
          .bundle = std::move(bundle)};
}

TEST(RootCausesTest, OneCausePerBundleMostCasesFirstWithWhatItsRegistersShow) {
  const fs::path run = fs::path(::testing::TempDir()) / "root_causes_run";
  fs::remove_all(run);
  const auto model = [](int lane, int word) { return static_cast<std::uint32_t>(0x100 * lane + word + 1); };
  Write(run / "bundles/001-ldmatrix-mismatch/case.json", R"({"signature": "ldmatrix/mismatch/moved-64-words-1"})");
  Write(run / "bundles/001-ldmatrix-mismatch/expected.bin", Words(2, model));
  Write(run / "bundles/001-ldmatrix-mismatch/actual.bin",
        Words(2, [&](int lane, int word) { return model(lane ^ 1, word); }));
  Write(run / "bundles/002-wmma-load-fault/case.json", R"({"signature": "wmma.load/fault/misaligned"})");
  const std::vector<CaseRecord> records = {
      Case("b.case", "bundles/001-ldmatrix-mismatch", "64 of 64 register words differ"),
      Case("w.case", "bundles/002-wmma-load-fault", "unexpected fault/misaligned address (716)"),
      Case("a.case", "bundles/001-ldmatrix-mismatch", "64 of 64 register words differ"),
      Case("no.bundle", "", "kept out")};
  std::vector<const CaseRecord*> cases;
  for (const CaseRecord& record : records) cases.push_back(&record);

  const std::vector<RootCause> causes = RootCauses(cases, run);
  ASSERT_EQ(causes.size(), 2u);
  EXPECT_EQ(causes[0].signature, "ldmatrix/mismatch/moved-64-words-1");
  EXPECT_EQ(causes[0].cases, 2u);
  EXPECT_EQ(causes[0].first->id, "a.case");
  EXPECT_EQ(causes[0].diagnosis, "64 of 64 words differ: every lane holds lane L XOR 1's words");
  EXPECT_THAT(causes[0].picture, StartsWith("<svg"));
  EXPECT_EQ(causes[1].signature, "wmma.load/fault/misaligned");
  EXPECT_EQ(causes[1].diagnosis, "unexpected fault/misaligned address (716)");
  EXPECT_TRUE(causes[1].picture.empty()) << "a fault's bundle holds no registers";
}

TEST(RootCausesTest, ABundleNotAtHandIsNamedByTheIndexBesideIt) {
  const fs::path run = fs::path(::testing::TempDir()) / "root_causes_index";
  fs::remove_all(run);
  Write(run / "bundles/index.tsv",
        "# signature\tcases\tbundle\tfirst case\nwmma.load/mismatch/moved-8\t3\t004-wmma\tx\n");
  const CaseRecord record = Case("x.case", "bundles/004-wmma", "8 of 8 register words differ");
  const std::vector<RootCause> causes = RootCauses({&record}, run);
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].signature, "wmma.load/mismatch/moved-8");
  EXPECT_EQ(causes[0].diagnosis, "8 of 8 register words differ");
}

TEST(RootCausesTest, ABundleNotAtHandKeepsItsNameAndDetail) {
  const CaseRecord record = Case("x.case", "bundles/003-gone", "32 of 32 register words differ");
  const std::vector<RootCause> causes = RootCauses({&record}, fs::path(::testing::TempDir()) / "no-such-run");
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].signature, "bundles/003-gone");
  EXPECT_EQ(causes[0].diagnosis, "32 of 32 register words differ");
  EXPECT_THAT(causes[0].picture, ::testing::IsEmpty());
}

}  // namespace
}  // namespace matload
