#include "harness/runs/registry_in_force.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/source_tree.h"
#include "harness/runs/sha256.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

// ReadText is the file at `path`.
std::string ReadText(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

// The binary carries the checked-in registry byte for byte (the build
// writes it again whenever the file changes), and is in force by default.
TEST(RegistryInForceTest, TheBuiltInRegistryIsTheCheckedInOne) {
  const std::string checked_in = ReadText(SourceTreePath("corpora/known_discrepancies.json"));
  ASSERT_FALSE(checked_in.empty());
  EXPECT_EQ(EmbeddedRegistryText(), checked_in);
  EXPECT_EQ(RegistryInForce().text, checked_in);
  EXPECT_EQ(RegistryInForce().digest, Sha256Hex(checked_in));
  EXPECT_EQ(RegistryInForce().origin, "the built-in registry");
}

// --registry FILE puts FILE in force, named in messages by the flag; a
// file that cannot be read is kNotFound (exit 2) and changes nothing.
TEST(RegistryInForceTest, AFileTakesTheBuiltInOnesPlace) {
  const std::string before = RegistryInForce().digest;
  const absl::Status missing = UseRegistryFile(testing::TempDir() + "/no-such-registry.json");
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.message(), HasSubstr("--registry "));
  EXPECT_EQ(RegistryInForce().digest, before);

  const std::string path = testing::TempDir() + "/registry.json";
  std::ofstream(path) << R"({"discrepancies": []})";
  ASSERT_TRUE(UseRegistryFile(path).ok());
  EXPECT_EQ(RegistryInForce().text, R"({"discrepancies": []})");
  EXPECT_EQ(RegistryInForce().digest, Sha256Hex(R"({"discrepancies": []})"));
  EXPECT_EQ(RegistryInForce().origin, "--registry " + path);
}

}  // namespace
}  // namespace matload
