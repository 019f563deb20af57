#include "harness/compile/sass_lowering.h"

#include <unistd.h>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/parser.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

TEST(SassLoweringTest, ParsesCuobjdumpOutput) {
  constexpr absl::string_view kDump = R"dump(
	code for sm_90
		Function : matload_form_1
	.headerflags	@"EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   LDSM.16.MT88.4 R4, [R2] ;
        /*0020*/              @!P0 BRA 0x70 ;
        /*0030*/                   EXIT ;
		Function : matload_form_0
        /*0000*/                   LDG.E.128 R4, desc[UR4][R2.64] ;
        /*0010*/                   LDSM.U4x16P64TO8.M816.4 R4, [UR4] ;
)dump";
  EXPECT_THAT(SassFunctions(kDump),
              ElementsAre(Pair("matload_form_1", ElementsAre("LDC", "LDSM.16.MT88.4", "BRA", "EXIT")),
                          Pair("matload_form_0", ElementsAre("LDG.E.128", "LDSM.U4x16P64TO8.M816.4"))));
  EXPECT_TRUE(IsLoadOpcode("LDSM.16.M88.4"));
  EXPECT_TRUE(IsLoadOpcode("LDTM.x4"));
  EXPECT_FALSE(IsLoadOpcode("LDC"));
  EXPECT_FALSE(IsLoadOpcode("STG.E"));
}

// cuobjdump's output is read in one pass per line: a megabyte-long line of
// any shape is no instruction and costs no stack (std::regex overflowed it).
TEST(SassLoweringTest, ReadsAOneMegabyteLine) {
  const std::string spaces(1 << 20, ' ');
  const std::string hex(1 << 20, 'a');
  const std::string dump = "\t\tFunction : matload_form_0\n" + spaces + "\n/*" + hex + "*/  LDS.U.128 R4, [R2] ;\n" +
                           "        /*0010*/ " + spaces + "@P0 " + std::string(1 << 20, 'X') + " ;\n";
  EXPECT_THAT(SassFunctions(dump),
              ElementsAre(Pair("matload_form_0", ElementsAre("LDS.U.128", std::string(1 << 20, 'X')))));
}

// What the hardware paths are, on Hopper and Blackwell: ldmatrix is LDSM,
// tcgen05.ld is LDTM, wmma.load is ordinary loads.
TEST(SassLoweringTest, LowersFormsToTheirHardwarePath) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const std::string cuobjdump = DefaultCuobjdumpPath();
  ASSERT_EQ(access(cuobjdump.c_str(), X_OK), 0) << cuobjdump << " is missing: run scripts/install-deps.sh";
  auto instruction = [](absl::string_view text) { return ParseSnippet(text)->instruction; };
  absl::StatusOr<std::vector<std::string>> hopper = LowerToSass(
      *ptxas, cuobjdump,
      {instruction("ldmatrix.sync.aligned.m8n8.x4.b16 {%r0, %r1, %r2, %r3}, [%addr];"),
       instruction("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r0, %r1, %r2, %r3}, [%addr32];"),
       instruction("wmma.load.c.sync.aligned.row.m8n8k4.f64 {%rd0, %rd1}, [%addr];")},
      {9, 0}, *ParseTarget("sm_90"));
  ASSERT_TRUE(hopper.ok()) << hopper.status();
  EXPECT_THAT(*hopper, ElementsAre("LDSM.16.M88.4", "LDSM.16.MT88.4", "LD.E.128"));
  absl::StatusOr<std::vector<std::string>> blackwell =
      LowerToSass(*ptxas, cuobjdump, {instruction("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r0, %r1}, [%taddr];")},
                  {9, 0}, *ParseTarget("sm_100a"));
  ASSERT_TRUE(blackwell.ok()) << blackwell.status();
  EXPECT_THAT((*blackwell)[0], ::testing::StartsWith("LDTM"));
}

}  // namespace
}  // namespace matload
