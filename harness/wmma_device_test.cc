// The GPU half of the wmma.load differential, and the measurement of the
// fragment layouts PTX leaves unspecified. Every legal wmma.load form of the
// device's target runs on the GPU:
//  1. with element-tagged data, to measure which element each lane's
//     fragment holds; the measured map must be linear, cover the matrix
//     equally often (the spec layer), be the same for .row and .col, every
//     state space and stride, and equal the model's layout where it has one;
//  2. with random data at several strides, offsets and placements, to
//     compare every register of every lane with the model bit for bit.
// Raw measurements go to $MATLOAD_REPORT_DIR. Skips without a GPU.
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/strip.h"
#include "harness/cuda_driver.h"
#include "harness/discrepancy_registry.h"
#include "harness/isolated_runner.h"
#include "harness/wmma_kernel.h"
#include "reference/enumerate.h"
#include "reference/printer.h"
#include "reference/runtime_ub.h"
#include "reference/wmma_semantics.h"

namespace matload {
namespace {

constexpr int kWindowBytes = 16384;

std::string Opcode(const QualifierSet& qualifiers) {
  return PrintRaw(ToRaw(Form{Family::kWmmaLoad, std::nullopt, qualifiers, {}}));
}

// FragmentBits reads bits [offset, offset + bits) of one lane's registers,
// as the kernel stored them (little-endian, register after register).
std::uint64_t FragmentBits(const std::vector<std::uint8_t>& output, size_t lane_bytes, int lane, std::uint64_t offset,
                           int bits) {
  std::uint64_t value = 0;
  for (int i = 0; i < bits; ++i) {
    const std::uint64_t at = lane * lane_bytes * 8 + offset + i;
    value |= static_cast<std::uint64_t>((output[at / 8] >> (at % 8)) & 1) << i;
  }
  return value;
}

// Group is the layout-determining part of a form: matrix, shape and type.
std::string GroupOf(const QualifierSet& qualifiers) {
  QualifierSet group;
  for (int axis : {wmma::kMatrix, wmma::kShape, wmma::kType}) group.Set(axis, qualifiers.Get(axis));
  group.Set(wmma::kSync, 0);
  group.Set(wmma::kAligned, 0);
  return Opcode(group);
}

// Jit is this worker process's driver JIT, opened on first use. Only
// workers call it: the test process itself never initialises CUDA, so a
// sticky fault costs one worker (harness/isolated_runner.h).
absl::StatusOr<DriverJit*> WorkerJit() {
  static absl::StatusOr<std::unique_ptr<DriverJit>>* jit = [] {
    auto* opened = new absl::StatusOr<std::unique_ptr<DriverJit>>(absl::InternalError("unopened"));
    absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
    *opened = driver.ok() ? DriverJit::Open(*driver, 0) : absl::StatusOr<std::unique_ptr<DriverJit>>(driver.status());
    return opened;
  }();
  if (!jit->ok()) return jit->status();
  return jit->value().get();
}

constexpr std::chrono::seconds kItemTimeout(20);

class WmmaDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The device's target and identity, asked of a worker.
    absl::StatusOr<std::vector<ItemResult>> probe = RunIsolated(
        1,
        [](int) -> absl::StatusOr<std::string> {
          absl::StatusOr<DriverJit*> jit = WorkerJit();
          if (!jit.ok()) return jit.status();
          const DeviceInfo& device = (*jit)->device();
          return absl::StrCat(device.compute_major * 10 + device.compute_minor, "\t", (*jit)->Tool(), " ",
                              (*jit)->Version(), "\t", device.name, ", ", device.uuid, ", ", (*jit)->Version());
        },
        kItemTimeout);
    ASSERT_TRUE(probe.ok()) << probe.status();
    if ((*probe)[0].kind != ItemResult::Kind::kDone) GTEST_SKIP() << "needs a GPU: " << (*probe)[0].output;
    const std::vector<std::string> fields = absl::StrSplit((*probe)[0].output, absl::MaxSplits('\t', 2));
    int sm = 0;
    ASSERT_TRUE(absl::SimpleAtoi(fields[0], &sm));
    target_ = Target{sm};
    toolchain_ = fields[1];
    identity_ = fields[2];
    if (const char* dir = std::getenv("MATLOAD_REPORT_DIR")) report_dir_ = dir;
  }

  Target target_;
  std::string toolchain_;  // "driver JIT CUDA 13.0; ...", as the discrepancy registry names it
  std::string identity_;
  std::string report_dir_;
};

// RunOnce launches one form in a worker with `data` placed as `placement`, at
// `offset` bytes into its window, with `stride`; it returns the raw output.
absl::StatusOr<std::string> RunOnce(const CheckedInstruction& instruction, const WmmaPlacement& placement,
                                    const std::vector<std::uint8_t>& data, std::uint64_t offset, std::uint32_t stride) {
  absl::StatusOr<DriverJit*> jit = WorkerJit();
  if (!jit.ok()) return jit.status();
  const size_t lane_bytes = WmmaFragmentBytes(instruction.form().qualifiers, instruction.signature());
  absl::StatusOr<std::vector<std::uint8_t>> output = (*jit)->LaunchOneBlock(
      WmmaKernel(instruction, placement), kWmmaEntry, {data, WmmaKernelArgs(offset, stride)}, kWarpLanes * lane_bytes, kWarpLanes);
  if (!output.ok()) return output.status();
  return std::string(output->begin(), output->end());
}

// LegalWmmaForms is every legal wmma.load form of `target`, with standard operands.
std::vector<CheckedInstruction> LegalWmmaForms(Target target) {
  std::vector<CheckedInstruction> forms;
  for (const QualifierSet& qualifiers : LegalQualifierSets(wmma::Spec(), NewestPtxVersion(), target)) {
    std::optional<CheckedInstruction> instruction = StandardInstruction(wmma::Spec(), qualifiers, NewestPtxVersion(), target);
    EXPECT_TRUE(instruction.has_value()) << Opcode(qualifiers);
    if (instruction.has_value()) forms.push_back(*std::move(instruction));
  }
  return forms;
}

// TagProbe is the element-tagged measurement of one form: `digits` runs,
// each tagging element i of the matrix with a digit of i.
struct TagProbe {
  MatrixCoord dims;
  int bits;      // element width
  int elements;  // per lane
  int tag_bits;  // digit width: wide elements carry the tag from bit 16 up,
  int tag_shift;  // clear of any low mantissa bits a conversion might drop
  int digits;

  explicit TagProbe(const CheckedInstruction& instruction) {
    const QualifierSet& qualifiers = instruction.form().qualifiers;
    const OperandSignature& signature = instruction.signature();
    dims = WmmaMatrixDims(qualifiers);
    bits = wmma::ElementBits(static_cast<wmma::Type>(qualifiers.Get(wmma::kType)));
    elements = 8 * WmmaFragmentBytes(qualifiers, signature) / bits;
    tag_bits = std::min(bits, 16);
    tag_shift = bits >= 32 ? 16 : 0;
    int index_bits = 0;
    while ((1 << index_bits) < dims.row * dims.col) ++index_bits;
    digits = (index_bits + tag_bits - 1) / tag_bits;
  }

  // Measure runs in a worker: it returns, lane-major, the matrix index each
  // fragment element holds, as space-separated numbers.
  absl::StatusOr<std::string> Measure(const CheckedInstruction& instruction) const {
    const QualifierSet& qualifiers = instruction.form().qualifiers;
    const std::uint32_t stride = WmmaDefaultStride(qualifiers);
    std::vector<int> index(kWarpLanes * elements, 0);
    for (int digit = 0; digit < digits; ++digit) {
      std::vector<std::uint64_t> matrix(dims.row * dims.col);
      for (int i = 0; i < dims.row * dims.col; ++i) {
        matrix[i] = static_cast<std::uint64_t>((i >> (digit * tag_bits)) & ((1 << tag_bits) - 1)) << tag_shift;
      }
      std::vector<std::uint8_t> data(kWindowBytes, 0);
      StoreWmmaMatrix(qualifiers, stride, matrix, absl::MakeSpan(data));
      const WmmaPlacement placement = instruction.signature().state_space == StateSpace::kShared
                                          ? WmmaPlacement{StateSpace::kShared, kWindowBytes, 32}
                                          : WmmaPlacement{StateSpace::kGlobal, 0, 64};
      absl::StatusOr<std::string> output = RunOnce(instruction, placement, data, 0, stride);
      if (!output.ok()) return output.status();
      const std::vector<std::uint8_t> bytes(output->begin(), output->end());
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        for (int x = 0; x < elements; ++x) {
          const std::uint64_t tag = FragmentBits(bytes, elements * bits / 8, lane,
                                                 static_cast<std::uint64_t>(x) * bits + tag_shift, tag_bits);
          index[lane * elements + x] |= static_cast<int>(tag) << (digit * tag_bits);
        }
      }
    }
    return absl::StrJoin(index, " ");
  }
};

TEST_F(WmmaDeviceTest, MeasuredLayoutsAreLinearCoverTheMatrixAndMatchTheModel) {
  const std::vector<CheckedInstruction> forms = LegalWmmaForms(target_);
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      static_cast<int>(forms.size()), [&](int item) { return TagProbe(forms[item]).Measure(forms[item]); }, kItemTimeout);
  ASSERT_TRUE(results.ok()) << results.status();
  std::ofstream raw, fitted;
  if (!report_dir_.empty()) {
    raw.open(absl::StrCat(report_dir_, "/wmma-layout-", target_.Name(), ".tsv"));
    raw << "# " << identity_ << "\n# group\tlane\telement\trow\tcol   (element-tagged data, default stride)\n";
    fitted.open(absl::StrCat(report_dir_, "/wmma-layout-", target_.Name(), "-fitted.tsv"));
    fitted << "# " << identity_ << "\n# group\tform\tbasis\tmodel\n";
  }
  std::map<std::string, std::string> basis_of_group;
  for (size_t item = 0; item < forms.size(); ++item) {
    const CheckedInstruction& instruction = forms[item];
    const QualifierSet& qualifiers = instruction.form().qualifiers;
    const ItemResult& result = (*results)[item];
    if (result.kind != ItemResult::Kind::kDone) {
      ADD_FAILURE() << Opcode(qualifiers) << ": " << ItemKindName(result.kind) << ": " << result.output;
      continue;
    }
    const TagProbe probe(instruction);
    std::vector<int> index;
    for (absl::string_view number : absl::StrSplit(result.output, ' ')) index.push_back(std::stoi(std::string(number)));
    auto measured = [&](int lane, int x) {
      const int i = index[lane * probe.elements + x];
      return MatrixCoord{i / probe.dims.col, i % probe.dims.col};
    };
    const std::string group = GroupOf(qualifiers);
    const bool first_of_group = !basis_of_group.contains(group);
    if (raw.is_open() && first_of_group) {
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        for (int x = 0; x < probe.elements; ++x) {
          raw << group << "\t" << lane << "\t" << x << "\t" << measured(lane, x).row << "\t" << measured(lane, x).col << "\n";
        }
      }
    }
    EXPECT_TRUE(FragmentCoverageViolations(probe.dims.row, probe.dims.col, probe.elements, measured).empty())
        << Opcode(qualifiers);
    absl::StatusOr<LinearLayout> layout = LinearLayout::Fit(probe.elements, measured);
    if (!layout.ok()) {
      ADD_FAILURE() << Opcode(qualifiers) << ": " << layout.status();
      continue;
    }
    // .row and .col, every state space: one layout per group.
    auto [known, inserted] = basis_of_group.emplace(group, layout->ToString());
    EXPECT_EQ(known->second, layout->ToString()) << Opcode(qualifiers) << " differs from the rest of " << group;
    absl::StatusOr<WmmaFragment> model = WmmaFragment::For(instruction);
    if (fitted.is_open() && inserted) {
      fitted << group << "\t" << Opcode(qualifiers) << "\t" << layout->ToString() << "\t"
             << (model.ok() ? std::string(model->entry().source.id) : "none") << "\n";
    }
    if (!model.ok()) {
      ADD_FAILURE() << model.status() << "; measured " << layout->ToString();
      continue;
    }
    EXPECT_EQ(model->entry().fragment, *layout) << Opcode(qualifiers) << ": model " << model->entry().fragment.ToString()
                                                << ", measured " << layout->ToString();
  }
  std::cout << identity_ << ": " << forms.size() << " wmma.load forms measured, " << basis_of_group.size()
            << " layouts\n";
  EXPECT_GT(forms.size(), 0u);
}

// Variant is one set of run-time inputs for one form.
struct Variant {
  std::string name;
  WmmaPlacement placement;
  std::uint64_t offset;
  std::uint32_t stride;
};

std::vector<Variant> VariantsOf(const CheckedInstruction& instruction) {
  const QualifierSet& qualifiers = instruction.form().qualifiers;
  const OperandSignature& signature = instruction.signature();
  const std::uint32_t stride = WmmaDefaultStride(qualifiers);
  const int fragment_bytes = WmmaFragmentBytes(qualifiers, signature);
  const std::uint32_t wide = WmmaAlignedStrideAbove(qualifiers, signature, stride);
  std::vector<Variant> variants;
  for (const WmmaPlacement& placement :
       {WmmaPlacement{StateSpace::kGlobal}, WmmaPlacement{StateSpace::kShared, kWindowBytes, 32},
        WmmaPlacement{StateSpace::kShared, kWindowBytes, 64}}) {
    if (signature.state_space == StateSpace::kGlobal && placement.data_space != StateSpace::kGlobal) continue;
    if (signature.state_space == StateSpace::kShared && placement.data_space != StateSpace::kShared) continue;
    if (signature.state_space != StateSpace::kShared && placement.shared_address_bits == 32 &&
        placement.data_space == StateSpace::kShared) {
      continue;  // a 32-bit address names only .shared forms
    }
    const std::string where = placement.data_space == StateSpace::kGlobal
                                  ? "global"
                                  : absl::StrCat("shared", placement.shared_address_bits);
    variants.push_back({absl::StrCat(where, "-default"), placement, 0, stride});
    variants.push_back({absl::StrCat(where, "-offset"), placement, static_cast<std::uint64_t>(4 * std::max(fragment_bytes, 32)), stride});
    if (signature.stride) variants.push_back({absl::StrCat(where, "-wide"), placement, 0, wide});
  }
  return variants;
}

// Case is one run: a form, a variant and its random data.
struct Case {
  const CheckedInstruction* instruction;
  Variant variant;
  std::vector<std::uint8_t> data;
};

TEST_F(WmmaDeviceTest, EveryRegisterOfEveryLaneMatchesTheModel) {
  const std::vector<CheckedInstruction> forms = LegalWmmaForms(target_);
  std::mt19937_64 random(20261122);
  std::vector<Case> cases;
  for (const CheckedInstruction& instruction : forms) {
    for (const Variant& variant : VariantsOf(instruction)) {
      // Random bytes: every bit pattern, NaN, Inf and denormals included.
      std::vector<std::uint8_t> data(kWindowBytes);
      for (std::uint8_t& byte : data) byte = static_cast<std::uint8_t>(random());
      cases.push_back({&instruction, variant, std::move(data)});
    }
  }
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      static_cast<int>(cases.size()),
      [&](int item) {
        const Case& run = cases[item];
        return RunOnce(*run.instruction, run.variant.placement, run.data, run.variant.offset, run.variant.stride);
      },
      kItemTimeout);
  ASSERT_TRUE(results.ok()) << results.status();
  std::ofstream summary;
  if (!report_dir_.empty()) {
    summary.open(absl::StrCat(report_dir_, "/wmma-values-", target_.Name(), ".tsv"));
    summary << "# " << identity_ << "\n# form\tvariant\tstride\toutcome\tregister words compared\tmismatches\tdetail\n";
  }
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  ASSERT_TRUE(registry.ok()) << registry.status();
  absl::flat_hash_set<std::string> used;
  size_t compared = 0, mismatches = 0;
  std::map<std::string, int> outcomes;
  for (size_t item = 0; item < cases.size(); ++item) {
    const Case& run = cases[item];
    const CheckedInstruction& instruction = *run.instruction;
    const ItemResult& result = (*results)[item];
    const std::string label = absl::StrCat(Opcode(instruction.form().qualifiers), "\t", run.variant.name, "\t",
                                           run.variant.stride);
    const WmmaFragment fragment = *WmmaFragment::For(instruction);
    MemoryImage memory;
    std::uint64_t address = memory.global_base + run.variant.offset;
    const bool named_shared = instruction.signature().state_space == StateSpace::kShared;
    if (run.variant.placement.data_space == StateSpace::kShared) {
      memory.shared = run.data;
      address = named_shared ? run.variant.offset : memory.shared_generic_base + run.variant.offset;
    } else {
      memory.global = run.data;
    }
    const Outcome outcome = ExecuteWmmaLoad(
        instruction, fragment, memory,
        {{address, named_shared ? run.variant.placement.shared_address_bits : 64},
         instruction.signature().stride ? std::optional<std::uint32_t>(run.variant.stride) : std::nullopt});
    if (!std::holds_alternative<LaneValues>(outcome)) {
      ADD_FAILURE() << label << ": the model calls a generated case undefined: " << std::get<Undefined>(outcome).why;
      continue;
    }
    if (result.kind != ItemResult::Kind::kDone) {
      // The model predicts values and the GPU faulted: a finding, unless the
      // registry already explains it.
      const std::uint64_t pitch = std::uint64_t{run.variant.stride} * fragment.element_bits() / 8;
      const std::string case_text = absl::StrCat(absl::StripSuffix(Opcode(instruction.form().qualifiers), ";"),
                                                 "; row-pitch-bytes=", pitch, "; row-pitch-mod16=", pitch % 16);
      const DiscrepancyEntry* known = registry->Find(case_text, target_, Direction::kDeviceFaults, toolchain_);
      const std::string outcome_name = known != nullptr ? absl::StrCat("known fault: ", known->id) : "unexpected fault";
      ++outcomes[outcome_name];
      if (known != nullptr) used.insert(known->id);
      if (summary.is_open()) summary << label << "\t" << outcome_name << "\t0\t0\t" << result.output << "\n";
      EXPECT_NE(known, nullptr) << label << ": the model predicts values; the GPU run " << ItemKindName(result.kind)
                                << ": " << result.output << " (" << case_text << ")";
      continue;
    }
    const LaneValues& model = std::get<LaneValues>(outcome);
    const std::string& output = result.output;
    size_t case_mismatches = 0;
    std::string first;
    const size_t words = model.lanes[0].size();
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      for (size_t word = 0; word < words; ++word) {
        const size_t at = (lane * words + word) * 4;
        std::uint32_t got = 0;
        for (int b = 0; b < 4; ++b) got |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(output[at + b])) << (8 * b);
        ++compared;
        if (got == model.lanes[lane][word]) continue;
        ++case_mismatches;
        if (first.empty()) {
          const WmmaBitSource source =
              fragment.Provenance(lane, word * 32 / model.register_bits, (word * 32) % model.register_bits);
          first = absl::StrFormat("lane %d word %d: device %08x, model %08x (from element (%d,%d))", lane, word, got,
                                  model.lanes[lane][word], source.element.row, source.element.col);
        }
      }
    }
    mismatches += case_mismatches;
    ++outcomes[case_mismatches == 0 ? "pass" : "mismatch"];
    if (summary.is_open()) {
      summary << label << "\t" << (case_mismatches == 0 ? "pass" : "mismatch") << "\t" << kWarpLanes * words << "\t"
              << case_mismatches << "\t" << first << "\n";
    }
    EXPECT_EQ(case_mismatches, 0u) << label << " " << first;
  }
  std::cout << identity_ << ": " << forms.size() << " wmma.load forms, " << cases.size() << " runs, " << compared
            << " register words compared, " << mismatches << " mismatches;";
  for (const auto& [outcome, count] : outcomes) std::cout << " " << outcome << ": " << count;
  std::cout << "\n";
  for (const DiscrepancyEntry& entry : registry->entries()) {
    if (entry.direction != Direction::kDeviceFaults || !DiscrepancyRegistry::AppliesTo(entry, toolchain_)) continue;
    EXPECT_TRUE(used.contains(entry.id)) << "registry entry " << entry.id << " no longer reproduces on " << toolchain_;
  }
  EXPECT_GT(forms.size(), 0u);
}

}  // namespace
}  // namespace matload
