#include "harness/compile/toolchain_identity.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/source_tree.h"
#include "harness/runs/sha256.h"

namespace matload {
namespace {

using ::testing::MatchesRegex;

// CopyOf copies the program `from` to this test's directory as `name`,
// executable, and returns its path.
std::string CopyOf(const std::string& from, const std::string& name) {
  const std::filesystem::path to = std::filesystem::path(testing::TempDir()) / name;
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::permissions(to, std::filesystem::perms::owner_all);
  return to.string();
}

TEST(ToolchainIdentityTest, NamesTheToolchainAndItsBinarysDigest) {
  const std::string ptxas = "/usr/local/cuda/bin/ptxas";
  absl::StatusOr<std::string> identity = ToolchainIdentity("ptxas 13.0.88", {ptxas});
  ASSERT_TRUE(identity.ok()) << identity.status();
  EXPECT_EQ(*identity, absl::StrCat("ptxas 13.0.88@", Sha256OfFile(ptxas)->substr(0, 16)));
  absl::StatusOr<std::string> two = ToolchainIdentity("ptxas 13.0.88 + cuobjdump", {ptxas, "/bin/true"});
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_THAT(*two, MatchesRegex(R"(ptxas 13\.0\.88 \+ cuobjdump@[0-9a-f]{16}\+[0-9a-f]{16})"));
}

// One byte changed in the binary is another toolchain, whatever its version says.
TEST(ToolchainIdentityTest, AnotherBuildIsAnotherIdentity) {
  const std::string program = CopyOf("/bin/true", "toolchain_identity_true");
  const std::string identity = *ToolchainIdentity("true 1.0", {program});
  std::fstream(program, std::ios::binary | std::ios::in | std::ios::out | std::ios::ate) << 'x';
  EXPECT_NE(*ToolchainIdentity("true 1.0", {program}), identity);
}

TEST(ToolchainIdentityTest, ABareNameIsSearchedInPath) {
  const std::string directory = std::filesystem::path(CopyOf("/bin/true", "ptxas")).parent_path().string();
  const char* path = std::getenv("PATH");
  const std::string saved = path != nullptr ? path : "";
  setenv("PATH", absl::StrCat("/nonexistent:", directory, ":", saved).c_str(), 1);
  absl::StatusOr<std::string> digest = ProgramDigest("ptxas");
  setenv("PATH", saved.c_str(), 1);
  ASSERT_TRUE(digest.ok()) << digest.status();
  EXPECT_EQ(*digest, *Sha256OfFile("/bin/true"));
}

// A script is not the program that answers: it has no identity.
TEST(ToolchainIdentityTest, AScriptOrAMissingFileHasNone) {
  EXPECT_EQ(ProgramDigest(SourceTreePath("harness/testing/fake_ptxas.sh")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(ProgramDigest("/nonexistent/ptxas").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(ToolchainIdentity("ptxas 13.0.88", {"/nonexistent/ptxas"}).status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace matload
