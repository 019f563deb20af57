#include "harness/triage/sass_listing.h"

#include <unistd.h>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/compile/ptxas.h"
#include "harness/compile/sass_lowering.h"
#include "harness/families/test_program.h"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

// A cuobjdump -sass excerpt, written by hand in its format: a guard, the
// two-line encodings of sm_90, and an instruction printed with no name.
constexpr char kDump[] = R"dump(
	code for sm_90
		Function : matload_ldmatrix
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                      /* 0x00000a00ff017b82 */
                                                                               /* 0x000fe20000000800 */
        /*0410*/              @!P0 LDSM.16.M88.4 R4, [R3] ;                    /* 0x000000000304783b */
                                                                               /* 0x000ea20000000200 */
        /*0420*/                   LDSM.16.M88.4 R8, [R3+0x200] ;              /* 0x000200000308783b */
                                                                               /* 0x000ea20000000200 */
        /*0430*/                   ??? ;                                       /* 0x00000000000079ff */
                                                                               /* 0x000fc00000000000 */
        /*0440*/                   EXIT ;                                      /* 0x000000000000794d */
                                                                               /* 0x000fea0003800000 */
)dump";

TEST(SassListingTest, ReadsEveryInstructionWithItsEncodingAndMarksTheLoads) {
  const SassListing listing = ParseSassListing(kDump);
  ASSERT_EQ(listing.lines.size(), 5u);
  EXPECT_EQ(listing.lines[1].offset, "0410");
  EXPECT_EQ(listing.lines[1].opcode, "LDSM.16.M88.4");
  EXPECT_EQ(listing.lines[1].encoding, "0x000000000304783b 0x000ea20000000200");
  EXPECT_TRUE(listing.lines[1].load);
  EXPECT_FALSE(listing.lines[0].load) << "LDC reads the parameters, not memory under test";
  EXPECT_EQ(listing.Loads(), "LDSM.16.M88.4 x2");
}

TEST(SassListingTest, AnInstructionWithNoNameIsKeptWithItsEncodingAndCounted) {
  const SassListing listing = ParseSassListing(kDump);
  EXPECT_EQ(listing.unnamed, 1);
  EXPECT_EQ(listing.lines[3].opcode, "");
  EXPECT_EQ(listing.lines[3].encoding, "0x00000000000079ff 0x000fc00000000000");
}

// The real tools: ptxas 13.0's cubin of an ldmatrix kernel, read with its
// cuobjdump, loads with LDSM.
TEST(SassListingTest, TheToolkitsCuobjdumpShowsLdmatrixAsLdsm) {
  const std::string cuobjdump = DefaultCuobjdumpPath();
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  if (!ptxas.ok() || access(cuobjdump.c_str(), X_OK) != 0) {
    GTEST_SKIP() << "needs the toolkit's ptxas and cuobjdump: " << ptxas.status() << ", " << cuobjdump;
  }
  absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::ForOpcode(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16", *ParseTarget("sm_90"), *ParsePtxVersion("8.0"), {});
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<std::string> cubin = ptxas->CompileToCubin((*program)->kernel(), *ParseTarget("sm_90"));
  ASSERT_TRUE(cubin.ok()) << cubin.status();
  absl::StatusOr<SassListing> listing = DisassembleCubin(cuobjdump, *cubin);
  ASSERT_TRUE(listing.ok()) << listing.status();
  EXPECT_THAT(listing->Loads(), HasSubstr("LDSM.16.M88.4"));
  EXPECT_EQ(listing->unnamed, 0);
  EXPECT_GT(listing->lines.size(), 10u);
}

}  // namespace
}  // namespace matload
