#include "harness/cli/model_command.h"

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "reference/inferred_rules.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

ModelOptions At(absl::string_view target, absl::string_view data) {
  return ModelOptions{.target = *ParseTarget(target), .ptx = NewestPtxVersion(), .data = std::string(data)};
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

// The sm_90 A fragment (measured on the H100; docs/spec-decisions.md wmma.layout.* for f16): with
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

// Decompressed ldmatrix provenance names the element of the packed source
// row, not a byte of it. By hand from PTX 9.0 9.7.14.5.15: an .m8n16 matrix
// is 8 rows of 16 elements ("16 unsigned 4-bit elements" or "16 unsigned
// 6-bit elements" per row), lanes 0-7 give the rows' addresses, and "each
// thread ... loads 4 consecutive columns", lane t holding row t/4, columns
// 4(t%4)..+3. So lane 1's byte 2 is row 0, column 6: element 6 of lane 0's
// row, 4 bits wide at bits 24-27; lane 7's byte 3 is row 1, column 15:
// element 15 of lane 1's row, 6 bits wide at bits 90-95.
TEST(ModelCommandTest, DecompressedProvenanceNamesTheRowElement) {
  const nlohmann::json b4 =
      ModelJson("ldmatrix.sync.aligned.m8n16.x1.b8x16.b4x16_p64 {r}, [p];", "sm_100a", "iota8");
  ASSERT_FALSE(b4.empty());
  EXPECT_EQ(b4["provenance"][1][0][2]["from"], "m0(0,6) from lane 0's row element 6 (4-bit, row bits 24-27)");
  const nlohmann::json b6 =
      ModelJson("ldmatrix.sync.aligned.m8n16.x1.b8x16.b6x16_p32 {r}, [p];", "sm_100a", "iota8");
  ASSERT_FALSE(b6.empty());
  EXPECT_EQ(b6["provenance"][7][0][3]["from"], "m0(1,15) from lane 1's row element 15 (6-bit, row bits 90-95)");
}

// InferredCase is a form whose modelled execution rests on inferred rules
// (chosen by hand from what the PTX text leaves open; see
// docs/spec-decisions.md), with the target that has the form.
struct InferredCase {
  const char* instruction;
  const char* target;
  std::vector<std::string> every_register;  // rules on every loaded bit
  std::vector<std::string> redval;          // rules on tcgen05.ld.red's redval
  std::vector<std::string> definedness;     // rules on whether the run is defined
};

const std::vector<InferredCase>& InferredCases() {
  static const auto* cases = new std::vector<InferredCase>{
      {"ldmatrix.sync.aligned.m16n16.x1.trans.b8x16.b4x16_p64 {a, b}, [p];",
       "sm_100a",
       {"ldmatrix.infer.m16n16-address-lanes", "ldmatrix.infer.m16n16-row-pairing", "ldmatrix.infer.decompress-padding",
        "ldmatrix.infer.decompress-zero-extension"},
       {},
       {"ldmatrix.infer.row-alignment-m8n16-m16n16"}},
      {"ldmatrix.sync.aligned.m8n16.x1.shared.s8.s4 {a}, [p];", "sm_90a", {}, {}, {"ldmatrix.infer.s4-row-alignment"}},
      {"tcgen05.ld.spcompress.sync.aligned.32x32b.x8.max.sp::2:4.f32.b2 {m}, {c0, c1, c2, c3}, [t];",
       "sm_107a",
       {"tcgen05.ld.infer.spcompress-packing", "tcgen05.ld.infer.spcompress-subnormals"},
       {},
       {}},
      {"tcgen05.ld.sync.aligned.32x32b.x1.pack::16b.b32 {r}, [t];",
       "sm_100a",
       {"tcgen05.ld.infer.pack-16b-halves"},
       {},
       {}},
      {"tcgen05.ld.red.sync.aligned.32x32b.x2.max.abs.NaN.f32 {r0, r1}, rv, [t];",
       "sm_103a",
       {},
       {"tcgen05.ld.infer.red-nan", "tcgen05.ld.infer.red-abs"},
       {}},
  };
  return *cases;
}

// Every bit of every lane carries exactly the inferred rules it rests on,
// the head lists them with source "inferred", and every rule in
// InferredRules() is exercised by one of the cases.
TEST(ModelCommandTest, EveryInferredRuleIsLabelledInJson) {
  std::set<std::string> seen;
  for (const InferredCase& c : InferredCases()) {
    SCOPED_TRACE(c.instruction);
    const nlohmann::json json = ModelJson(c.instruction, c.target, "iota32");
    ASSERT_FALSE(json.empty());
    for (const nlohmann::json& lane : json["provenance"]) {
      for (size_t reg = 0; reg < lane.size(); ++reg) {
        const bool redval = !c.redval.empty() && reg + 1 == lane.size();
        for (const nlohmann::json& piece : lane[reg]) {
          EXPECT_EQ(piece["inferred"].get<std::vector<std::string>>(), redval ? c.redval : c.every_register);
        }
      }
    }
    std::vector<std::string> listed;
    for (const nlohmann::json& entry : json["inferences"]) {
      EXPECT_EQ(entry["source"], "inferred");
      listed.push_back(entry["rule"]);
      seen.insert(entry["rule"].get<std::string>());
    }
    std::vector<std::string> expected = c.every_register;
    expected.insert(expected.end(), c.redval.begin(), c.redval.end());
    expected.insert(expected.end(), c.definedness.begin(), c.definedness.end());
    EXPECT_EQ(listed, expected);
  }
  for (const SpecRef& rule : InferredRules()) {
    EXPECT_EQ(rule.source, RuleSource::kInferred) << rule.id;
    EXPECT_TRUE(seen.contains(std::string(rule.id))) << rule.id << " is labelled on no modelled form";
  }
}

// Where the text fixes every bit (an 8x8 .b16 load, PTX Fig. 104), nothing
// is labelled inferred.
TEST(ModelCommandTest, StatedLayoutsCarryNoInferenceLabel) {
  const nlohmann::json json = ModelJson("ldmatrix.sync.aligned.m8n8.x4.b16 {a, b, c, d}, [p];", "sm_90", "iota8");
  ASSERT_FALSE(json.empty());
  EXPECT_TRUE(json["inferences"].empty());
  EXPECT_TRUE(json["provenance"][9][3][0]["inferred"].empty());
}

}  // namespace
}  // namespace matload
