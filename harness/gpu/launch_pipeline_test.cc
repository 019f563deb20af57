#include "harness/gpu/launch_pipeline.h"

#include <functional>
#include <set>
#include <utility>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/judge/case_judge.h"
#include "harness/kernels/device_judge.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

// LaunchOutput is what a pipeline launch returns: its slot's output.
using LaunchOutput = absl::StatusOr<absl::Span<const std::uint8_t>>;

std::unique_ptr<TestProgram> Ldmatrix() {
  return *TestProgram::ForOpcode("ldmatrix.sync.aligned.m8n8.x4.shared.b16", Target{90}, {9, 0}, {});
}

// HostLaunch stands in for the GPU where there is none: each block's output
// is the model's prediction, as on a conforming GPU, after it checks that
// every record is its variant's. It keeps an output buffer per slot, as a
// GPU launch does, and counts its calls.
struct HostLaunch {
  explicit HostLaunch(const TestProgram& launched) : program(launched) {}

  const TestProgram& program;
  int calls = 0;
  std::vector<std::uint8_t> outputs[2];

  LaunchOutput operator()(int slot, absl::Span<const Variant> variants,
                                                            absl::Span<const std::uint8_t> records) {
    ++calls;
    const size_t record_bytes = program.frame().record_bytes;
    std::vector<std::uint8_t>& output = outputs[slot];
    output.clear();
    for (size_t i = 0; i < variants.size(); ++i) {
      const std::vector<std::uint8_t> record = program.Record(variants[i]);
      if (!std::equal(record.begin(), record.end(), records.begin() + static_cast<long>(i * record_bytes))) {
        return absl::InternalError(absl::StrCat("record ", i, " is not its variant's"));
      }
      const std::vector<std::uint8_t> bytes = ExpectedBytes(std::get<LaneValues>(program.Expect(variants[i])));
      output.insert(output.end(), bytes.begin(), bytes.end());
    }
    return output;
  }
};

// Forward adapts a HostLaunch, kept by reference, as the pipeline's launch.
PipelineLaunch Forward(HostLaunch& host) {
  return [&host](int slot, absl::Span<const Variant> variants, absl::Span<const std::uint8_t> records) {
    return host(slot, variants, records);
  };
}

TEST(LaunchPipelineTest, JudgesEveryBlockOfEveryTimedLaunch) {
  const std::unique_ptr<TestProgram> program = Ldmatrix();
  HostLaunch host{*program};
  const absl::StatusOr<PipelineStats> stats =
      RunPipeline(*program, {.blocks = 50, .threads = 3, .duration = absl::Milliseconds(30)}, Forward(host));
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_GE(stats->launches, 1u);
  EXPECT_EQ(host.calls, static_cast<int>(stats->launches) + 1);  // and the untimed first launch
  EXPECT_EQ(stats->checked, stats->launches * 50);
  EXPECT_EQ(stats->mismatched, 0u);
}

// Timed launch n runs batch n - 1 (the first timed launch repeats the
// untimed batch 0), and block i of batch k is variant i of seed + k,
// whichever thread made it: every block replays from the seed.
TEST(LaunchPipelineTest, BatchesReplayFromTheirSeeds) {
  const std::unique_ptr<TestProgram> program = Ldmatrix();
  constexpr int kBlocks = 1100;  // more than two chunks
  constexpr std::uint64_t kSeed = 40;
  int call = 0;
  // A variant is its index and its window's stream, which its seed decides.
  std::set<std::pair<int, std::uint64_t>> variants_run;
  std::vector<std::uint8_t> output(kBlocks * program->frame().output_bytes);
  const absl::StatusOr<PipelineStats> stats = RunPipeline(
      *program, {.blocks = kBlocks, .threads = 3, .duration = absl::Milliseconds(20), .seed = kSeed},
      [&](int, absl::Span<const Variant> variants,
          absl::Span<const std::uint8_t>) -> LaunchOutput {
        const std::uint64_t batch = call <= 1 ? 0 : call - 1;
        for (int i = 0; i < kBlocks; ++i) {
          const Variant expected = program->MakeVariant(kSeed + batch, i, false);
          EXPECT_EQ(variants[i].stream, expected.stream) << "call " << call << " block " << i;
          EXPECT_EQ(variants[i].operands.lane_addresses, expected.operands.lane_addresses);
          if (call > 0) variants_run.insert({variants[i].index, variants[i].stream});
        }
        ++call;
        return output;
      });
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(variants_run.size(), stats->launches * kBlocks);  // no variant runs twice
}

// A block that differs from the model is counted, once per launch.
TEST(LaunchPipelineTest, CountsACorruptBlockInEveryLaunch) {
  const std::unique_ptr<TestProgram> program = Ldmatrix();
  HostLaunch host{*program};
  const absl::StatusOr<PipelineStats> stats = RunPipeline(
      *program, {.blocks = 16, .threads = 2, .duration = absl::Milliseconds(20)},
      [&](int slot, absl::Span<const Variant> variants,
          absl::Span<const std::uint8_t> records) -> LaunchOutput {
        if (LaunchOutput output = host(slot, variants, records); !output.ok()) {
          return output;
        }
        host.outputs[slot][7 * program->frame().output_bytes + 5] ^= 0x10;
        return host.outputs[slot];
      });
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_GE(stats->launches, 1u);
  EXPECT_EQ(stats->mismatched, stats->launches);
}

TEST(LaunchPipelineTest, AFailedLaunchEndsTheRunWithItsStatus) {
  const std::unique_ptr<TestProgram> program = Ldmatrix();
  HostLaunch host{*program};
  const absl::StatusOr<PipelineStats> stats = RunPipeline(
      *program, {.blocks = 8, .threads = 2, .duration = absl::Seconds(60)},
      [&](int slot, absl::Span<const Variant> variants,
          absl::Span<const std::uint8_t> records) -> LaunchOutput {
        if (host.calls == 3) return absl::AbortedError("cuCtxSynchronize: an illegal memory access was encountered");
        return host(slot, variants, records);
      });
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kAborted);
  EXPECT_THAT(stats.status().message(), HasSubstr("illegal memory access"));
  EXPECT_EQ(host.calls, 3);
}

// A launch whose output is not one block per variant is a harness error,
// never judged.
TEST(LaunchPipelineTest, AnOutputOfTheWrongSizeIsAnInternalError) {
  const std::unique_ptr<TestProgram> program = Ldmatrix();
  std::vector<std::uint8_t> short_output(3 * program->frame().output_bytes);
  const absl::StatusOr<PipelineStats> stats = RunPipeline(
      *program, {.blocks = 4, .threads = 1},
      [&](int, absl::Span<const Variant>, absl::Span<const std::uint8_t>) -> LaunchOutput {
        return short_output;
      });
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kInternal);
  EXPECT_THAT(stats.status().message(), HasSubstr("1536 bytes of output for 4 blocks of 512"));
}

TEST(LaunchPipelineTest, RejectsARunWithNoBlocksOrNoThreads) {
  const std::unique_ptr<TestProgram> program = Ldmatrix();
  const auto never = [](int, absl::Span<const Variant>,
                        absl::Span<const std::uint8_t>) -> LaunchOutput {
    return absl::InternalError("never launched");
  };
  const absl::StatusOr<PipelineStats> no_blocks = RunPipeline(*program, {.blocks = 0, .threads = 4}, never);
  EXPECT_EQ(no_blocks.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(no_blocks.status().message(), HasSubstr("0 blocks and 4 threads"));
  EXPECT_EQ(RunPipeline(*program, {.blocks = 8, .threads = 0}, never).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// DeviceJudgedLaunch stands in for a GPU running a kernel judged on the
// device (harness/kernels/device_judge.h): every block's output is the
// model's prediction, then every block's verdict word, "agree", except
// that `block_fault(block)` may corrupt a block's registers and set its
// verdict, as a faulty GPU or a faulty device judge would.
struct DeviceJudgedLaunch {
  // BlockFault is what one block does wrong: whether its registers are
  // corrupted, and the verdict it writes.
  struct BlockFault {
    bool corrupt = false;
    std::uint32_t verdict = static_cast<std::uint32_t>(DeviceVerdict::kAgree);
  };
  DeviceJudgedLaunch(const TestProgram& launched, std::function<BlockFault(size_t block)> fault)
      : program(launched), block_fault(std::move(fault)) {}

  const TestProgram& program;
  std::function<BlockFault(size_t block)> block_fault;
  std::vector<std::uint8_t> outputs[2];

  LaunchOutput operator()(int slot, absl::Span<const Variant> variants, absl::Span<const std::uint8_t>) {
    std::vector<std::uint8_t>& output = outputs[slot];
    output.clear();
    std::vector<std::uint32_t> verdicts;
    for (size_t i = 0; i < variants.size(); ++i) {
      std::vector<std::uint8_t> bytes = ExpectedBytes(std::get<LaneValues>(program.Expect(variants[i])));
      const BlockFault fault = block_fault(i);
      if (fault.corrupt) bytes[5] ^= 0x10;
      output.insert(output.end(), bytes.begin(), bytes.end());
      verdicts.push_back(fault.verdict);
    }
    const auto* words = reinterpret_cast<const std::uint8_t*>(verdicts.data());
    output.insert(output.end(), words, words + 4 * verdicts.size());
    return output;
  }
};

std::unique_ptr<TestProgram> DeviceJudgedLdmatrix() {
  return *TestProgram::ForOpcode("ldmatrix.sync.aligned.m8n8.x4.shared.b16", Target{90}, {9, 0},
                                 {.judge_on_device = true});
}

// RunJudged runs 50 blocks a launch through `launch`.
absl::StatusOr<PipelineStats> RunJudged(const TestProgram& program, DeviceJudgedLaunch& launch) {
  return RunPipeline(program, {.blocks = 50, .threads = 2, .duration = absl::Milliseconds(20)},
                     [&launch](int slot, absl::Span<const Variant> variants, absl::Span<const std::uint8_t> records) {
                       return launch(slot, variants, records);
                     });
}

// The host judges only the sampled block of each launch (block 0 of 50)
// when the device says every block agrees, and agrees with it.
TEST(LaunchPipelineTest, BlocksTheDeviceJudgedAloneNeedNoHost) {
  const std::unique_ptr<TestProgram> program = DeviceJudgedLdmatrix();
  ASSERT_TRUE(program->frame().judged_on_device);
  DeviceJudgedLaunch launch{*program, [](size_t) { return DeviceJudgedLaunch::BlockFault{}; }};
  const absl::StatusOr<PipelineStats> stats = RunJudged(*program, launch);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->checked, stats->launches * 50);
  EXPECT_EQ(stats->judged_on_device, stats->launches * 49);
  EXPECT_EQ(stats->mismatched, 0u);
}

// Each verdict word names the SM that ran its block, and the blocks are
// counted by SM: every block with a verdict, and the ones called wrong.
TEST(LaunchPipelineTest, VerdictsAreCountedBySm) {
  const std::unique_ptr<TestProgram> program = DeviceJudgedLdmatrix();
  DeviceJudgedLaunch launch{*program, [](size_t block) {
                              const auto said = block == 9 ? DeviceVerdict::kDisagree : DeviceVerdict::kAgree;
                              return DeviceJudgedLaunch::BlockFault{
                                  block == 9,
                                  static_cast<std::uint32_t>(block % 3) << 8 | static_cast<std::uint32_t>(said)};
                            }};
  const absl::StatusOr<PipelineStats> stats = RunJudged(*program, launch);
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_EQ(stats->per_sm.size(), 3u);
  EXPECT_EQ(stats->per_sm[0], (SmCounts{.blocks = stats->launches * 17, .disagreed = stats->launches}));
  EXPECT_EQ(stats->per_sm[1].blocks, stats->launches * 17);
  EXPECT_EQ(stats->per_sm[2], (SmCounts{.blocks = stats->launches * 16}));
  EXPECT_EQ(stats->mismatched, stats->launches);
}

// A block the device says disagrees is judged on the host, which finds it
// wrong too: a mismatch, and the judges agree.
TEST(LaunchPipelineTest, ABlockTheDeviceFailsIsJudgedOnTheHost) {
  const std::unique_ptr<TestProgram> program = DeviceJudgedLdmatrix();
  DeviceJudgedLaunch launch{
      *program, [](size_t block) {
        return DeviceJudgedLaunch::BlockFault{
            block == 7, static_cast<std::uint32_t>(block == 7 ? DeviceVerdict::kDisagree : DeviceVerdict::kAgree)};
      }};
  const absl::StatusOr<PipelineStats> stats = RunJudged(*program, launch);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->mismatched, stats->launches);
  EXPECT_EQ(stats->judged_on_device, stats->launches * 48);
}

// A sampled block the device calls right and the host finds wrong, or a
// block the device calls wrong and the host right, means the device's
// comparison is wrong: the run stands by none of its verdicts.
TEST(LaunchPipelineTest, ADeviceVerdictTheHostContradictsEndsTheRun) {
  const std::unique_ptr<TestProgram> program = DeviceJudgedLdmatrix();
  DeviceJudgedLaunch lies_agree{*program, [](size_t block) { return DeviceJudgedLaunch::BlockFault{block == 0}; }};
  absl::StatusOr<PipelineStats> stats = RunJudged(*program, lies_agree);
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kInternal);
  EXPECT_THAT(stats.status().message(), HasSubstr("the device judge and the model disagreed"));
  DeviceJudgedLaunch lies_disagree{
      *program, [](size_t block) {
        return DeviceJudgedLaunch::BlockFault{
            false, static_cast<std::uint32_t>(block == 3 ? DeviceVerdict::kDisagree : DeviceVerdict::kAgree)};
      }};
  stats = RunJudged(*program, lies_disagree);
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kInternal);
}

// A block that never wrote its verdict (the word keeps the launch's
// poison) is judged on the host alone, with no device verdict to hold.
TEST(LaunchPipelineTest, ABlockWithoutAVerdictIsJudgedOnTheHost) {
  const std::unique_ptr<TestProgram> program = DeviceJudgedLdmatrix();
  DeviceJudgedLaunch launch{*program, [](size_t block) {
                              return DeviceJudgedLaunch::BlockFault{block == 9, block == 9 ? 0xA5A5A5A5u : 1u};
                            }};
  const absl::StatusOr<PipelineStats> stats = RunJudged(*program, launch);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->mismatched, stats->launches);
  EXPECT_EQ(stats->judged_on_device, stats->launches * 48);
}

}  // namespace
}  // namespace matload
