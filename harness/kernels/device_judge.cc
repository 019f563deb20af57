#include "harness/kernels/device_judge.h"

#include "absl/strings/str_cat.h"
#include "harness/kernels/data_pattern.h"

namespace matload {
namespace {

// PlanTable is the table's name in the module: the kernel's, and "_plan",
// so that kernels assembled into one program keep tables of their own.
std::string PlanTable(absl::string_view entry) { return absl::StrCat(entry, "_plan"); }

// ExpectedWordPtx sets %judge_want to word `word` of this lane as the plan
// predicts it: each byte from the data word that holds its window offset.
std::string ExpectedWordPtx(int word, absl::string_view line_offset_ptx) {
  std::string ptx = "  mov.b32 %judge_want, 0;\n";
  for (int byte = 0; byte < 4; ++byte) {
    absl::StrAppend(
        &ptx, "  ld.global.nc.u32 %judge_entry, [%judge_plan+", (word * 4 + byte) * 4, "];\n",
        "  shr.u32 %judge_line, %judge_entry, 16;\n", line_offset_ptx, "  and.b32 %judge_entry, %judge_entry, 65535;\n",
        "  cvt.u32.u64 %judge_at, %judge_line_at;\n  add.u32 %judge_at, %judge_at, %judge_entry;\n",
        "  shr.u32 %judge_index, %judge_at, 2;\n", DataWordPtx("%judge_index", "%pattern", "%stream", "%judge_data"),
        "  and.b32 %judge_at, %judge_at, 3;\n  shl.b32 %judge_at, %judge_at, 3;\n",
        "  shr.b32 %judge_data, %judge_data, %judge_at;\n  and.b32 %judge_data, %judge_data, 255;\n",
        "  shl.b32 %judge_data, %judge_data, ", 8 * byte, ";\n", "  or.b32 %judge_want, %judge_want, %judge_data;\n");
  }
  return ptx;
}

}  // namespace

VerdictWord ReadVerdictWord(std::uint32_t word) {
  const std::uint32_t verdict = word & 0xff, sm = word >> 8;
  if (sm >= kMostSms || (verdict != static_cast<std::uint32_t>(DeviceVerdict::kAgree) &&
                         verdict != static_cast<std::uint32_t>(DeviceVerdict::kDisagree))) {
    return {};
  }
  return {.verdict = static_cast<DeviceVerdict>(verdict), .sm = sm};
}

std::string PlanTablePtx(const LoadPlan& plan, absl::string_view entry) {
  std::string ptx = absl::StrCat(".global .align 4 .u32 ", PlanTable(entry), "[", plan.bytes.size(), "] = {");
  for (size_t i = 0; i < plan.bytes.size(); ++i) {
    absl::StrAppend(&ptx,
                    i == 0        ? ""
                    : i % 16 == 0 ? ",\n  "
                                  : ", ",
                    (static_cast<std::uint32_t>(plan.bytes[i].line) << 16) | plan.bytes[i].byte);
  }
  return ptx + "};\n\n";
}

std::string DeviceJudgePtx(const LoadPlan& plan, absl::string_view entry, int registers, int register_bits,
                           absl::string_view line_offset_ptx, PlantedBug bug) {
  std::string ptx = absl::StrCat(
      "  {\n  .reg .b32 %judge_entry, %judge_line, %judge_at, %judge_index, %judge_data, %judge_want, %judge_got,",
      " %judge_bad, %judge_high, %judge_verdict, %judge_sample, %judge_sm;\n",
      "  .reg .b64 %judge_plan, %judge_line_at, %judge_step;\n",
      "  .reg .pred %judge_lane_bad, %judge_warp_bad, %judge_sampled, %judge_keep, %judge_first;\n",
      "  mov.u64 %judge_plan, ", PlanTable(entry), ";\n  mul.wide.u32 %judge_step, %lane, ", plan.words_per_lane * 16,
      ";\n  add.u64 %judge_plan, %judge_plan, %judge_step;\n  mov.b32 %judge_bad, 0;\n");
  const int words_per_register = register_bits / 32;
  for (int reg = 0; reg < registers; ++reg) {
    if (words_per_register == 2) absl::StrAppend(&ptx, "  mov.b64 {%judge_got, %judge_high}, %v", reg, ";\n");
    for (int half = 0; half < words_per_register; ++half) {
      const int word = reg * words_per_register + half;
      absl::StrAppend(&ptx, ExpectedWordPtx(word, line_offset_ptx));
      if (word == 0 && bug == PlantedBug::kMisjudgingChecker)
        absl::StrAppend(&ptx, "  xor.b32 %judge_want, %judge_want, 1;\n");
      if (words_per_register == 1) absl::StrAppend(&ptx, "  mov.b32 %judge_got, %v", reg, ";\n");
      if (half == 1) absl::StrAppend(&ptx, "  mov.b32 %judge_got, %judge_high;\n");
      absl::StrAppend(&ptx, "  xor.b32 %judge_got, %judge_got, %judge_want;\n",
                      "  or.b32 %judge_bad, %judge_bad, %judge_got;\n");
    }
  }
  absl::StrAppend(
      &ptx, "  setp.ne.u32 %judge_lane_bad, %judge_bad, 0;\n",
      "  vote.sync.any.pred %judge_warp_bad, %judge_lane_bad, 0xffffffff;\n", "  selp.u32 %judge_verdict, ",
      static_cast<std::uint32_t>(DeviceVerdict::kDisagree), ", ", static_cast<std::uint32_t>(DeviceVerdict::kAgree),
      ", %judge_warp_bad;\n", "  mov.u32 %judge_sm, %smid;\n  shl.b32 %judge_sm, %judge_sm, 8;\n",
      "  or.b32 %judge_verdict, %judge_verdict, %judge_sm;\n",
      "  setp.eq.u32 %judge_first, %lane, 0;\n  @%judge_first st.global.u32 [%verdict], %judge_verdict;\n",
      "  rem.u32 %judge_sample, %block, ", kSampleEvery, ";\n", "  setp.eq.u32 %judge_sampled, %judge_sample, 0;\n",
      "  or.pred %judge_keep, %judge_warp_bad, %judge_sampled;\n  @!%judge_keep ret;\n  }\n");
  return ptx;
}

}  // namespace matload
