#include "fuzz/finding_store.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

std::string Read(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::filesystem::path FreshDirectory(const std::string& name) {
  const std::filesystem::path directory = std::filesystem::path(::testing::TempDir()) / name;
  std::filesystem::remove_all(directory);
  return directory;
}

TEST(FindingStoreTest, OneDirectoryPerSignatureAndEveryCaseCounted) {
  const std::filesystem::path directory = FreshDirectory("finding_store_test");
  const FindingStore store(directory.string());
  const Finding first{.signature = "legality/sm_90/compiler-accepts/ldmatrix/vector-length",
                      .summary = "ptxas accepts it",
                      .case_text = "target sm_90\n---\nret;\n",
                      .files = {{"module.ptx", ".version 9.0\n"}}};
  Finding again = first;
  again.case_text = "target sm_80\n---\nret;\n";
  Finding other = first;
  other.signature = "legality/sm_90/compiler-rejects/wmma.load/none";

  EXPECT_EQ(store.File(first).value(), true);
  EXPECT_EQ(store.File(again).value(), false);
  EXPECT_EQ(store.File(other).value(), true);

  std::vector<std::filesystem::path> bundles;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) bundles.push_back(entry.path());
  ASSERT_EQ(bundles.size(), 2u);
  const std::filesystem::path bundle =
      std::filesystem::exists(bundles[0] / "module.ptx") && Read(bundles[0] / "finding.md").find("ldmatrix") != std::string::npos
          ? bundles[0]
          : bundles[1];
  EXPECT_THAT(bundle.filename().string(), ::testing::StartsWith("legality-sm-90-compiler-accepts-ldmatrix-vector-length-"));
  EXPECT_EQ(Read(bundle / "case.txt"), first.case_text);
  EXPECT_EQ(Read(bundle / "module.ptx"), ".version 9.0\n");
  EXPECT_THAT(Read(bundle / "finding.md"), ::testing::HasSubstr("ptxas accepts it"));
  EXPECT_EQ(Read(bundle / "cases.txt"), "target sm_90|---|ret;|\ntarget sm_80|---|ret;|\n");
}

TEST(FindingStoreTest, AnUnwritableStoreIsDataLoss) {
  const FindingStore store("/proc/matload-cannot-write-here");
  absl::StatusOr<bool> filed = store.File({.signature = "s", .summary = "", .case_text = "", .files = {}});
  ASSERT_FALSE(filed.ok());
  EXPECT_EQ(filed.status().code(), absl::StatusCode::kDataLoss);
}

TEST(FindingStoreTest, WithoutAStoreAFindingIsACrash) {
  unsetenv("MATLOAD_FINDINGS_DIR");
  EXPECT_DEATH(ReportFinding({.signature = "reference/ldmatrix/trans", .summary = "s", .case_text = "c", .files = {}}),
               "matload finding: reference/ldmatrix/trans");
}

TEST(FindingStoreTest, WithAStoreAFindingIsFiled) {
  const std::filesystem::path directory = FreshDirectory("finding_store_env_test");
  setenv("MATLOAD_FINDINGS_DIR", directory.c_str(), 1);
  ReportFinding({.signature = "reference/ldmatrix/trans", .summary = "s", .case_text = "c", .files = {}});
  unsetenv("MATLOAD_FINDINGS_DIR");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(directory), std::filesystem::directory_iterator()), 1);
}

}  // namespace
}  // namespace matload
