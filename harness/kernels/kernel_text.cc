#include "harness/kernels/kernel_text.h"

#include "absl/strings/str_cat.h"

namespace matload {

std::string KernelPrologue(const CheckedInstruction& instruction, absl::string_view entry, const KernelFrame& frame,
                           absl::string_view module_scope) {
  std::string ptx = absl::StrCat(".version ", instruction.ptx().ToString(), "\n.target ", instruction.target().Name(),
                                 "\n.address_size 64\n\n", module_scope, ".visible .entry ", entry,
                                 "(.param .u64 records, .param .u64 scratch, .param .u64 out",
                                 frame.judged_on_device ? ", .param .u64 verdicts" : "", ")\n{\n");
  if (frame.has_shared_window) {
    absl::StrAppend(&ptx, "  .shared .align 128 .b8 window[", frame.window_bytes, "];\n",
                    "  .reg .b64 %shared_window;\n  .reg .pred %in_shared;\n");
  }
  absl::StrAppend(
      &ptx, "  .reg .b32 %lane, %block, %pattern, %placement;\n",
      "  .reg .b64 %record, %out, %window, %stream, %block_at;\n",
      "  ld.param.u64 %record, [records];\n  ld.param.u64 %window, [scratch];\n",
      "  ld.param.u64 %out, [out];\n  cvta.to.global.u64 %record, %record;\n",
      "  cvta.to.global.u64 %out, %out;\n  mov.u32 %lane, %tid.x;\n  mov.u32 %block, %ctaid.x;\n",
      "  mul.wide.u32 %block_at, %block, ", frame.record_bytes, ";\n", "  add.u64 %record, %record, %block_at;\n",
      "  mul.wide.u32 %block_at, %block, ", frame.window_bytes, ";\n", "  add.u64 %window, %window, %block_at;\n",
      "  mul.wide.u32 %block_at, %block, ", frame.output_bytes, ";\n", "  add.u64 %out, %out, %block_at;\n",
      frame.judged_on_device ? "  .reg .b64 %verdict;\n  ld.param.u64 %verdict, [verdicts];\n"
                               "  cvta.to.global.u64 %verdict, %verdict;\n"
                               "  mul.wide.u32 %block_at, %block, 4;\n  add.u64 %verdict, %verdict, %block_at;\n"
                             : "",
      "  ld.global.u64 %stream, [%record];\n  ld.global.u32 %pattern, [%record+8];\n",
      "  ld.global.u32 %placement, [%record+12];\n");
  if (frame.has_shared_window) {
    absl::StrAppend(&ptx, "  mov.u64 %shared_window, window;\n  cvta.shared.u64 %shared_window, %shared_window;\n",
                    "  setp.eq.u32 %in_shared, %placement, ", static_cast<std::uint32_t>(DataPlacement::kShared), ";\n",
                    "  selp.b64 %window, %shared_window, %window, %in_shared;\n");
  }
  if (frame.window_bytes > 0) {
    absl::StrAppend(&ptx, FillWindowPtx("%window", frame.window_bytes, "%pattern", "%stream"), "  bar.sync 0;\n");
  }
  return ptx;
}

std::string StoreRegistersPtx(int registers, int register_bits, PlantedBug bug, absl::string_view block_output) {
  const int register_bytes = register_bits / 8;
  std::string ptx = absl::StrCat("  {\n  .reg .b32 %store_lane;\n  .reg .b64 %store_at;\n  mov.u32 %store_lane, %lane;\n");
  if (bug == PlantedBug::kWrongLane) absl::StrAppend(&ptx, "  xor.b32 %store_lane, %store_lane, 1;\n");
  absl::StrAppend(&ptx, "  mul.wide.u32 %store_at, %store_lane, ", registers * register_bytes, ";\n",
                  "  add.u64 %store_at, ", block_output, ", %store_at;\n");
  for (int i = 0; i < registers; ++i) {
    if (bug == PlantedBug::kSkippedStore && i == registers - 1) continue;
    const int slot = bug == PlantedBug::kRegisterOrder ? registers - 1 - i : i;
    absl::StrAppend(&ptx, "  st.global.b", register_bits, " [%store_at+", slot * register_bytes, "], %v", i, ";\n");
  }
  return ptx + "  }\n";
}

std::string StoreRegistersAndReturn(int registers, int register_bits, PlantedBug bug) {
  std::string ptx;
  if (bug == PlantedBug::kHangingBlock) {
    // The record's pattern is re-read volatile, so the compiler cannot
    // prove the loop ends; only variant 0's pattern (tagged, 0) keeps it going.
    absl::StrAppend(&ptx, "  {\n  .reg .b32 %hang_pattern;\n  .reg .pred %hang;\nHANG_FOREVER:\n",
                    "  ld.volatile.global.u32 %hang_pattern, [%record+8];\n", "  setp.eq.u32 %hang, %hang_pattern, ",
                    static_cast<std::uint32_t>(DataPattern::kTagged), ";\n", "  @%hang bra HANG_FOREVER;\n  }\n");
  }
  return absl::StrCat(ptx, StoreRegistersPtx(registers, register_bits, bug, "%out"), "  ret;\n}\n");
}

void WriteRecordHeader(std::uint64_t stream, DataPattern pattern, DataPlacement placement,
                       absl::Span<std::uint8_t> header) {
  StoreLittleEndian(stream, header.subspan(0, 8));
  StoreLittleEndian(static_cast<std::uint32_t>(pattern), header.subspan(8, 4));
  StoreLittleEndian(static_cast<std::uint32_t>(placement), header.subspan(12, 4));
}

}  // namespace matload
