// The measurement of the wmma.load fragment layouts PTX leaves unspecified,
// on the GPU. Every legal wmma.load form of the device's target runs up to
// 64 random variants (random data, placements, offsets and strides) in one
// launch. Each matrix element's values across the variants form its
// signature (checked unique), and each
// fragment element is identified by its signature. So one measurement
// holds for every stride, offset and placement at once, or fails to match.
// The measured map must be linear, cover the matrix equally often (the spec
// layer), be the same for .row and .col and every state space, and equal
// the model's layout. Raw maps go to $MATLOAD_REPORT_DIR. Skips without a GPU.
#include <cstdlib>
#include <fstream>
#include <map>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "families/wmma/wmma_load_table.h"
#include "families/wmma/wmma_semantics.h"
#include "gtest/gtest.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/gpu/program_launch.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/platform/infrastructure.h"
#include "reference/enumerate.h"
#include "reference/runtime_ub.h"

namespace matload {
namespace {

constexpr int kVariants = 64;
constexpr int kFewestVariants = 16;
constexpr std::uint64_t kSeed = 20261122;

// Group is the layout-determining part of a form: matrix, shape and type.
std::string GroupOf(const CheckedInstruction& instruction) {
  const QualifierSet& qualifiers = instruction.form().qualifiers;
  return absl::StrCat(wmma::Spec().axes[wmma::kMatrix].spellings[qualifiers.Get(wmma::kMatrix)],
                      wmma::Spec().axes[wmma::kShape].spellings[qualifiers.Get(wmma::kShape)],
                      wmma::Spec().axes[wmma::kType].spellings[qualifiers.Get(wmma::kType)]);
}

// Signatures maps each matrix element's values across the variants to the element.
absl::flat_hash_map<std::vector<std::uint64_t>, MatrixCoord> Signatures(const TestProgram& program,
                                                                      const std::vector<Variant>& variants) {
  const QualifierSet& qualifiers = program.instruction().form().qualifiers;
  const MatrixCoord dims = WmmaMatrixDims(qualifiers);
  const int bits = wmma::ElementBits(static_cast<wmma::Type>(qualifiers.Get(wmma::kType)));
  std::vector<std::vector<std::uint64_t>> values(dims.row * dims.col);
  for (const Variant& variant : variants) {
    std::vector<std::uint8_t> window(program.frame().window_bytes);
    FillWindow(variant.pattern, variant.stream, absl::MakeSpan(window));
    const VariantOperands& pointer = variant.operands;
    for (int r = 0; r < dims.row; ++r) {
      for (int c = 0; c < dims.col; ++c) {
        values[r * dims.col + c].push_back(ReadPackedBits(
            window, 8 * pointer.address + WmmaElementOffsetBits(qualifiers, {r, c}, pointer.stride), bits));
      }
    }
  }
  absl::flat_hash_map<std::vector<std::uint64_t>, MatrixCoord> signatures;
  for (int i = 0; i < dims.row * dims.col; ++i) {
    const bool unique = signatures.emplace(values[i], MatrixCoord{i / dims.col, i % dims.col}).second;
    EXPECT_TRUE(unique) << program.Label() << ": two matrix elements share a signature; draw more variants";
  }
  return signatures;
}

TEST(WmmaDeviceTest, MeasuredLayoutsAreLinearCoverTheMatrixAndMatchTheModel) {
  // The device's target, asked of a worker: this process never initialises CUDA.
  absl::StatusOr<DeviceProbe> device = ProbeDevice(0, std::chrono::seconds(60));
  if (IsNoGpu(device.status())) {
    GTEST_SKIP() << "needs a GPU: " << device.status().message();
  }
  ASSERT_TRUE(device.ok()) << device.status();
  const Target target = device->target;
  const std::string& toolchain = device->toolchain;
  const std::string& identity = device->identity;
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  ASSERT_TRUE(registry.ok()) << registry.status();

  std::vector<std::unique_ptr<TestProgram>> programs;
  std::vector<std::vector<Variant>> variants;
  // At the newest version the device's JIT speaks.
  const PtxVersion ptx = device->jit.Judged();
  for (const QualifierSet& qualifiers : LegalQualifierSets(wmma::Spec(), ptx, target)) {
    const std::optional<CheckedInstruction> instruction = StandardInstruction(wmma::Spec(), qualifiers, ptx, target);
    ASSERT_TRUE(instruction.has_value());
    absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::For(*instruction, {});
    ASSERT_TRUE(program.ok()) << program.status();
    // Variants the registry says fault (.shared A/B rows that are not
    // 16-byte aligned) are left out (`matload conform` runs them), and more
    // are drawn until kVariants remain; at least kFewestVariants must (some
    // .shared forms fault at their default stride), and the signatures'
    // uniqueness is checked whatever the count.
    std::vector<Variant> runnable;
    for (Variant& variant : (*program)->Variants(64 * kVariants, kSeed, false)) {
      if (runnable.size() == kVariants) break;
      if (registry->Find((*program)->FaultCaseText(variant), target, Direction::kDeviceFaults, toolchain) == nullptr) {
        runnable.push_back(std::move(variant));
      }
    }
    ASSERT_GE(runnable.size(), static_cast<size_t>(kFewestVariants)) << (*program)->Label();
    variants.push_back(std::move(runnable));
    programs.push_back(*std::move(program));
  }
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      static_cast<int>(programs.size()),
      [&](int item) {
        std::vector<const Variant*> blocks;
        for (const Variant& variant : variants[item]) blocks.push_back(&variant);
        return LaunchProgram(0, *programs[item], blocks, CompilePath::kDriverJit);
      },
      std::chrono::seconds(60));
  ASSERT_TRUE(results.ok()) << results.status();

  std::ofstream raw, fitted;
  if (const char* dir = std::getenv("MATLOAD_REPORT_DIR")) {
    raw.open(absl::StrCat(dir, "/wmma-layout-", target.Name(), ".tsv"));
    raw << "# " << identity << "\n# group\tlane\telement\trow\tcol   (" << kVariants
        << " random variants per form, seed " << kSeed << ")\n";
    fitted.open(absl::StrCat(dir, "/wmma-layout-", target.Name(), "-fitted.tsv"));
    fitted << "# " << identity << "\n# group\tform\tbasis\tmodel\n";
  }
  std::map<std::string, std::string> basis_of_group;
  for (size_t item = 0; item < programs.size(); ++item) {
    const TestProgram& program = *programs[item];
    const ItemResult& result = (*results)[item];
    if (result.kind != ItemResult::Kind::kDone) {
      ADD_FAILURE() << program.Label() << ": " << ItemKindName(result.kind) << ": " << result.output;
      continue;
    }
    const WmmaFragment fragment = *WmmaFragment::For(program.instruction());
    const auto signatures = Signatures(program, variants[item]);
    const int elements = fragment.elements();
    const int bits = fragment.element_bits();
    const size_t lane_bytes = program.frame().output_bytes / kWarpLanes;
    std::vector<MatrixCoord> measured(kWarpLanes * elements, MatrixCoord{-1, -1});
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      for (int x = 0; x < elements; ++x) {
        std::vector<std::uint64_t> signature;
        for (size_t v = 0; v < variants[item].size(); ++v) {
          const absl::Span<const std::uint8_t> block(
              reinterpret_cast<const std::uint8_t*>(result.output.data()) + v * program.frame().output_bytes,
              program.frame().output_bytes);
          signature.push_back(ReadPackedBits(block, 8 * (lane * lane_bytes) + static_cast<std::uint64_t>(x) * bits, bits));
        }
        const auto found = signatures.find(signature);
        if (found != signatures.end()) measured[lane * elements + x] = found->second;
      }
    }
    auto at = [&](int lane, int x) { return measured[lane * elements + x]; };
    const std::string group = GroupOf(program.instruction());
    const bool first_of_group = !basis_of_group.contains(group);
    if (raw.is_open() && first_of_group) {
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        for (int x = 0; x < elements; ++x) raw << group << "\t" << lane << "\t" << x << "\t" << at(lane, x).row << "\t" << at(lane, x).col << "\n";
      }
    }
    EXPECT_TRUE(FragmentCoverageViolations(fragment.rows(), fragment.cols(), elements, at).empty()) << program.Label();
    absl::StatusOr<LinearLayout> layout = LinearLayout::Fit(elements, at);
    if (!layout.ok()) {
      ADD_FAILURE() << program.Label() << ": " << layout.status();
      continue;
    }
    auto [known, inserted] = basis_of_group.emplace(group, layout->ToString());
    EXPECT_EQ(known->second, layout->ToString()) << program.Label() << " differs from the rest of " << group;
    if (fitted.is_open() && inserted) {
      fitted << group << "\t" << program.Label() << "\t" << layout->ToString() << "\t" << fragment.entry().source.id << "\n";
    }
    EXPECT_EQ(fragment.entry().fragment, *layout)
        << program.Label() << ": model " << fragment.entry().fragment.ToString() << ", measured " << layout->ToString();
  }
  std::cout << identity << ": " << programs.size() << " wmma.load forms measured with " << kFewestVariants << " to " << kVariants
            << " random variants each, " << basis_of_group.size() << " layouts\n";
  EXPECT_GT(programs.size(), 0u);
}

}  // namespace
}  // namespace matload
