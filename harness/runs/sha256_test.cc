#include "harness/runs/sha256.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace matload {
namespace {

// The FIPS 180-4 example digests (NIST's "SHA256.pdf" examples).
TEST(Sha256Test, MatchesTheStandardsExamples) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

// A file spanning several read blocks hashes as its text does.
TEST(Sha256Test, FileDigestIsItsTextsDigest) {
  const std::filesystem::path path = std::filesystem::path(testing::TempDir()) / "sha256_test.bin";
  std::string text;
  for (int i = 0; i < 200'000; ++i) text.push_back(static_cast<char>(i * 7));
  std::ofstream(path, std::ios::binary) << text;
  absl::StatusOr<std::string> digest = Sha256OfFile(path.string());
  ASSERT_TRUE(digest.ok()) << digest.status();
  EXPECT_EQ(*digest, Sha256Hex(text));
}

TEST(Sha256Test, AMissingFileIsNotFound) {
  EXPECT_EQ(Sha256OfFile("/nonexistent/ptxas").status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace matload
