// The GPU half of the ldmatrix differential: every legal ldmatrix form of
// the device's target runs on the GPU, and every register of every lane must
// equal the reference model's prediction. Skips without a GPU.
#include <cstdlib>
#include <fstream>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "harness/cuda_driver.h"
#include "harness/ldmatrix_kernel.h"
#include "reference/enumerate.h"
#include "reference/ldmatrix_semantics.h"
#include "reference/ldmatrix_table.h"
#include "reference/printer.h"

namespace matload {
namespace {

constexpr int kWindowBytes = 4096;

// Variant is one set of runtime inputs: the shared window and each lane's row offset.
struct Variant {
  std::string name;
  std::vector<std::uint8_t> window;
  std::vector<std::uint64_t> offsets;
};

std::vector<Variant> Variants() {
  std::mt19937 random(20261122);
  std::vector<Variant> variants;
  // Element-tagged: the 16-bit word at byte 2k holds k; contiguous rows.
  Variant tagged{"tagged-contiguous", std::vector<std::uint8_t>(kWindowBytes), std::vector<std::uint64_t>(32)};
  for (int k = 0; k < kWindowBytes / 2; ++k) {
    tagged.window[2 * k] = static_cast<std::uint8_t>(k);
    tagged.window[2 * k + 1] = static_cast<std::uint8_t>(k >> 8);
  }
  for (int lane = 0; lane < 32; ++lane) tagged.offsets[lane] = 16 * lane;
  variants.push_back(tagged);
  // Random bytes, rows scattered over the window in a random order.
  Variant scattered{"random-scattered", std::vector<std::uint8_t>(kWindowBytes), std::vector<std::uint64_t>(32)};
  for (std::uint8_t& byte : scattered.window) byte = static_cast<std::uint8_t>(random());
  std::vector<int> rows(kWindowBytes / 16);
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int>(i);
  std::shuffle(rows.begin(), rows.end(), random);
  for (int lane = 0; lane < 32; ++lane) scattered.offsets[lane] = 16 * rows[lane];
  variants.push_back(scattered);
  return variants;
}

std::vector<std::uint8_t> Bytes(const std::vector<std::uint64_t>& words) {
  std::vector<std::uint8_t> bytes(words.size() * 8);
  for (size_t i = 0; i < words.size(); ++i) {
    for (int b = 0; b < 8; ++b) bytes[8 * i + b] = static_cast<std::uint8_t>(words[i] >> (8 * b));
  }
  return bytes;
}

TEST(LdmatrixDeviceTest, EveryRegisterOfEveryLaneMatchesTheModel) {
  absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
  if (!driver.ok()) GTEST_SKIP() << "needs a GPU: " << driver.status().message();
  absl::StatusOr<std::unique_ptr<DriverJit>> jit = DriverJit::Open(*driver, 0);
  ASSERT_TRUE(jit.ok()) << jit.status();
  const DeviceInfo& device = (*jit)->device();
  const Target target{device.compute_major * 10 + device.compute_minor};
  const char* report_dir = std::getenv("MATLOAD_REPORT_DIR");
  std::ofstream raw;
  if (report_dir != nullptr) {
    raw.open(absl::StrCat(report_dir, "/ldmatrix-", target.Name(), ".tsv"));
    raw << "# " << device.name << ", " << device.uuid << ", " << (*jit)->Version() << "\n"
        << "form\tvariant\tlane\tregister\tdevice\tmodel\tprovenance (matrix,row,col) of bytes 0..3\n";
  }
  size_t compared = 0;
  size_t mismatches = 0;
  int forms = 0;
  for (const QualifierSet& qualifiers : LegalQualifierSets(ldmatrix::Spec(), NewestPtxVersion(), target)) {
    const std::optional<CheckedInstruction> checked =
        StandardInstruction(ldmatrix::Spec(), qualifiers, NewestPtxVersion(), target);
    ASSERT_TRUE(checked.has_value());
    const CheckedInstruction& instruction = *checked;
    const Form& form = instruction.form();
    const LdmatrixLayout layout = LdmatrixLayout::For(instruction);
    const std::string kernel = LdmatrixKernel(instruction, kWindowBytes);
    ++forms;
    for (const Variant& variant : Variants()) {
      absl::StatusOr<std::vector<std::uint8_t>> output = (*jit)->LaunchOneBlock(
          kernel, kLdmatrixEntry, {variant.window, Bytes(variant.offsets)}, 32 * layout.registers() * 4, 32);
      ASSERT_TRUE(output.ok()) << PrintForm(form) << ": " << output.status();
      Outcome outcome = ExecuteLdmatrix(instruction, layout, variant.window, variant.offsets);
      ASSERT_TRUE(std::holds_alternative<LaneValues>(outcome)) << PrintForm(form) << " " << variant.name;
      const LaneValues& model = std::get<LaneValues>(outcome);
      for (int lane = 0; lane < 32; ++lane) {
        for (int reg = 0; reg < layout.registers(); ++reg) {
          const size_t at = (lane * layout.registers() + reg) * 4;
          const std::uint32_t got = (*output)[at] | (*output)[at + 1] << 8 | (*output)[at + 2] << 16 |
                                    static_cast<std::uint32_t>((*output)[at + 3]) << 24;
          const std::uint32_t want = model.lanes[lane][reg];
          ++compared;
          std::string provenance;
          for (int byte = 0; byte < 4; ++byte) {
            const LdmatrixElement& e = layout.At(lane, reg, byte);
            absl::StrAppend(&provenance, byte == 0 ? "" : " ", "(", e.matrix, ",", e.row, ",", e.col, ")");
          }
          if (raw.is_open()) {
            raw << PrintRaw(ToRaw(Form{Family::kLdmatrix, std::nullopt, qualifiers, {}})) << "\t" << variant.name << "\t"
                << lane << "\t" << reg << "\t" << absl::StrFormat("%08x\t%08x", got, want) << "\t" << provenance << "\n";
          }
          if (got != want && ++mismatches <= 20) {
            ADD_FAILURE() << PrintForm(form) << " [" << variant.name << "] lane " << lane << " register " << reg
                          << ": device " << absl::StrFormat("%08x", got) << ", model " << absl::StrFormat("%08x", want)
                          << ", model provenance " << provenance;
          }
        }
      }
    }
  }
  std::cout << device.name << " (" << target.Name() << "): " << forms << " ldmatrix forms x " << Variants().size()
            << " variants, " << compared << " registers compared, " << mismatches << " mismatches\n";
  EXPECT_GT(forms, 0);
}

}  // namespace
}  // namespace matload
