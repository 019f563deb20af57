#include "harness/families/ldmatrix/ldmatrix_kernel.h"

#include "absl/strings/str_cat.h"
#include "reference/form.h"
#include "reference/ldmatrix_table.h"
#include "reference/outcome.h"
#include "reference/printer.h"

namespace matload {

KernelFrame LdmatrixFrame(const CheckedInstruction& instruction) {
  return {.record_bytes = kRecordHeaderBytes + 8 * kWarpLanes,
          .window_bytes = kLdmatrixWindowBytes,
          .output_bytes = kWarpLanes * instruction.signature().destination_count * 4,
          .has_shared_window = true};
}

std::string LdmatrixKernel(const CheckedInstruction& instruction, PlantedBug bug) {
  const int registers = instruction.signature().destination_count;
  const bool explicit_shared = instruction.form().qualifiers.Present(ldmatrix::kStateSpace);
  Form form = instruction.form();
  std::vector<std::string> destination;
  for (int i = 0; i < registers; ++i) destination.push_back(absl::StrCat("%v", i));
  form.operands = {VectorOperand{destination}, AddressOperand{explicit_shared ? "%shared_row" : "%generic_row", 0}};
  form.guard.reset();

  std::string ptx = KernelPrologue(instruction, kLdmatrixEntry, LdmatrixFrame(instruction));
  absl::StrAppend(&ptx, "  .reg .b32 %shared_row;\n  .reg .b64 %offset, %generic_row, %shared_row64;\n",
                  "  .reg .b32 %v<", registers, ">;\n",
                  // This lane's row address.
                  "  mul.wide.u32 %block_at, %lane, 8;\n  add.u64 %block_at, %record, %block_at;\n",
                  "  ld.global.u64 %offset, [%block_at+", kRecordHeaderBytes, "];\n");
  if (bug == PlantedBug::kOffByOneRow) absl::StrAppend(&ptx, "  add.u64 %offset, %offset, 16;\n");
  absl::StrAppend(&ptx, "  add.u64 %generic_row, %window, %offset;\n",
                  "  cvta.to.shared.u64 %shared_row64, %generic_row;\n  cvt.u32.u64 %shared_row, %shared_row64;\n",
                  "  ", PrintForm(form), "\n", StoreRegistersAndReturn(registers, 32, bug));
  return ptx;
}

}  // namespace matload
