#include "harness/gpu/device_sweep_run.h"

#include <cstring>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "reference/target.h"

namespace matload {
namespace {

constexpr std::uint64_t kSeed = 77;

// SimulatedDevice stands in for a GPU running the sweep kernel: it makes
// each variant on the host, as the kernel must draw it, and writes the
// output the kernel would, with the faults a test asks for.
class SimulatedDevice {
 public:
  explicit SimulatedDevice(const TestProgram& program) : program_(program) {}

  // Each fault is a variant index that misbehaves that way; 0 for none.
  std::uint64_t wrong_load = 0;        // the GPU loaded another word; the device judge says so
  std::uint64_t lying_judge = 0;       // the GPU loaded another word; the device judge calls it right
  std::uint64_t misjudged = 0;         // the GPU loaded the right words; the device judge calls them wrong
  std::uint64_t other_draw = 0;        // the device drew lane 5's row elsewhere
  std::uint64_t every_wrong_from = 0;  // from this index on, every load is wrong
  std::uint64_t unsampled = 0;         // a variant the device should sample and does not keep
  std::uint64_t ran_skipped = 0;       // a variant of a skipped class the device runs
  std::uint64_t skipped_run = 0;       // a variant of a class it runs that the device skips

  SweepLaunch Launch() {
    return [this](int slot, const SweepRequest& request) -> absl::StatusOr<absl::Span<const std::uint8_t>> {
      std::vector<std::uint8_t>& out = outputs_[slot];
      const size_t slot_bytes = SweepSlotBytes(program_.frame().output_bytes);
      out.assign(kSweepSlotsAt + request.slots * slot_bytes, 0);
      std::uint64_t agreed = 0, disagreed = 0;
      std::uint32_t claimed = 0;
      for (std::uint64_t index = request.first; index < request.end; ++index) {
        const int fault_class = program_.FaultClassOf(program_.MakeVariant(kSeed, static_cast<int>(index), false));
        const bool skip = (request.skipped_classes >> fault_class & 1) != 0;
        if (skip != (index == ran_skipped || index == skipped_run)) {
          CountSkip(fault_class, index, absl::MakeSpan(out));
          continue;
        }
        const bool wrong =
            index == wrong_load || index == lying_judge || (every_wrong_from != 0 && index >= every_wrong_from);
        const bool says_wrong = (wrong && index != lying_judge) || index == misjudged;
        (says_wrong ? disagreed : agreed) += 1;
        if (!says_wrong && index % kSampleEvery != 0 && index != request.first) continue;
        if (!says_wrong && index == unsampled) continue;
        if (claimed++ >= request.slots) continue;
        WriteSlot(index, wrong, says_wrong, absl::MakeSpan(out).subspan(kSweepSlotsAt + (claimed - 1) * slot_bytes));
      }
      std::memcpy(out.data(), &agreed, 8);
      std::memcpy(out.data() + 8, &disagreed, 8);
      std::memcpy(out.data() + 16, &claimed, 4);
      const std::uint32_t sm_blocks = static_cast<std::uint32_t>(agreed + disagreed);
      std::memcpy(out.data() + kSweepSmCountsAt + 8 * 3, &sm_blocks, 4);  // all on SM 3
      return absl::MakeConstSpan(out);
    };
  }

 private:
  // CountSkip counts `index`, of `fault_class`, skipped.
  static void CountSkip(int fault_class, std::uint64_t index, absl::Span<std::uint8_t> out) {
    std::uint8_t* counters = out.data() + kSweepSkipsAt + 16 * fault_class;
    std::uint64_t count, first_complement;
    std::memcpy(&count, counters, 8);
    std::memcpy(&first_complement, counters + 8, 8);
    ++count;
    first_complement = std::max(first_complement, ~index);
    std::memcpy(counters, &count, 8);
    std::memcpy(counters + 8, &first_complement, 8);
  }

  void WriteSlot(std::uint64_t index, bool wrong, bool says_wrong, absl::Span<std::uint8_t> slot) const {
    const Variant variant = program_.MakeVariant(kSeed, static_cast<int>(index), false);
    const std::uint32_t verdict =
        static_cast<std::uint32_t>(says_wrong ? DeviceVerdict::kDisagree : DeviceVerdict::kAgree) | (3u << 8);
    std::memcpy(slot.data(), &index, 8);
    std::memcpy(slot.data() + 8, &verdict, 4);
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      std::uint32_t row = static_cast<std::uint32_t>(variant.operands.lane_addresses[lane]);
      if (index == other_draw && lane == 5) row += 16;
      std::memcpy(slot.data() + kSweepSlotHeaderBytes + 4 * lane, &row, 4);
    }
    LaneValues values = std::get<LaneValues>(program_.Expect(variant));
    if (wrong) values.words[7] ^= 0x100;
    std::memcpy(slot.data() + kSweepSlotHeaderBytes + 4 * kWarpLanes, values.words.data(), 4 * values.words.size());
  }

  const TestProgram& program_;
  std::vector<std::uint8_t> outputs_[2];
};

std::unique_ptr<TestProgram> LdmatrixX4() {
  absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::ForOpcode(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16", *ParseTarget("sm_90"), PtxVersion{9, 0}, {.judge_on_device = true});
  EXPECT_TRUE(program.ok()) << program.status();
  return *std::move(program);
}

SweepOptions Options(std::uint64_t end) {
  return {.seed = kSeed, .first = 1, .end = end, .variants_per_launch = 5000, .threads = 2};
}

TEST(DeviceSweepRunTest, AFaithfulDeviceIsRejudgedOnItsSampleAlone) {
  const std::unique_ptr<TestProgram> program = LdmatrixX4();
  SimulatedDevice device(*program);
  absl::StatusOr<SweepStats> stats = RunSweep(*program, Options(20001), device.Launch());
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->launches, 4u);
  EXPECT_EQ(stats->next, 20001u);
  EXPECT_EQ(stats->agreed, 20000u);
  EXPECT_EQ(stats->disagreed, 0u);
  // Each launch's first variant (1, 5001, 10001, 15001), and 4096, 8192,
  // 12288 and 16384.
  EXPECT_EQ(stats->rejudged, 8u);
  EXPECT_TRUE(stats->failing.empty());
  ASSERT_EQ(stats->per_sm.size(), 4u);
  EXPECT_EQ(stats->per_sm[3].blocks, 20000u);
}

TEST(DeviceSweepRunTest, AWrongLoadTheModelConfirmsIsFailing) {
  const std::unique_ptr<TestProgram> program = LdmatrixX4();
  SimulatedDevice device(*program);
  device.wrong_load = 777;
  absl::StatusOr<SweepStats> stats = RunSweep(*program, Options(20001), device.Launch());
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->disagreed, 1u);
  EXPECT_EQ(stats->failing, std::vector<std::uint64_t>{777});
  EXPECT_EQ(stats->unseen, 0u);
}

TEST(DeviceSweepRunTest, DisagreementsPastTheSlotsAreCountedUnseen) {
  const std::unique_ptr<TestProgram> program = LdmatrixX4();
  SimulatedDevice device(*program);
  device.every_wrong_from = 4000;
  SweepOptions options = Options(5001);
  options.kept_disagreements = 10;
  absl::StatusOr<SweepStats> stats = RunSweep(*program, options, device.Launch());
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->disagreed, 1001u);
  // The launch has 13 slots (two for its sample, 10 for disagreements and
  // one to spare): variant 1 claims one, the first 12 disagreements the rest.
  EXPECT_EQ(stats->failing.size(), 12u);
  EXPECT_EQ(stats->unseen, 1001u - 12u);
}

// The three ways the device can be wrong about itself end the sweep as
// kInternal, naming what went wrong.
TEST(DeviceSweepRunTest, ADeviceThatDrawsOrJudgesOtherwiseEndsTheSweep) {
  const std::unique_ptr<TestProgram> program = LdmatrixX4();
  struct Case {
    std::uint64_t SimulatedDevice::*fault;
    std::uint64_t index;
    const char* said;
  };
  for (const Case& c : {Case{&SimulatedDevice::lying_judge, 8192,
                             "about variant 8192 of seed 77: the device judge on SM 3 called it right"},
                        Case{&SimulatedDevice::misjudged, 300,
                             "about variant 300 of seed 77: the device judge on SM 3 called it wrong"},
                        Case{&SimulatedDevice::other_draw, 4096, "lane 5's line starts at"}}) {
    SimulatedDevice device(*program);
    device.*c.fault = c.index;
    absl::StatusOr<SweepStats> stats = RunSweep(*program, Options(20001), device.Launch());
    EXPECT_EQ(stats.status().code(), absl::StatusCode::kInternal) << c.said;
    EXPECT_TRUE(absl::StrContains(stats.status().message(), c.said)) << stats.status();
  }
}

// A device that leaves out a variant of its sample leaves its judge
// unchecked: the sweep ends as kInternal, never a pass.
TEST(DeviceSweepRunTest, ASweepThatKeepsLessThanItsSampleEndsTheSweep) {
  const std::unique_ptr<TestProgram> program = LdmatrixX4();
  SimulatedDevice device(*program);
  device.unsampled = 8192;
  absl::StatusOr<SweepStats> stats = RunSweep(*program, Options(20001), device.Launch());
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kInternal);
  EXPECT_TRUE(absl::StrContains(stats.status().message(), "kept 1 of the 2 variants it must sample")) << stats.status();
}

// ldmatrix's fault classes are its row generators, index % 4: skipping
// classes 1 and 2 (scattered and repeated rows) runs half the variants,
// samples only those, and counts the rest by class with the first of each.
TEST(DeviceSweepRunTest, SkippedClassesAreCountedByClassAndNeverRun) {
  const std::unique_ptr<TestProgram> program = LdmatrixX4();
  SimulatedDevice device(*program);
  SweepOptions options = Options(20001);
  options.skipped_classes = 0b0110;
  absl::StatusOr<SweepStats> stats = RunSweep(*program, options, device.Launch());
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->agreed, 10000u);
  EXPECT_EQ(stats->skipped[1].count, 5000u);
  EXPECT_EQ(stats->skipped[1].first, 1);
  EXPECT_EQ(stats->skipped[2].count, 5000u);
  EXPECT_EQ(stats->skipped[2].first, 2);
  EXPECT_EQ(stats->skipped[0].count + stats->skipped[3].count, 0u);
  // The launches' first variants, 1, 5001, 10001 and 15001, are class 1
  // and skipped; 4096, 8192, 12288 and 16384, class 0, are the sample.
  EXPECT_EQ(stats->rejudged, 4u);
}

// A device that runs a variant it was to skip, or skips one it was to run,
// is not the kernel the host asked for: kInternal.
TEST(DeviceSweepRunTest, ADeviceThatSkipsOtherClassesEndsTheSweep) {
  const std::unique_ptr<TestProgram> program = LdmatrixX4();
  struct Case {
    std::uint64_t SimulatedDevice::*fault;
    std::uint64_t index;
    std::uint64_t skipped_classes;
    const char* said;
  };
  // 5001, class 1, is a launch's first, kept as its sample.
  for (const Case& c : {Case{&SimulatedDevice::ran_skipped, 5001, 0b10, "which it was asked to skip"},
                        Case{&SimulatedDevice::skipped_run, 4098, 0, "which it was to run"}}) {
    SimulatedDevice device(*program);
    device.*c.fault = c.index;
    SweepOptions options = Options(20001);
    options.skipped_classes = c.skipped_classes;
    const char* said = c.said;
    absl::StatusOr<SweepStats> stats = RunSweep(*program, options, device.Launch());
    EXPECT_EQ(stats.status().code(), absl::StatusCode::kInternal) << said;
    EXPECT_TRUE(absl::StrContains(stats.status().message(), said)) << stats.status();
  }
}

TEST(DeviceSweepRunTest, ASweepNeedsAPlanAndStartsPastTheTaggedVariant) {
  const std::unique_ptr<TestProgram> program = LdmatrixX4();
  SimulatedDevice device(*program);
  SweepOptions options = Options(100);
  options.first = 0;
  EXPECT_EQ(RunSweep(*program, options, device.Launch()).status().code(), absl::StatusCode::kInvalidArgument);
  options.first = 1;
  options.skipped_classes = 0b10000;  // ldmatrix has four classes
  EXPECT_EQ(RunSweep(*program, options, device.Launch()).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace matload
