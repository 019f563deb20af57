#include "harness/cli/model_command.h"

#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::HasSubstr;

ModelOptions At(absl::string_view target, absl::string_view data) {
  return ModelOptions{.target = *ParseTarget(target), .ptx = *ParsePtxVersion("9.0"), .data = std::string(data)};
}

// ModelJson runs WriteModel with --json and parses what it wrote.
nlohmann::json ModelJson(absl::string_view instruction, absl::string_view target, absl::string_view data) {
  ModelOptions options = At(target, data);
  options.json = true;
  std::ostringstream out;
  const absl::Status status = WriteModel(instruction, options, out);
  EXPECT_TRUE(status.ok()) << status;
  return status.ok() ? nlohmann::json::parse(out.str()) : nlohmann::json{};
}

// PTX Fig. 104 by hand, with iota16 and contiguous rows: lane 5 holds row 1,
// columns 2 and 3 of matrix 0, i.e. 16-bit words 10 and 11.
TEST(ModelCommandTest, LdmatrixJsonHasRegistersAndProvenance) {
  const nlohmann::json json = ModelJson("ldmatrix.sync.aligned.m8n8.x1.b16 {r}, [p];", "sm_90", "iota16");
  ASSERT_FALSE(json.empty());
  EXPECT_EQ(json["registers"][5][0], "000b000a");
  EXPECT_THAT(json["provenance"][5][0][0]["from"].get<std::string>(), HasSubstr("m0(1,2) byte 0"));
}

// The sm_90 A fragment (measured on the H100; facts.md 2.3 for f16): with
// iota16, element (r, c) of a 16x16 .row A at the default stride is 16r + c.
TEST(ModelCommandTest, WmmaTextShowsEveryLane) {
  std::ostringstream out;
  ASSERT_TRUE(WriteModel("wmma.load.a.sync.aligned.row.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p];",
                         At("sm_90", "iota16"), out)
                  .ok());
  EXPECT_THAT(out.str(), HasSubstr("lane 5: 00130012 00930092 001b001a"));
  EXPECT_THAT(out.str(), HasSubstr("[0-15] a(1,2), [16-31] a(1,3)"));
}

TEST(ModelCommandTest, F64RegistersPrintAtFullWidth) {
  const nlohmann::json json = ModelJson("wmma.load.c.sync.aligned.row.m8n8k4.f64 {d0, d1}, [p];", "sm_90", "iota32");
  ASSERT_FALSE(json.empty());
  EXPECT_EQ(json["registers"][0][0].get<std::string>().size(), 16u);
  EXPECT_EQ(json["registers"][0][0], "0000000100000000");  // element (0,0): the 32-bit words 0 and 1
}

TEST(ModelCommandTest, Tcgen05ReadsTensorMemory) {
  const nlohmann::json json = ModelJson("tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [taddr];", "sm_100a", "iota32");
  ASSERT_FALSE(json.empty());
  // Lane t reads TMEM lane t, column 0: the 32-bit word 512 t.
  EXPECT_EQ(json["registers"][3][0], "00000600");
  EXPECT_THAT(json["provenance"][3][0][0]["from"].get<std::string>(), HasSubstr("tmem(lane 3, column 0)"));
}

// The operands written in the instruction are the ones modelled. By hand
// from the wmma.load text ("stride ... in number of elements" between the
// starts of consecutive rows of a .row matrix), with iota16, where the
// 16-bit element at byte 2k holds k: at stride 64, A(r, c) holds 64r + c;
// lane 5's r0, r1 and r2 hold A(1, 2..3), A(9, 2..3) and A(1, 10..11).
TEST(ModelCommandTest, AnImmediateStrideIsTheStride) {
  std::ostringstream out;
  ASSERT_TRUE(WriteModel("wmma.load.a.sync.aligned.row.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p], 64;",
                         At("sm_90", "iota16"), out)
                  .ok());
  EXPECT_THAT(out.str(), HasSubstr("lane 5: 00430042 02430242 004b004a"));
}

// [p+32] starts the matrix 16 elements further: A(r, c) holds 16 + 16r + c.
TEST(ModelCommandTest, AnAddressOffsetAddsToTheBase) {
  std::ostringstream out;
  ASSERT_TRUE(WriteModel("wmma.load.a.sync.aligned.row.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p+32];",
                         At("sm_90", "iota16"), out)
                  .ok());
  EXPECT_THAT(out.str(), HasSubstr("lane 5: 00230022 00a300a2"));
}

// [taddr+4] is column 4 of warp 0's lanes: lane t reads TMEM (t, 4), the
// 32-bit word 512 t + 4 of iota32.
TEST(ModelCommandTest, ATensorMemoryOffsetMovesTheColumn) {
  const nlohmann::json json =
      ModelJson("tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [taddr+4];", "sm_100a", "iota32");
  ASSERT_FALSE(json.empty());
  EXPECT_EQ(json["registers"][3][0], "00000604");
}

// [p+16] moves every lane's row address 16 bytes on: with contiguous rows,
// lane 5 reads row 2's 16-bit words 18 and 19, which row 1 held before.
TEST(ModelCommandTest, AnLdmatrixOffsetMovesEveryRow) {
  const nlohmann::json json = ModelJson("ldmatrix.sync.aligned.m8n8.x1.b16 {r}, [p+16];", "sm_90", "iota16");
  ASSERT_FALSE(json.empty());
  EXPECT_EQ(json["registers"][5][0], "00130012");
}

TEST(ModelCommandTest, AFlagTheTextContradictsIsAUsageError) {
  ModelOptions options = At("sm_90", "iota8");
  options.stride = 32;
  std::ostringstream out;
  const std::string fragment = "wmma.load.a.sync.aligned.row.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}";
  const absl::Status contradicted = WriteModel(fragment + ", [p], 64;", options, out);
  EXPECT_EQ(contradicted.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(contradicted.message(), HasSubstr("--stride 32 contradicts the stride operand 64"));
  const absl::Status no_operand = WriteModel(fragment + ", [p];", options, out);
  EXPECT_EQ(no_operand.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(no_operand.message(), HasSubstr("no stride operand"));
  EXPECT_TRUE(WriteModel(fragment + ", [p], s;", options, out).ok());  // --stride is the register's value
}

TEST(ModelCommandTest, UndefinedOutcomesSayWhy) {
  ModelOptions options = At("sm_90", "iota8");
  options.stride = 8;
  std::ostringstream out;
  ASSERT_TRUE(WriteModel("wmma.load.a.sync.aligned.row.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p], s;", options, out)
                  .ok());
  EXPECT_EQ(out.str(), "undefined: stride 8 is below the default 16\n");
}

TEST(ModelCommandTest, BadInputIsAClearError) {
  std::ostringstream out;
  EXPECT_THAT(WriteModel("ldmatrix.sync.aligned.m8n8.x1.b16 {r}, [p];", At("sm_90", "iota7"), out).message(),
              HasSubstr("--data must be iota8, iota16, iota32 or random:SEED, got 'iota7'"));
  EXPECT_THAT(WriteModel("ldmatrix.sync.aligned.m8n8.x3.b16 {r}, [p];", At("sm_90", "iota8"), out).message(),
              HasSubstr("illegal on sm_90"));
  EXPECT_THAT(WriteModel("wmma.load.a.sync.aligned.row.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p];",
                         At("sm_100a", "iota8"), out)
                  .message(),
              HasSubstr("no source or measurement gives the sm_100a fragment layout"));
  ModelOptions few = At("sm_90", "iota8");
  few.row_addresses = {0, 16};
  EXPECT_THAT(WriteModel("ldmatrix.sync.aligned.m8n8.x1.b16 {r}, [p];", few, out).message(),
              HasSubstr("--row-addresses needs 32 addresses"));
}

}  // namespace
}  // namespace matload
