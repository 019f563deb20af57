#include "harness/families/wmma/wmma_kernel.h"

#include "absl/strings/str_cat.h"
#include "reference/form.h"
#include "reference/outcome.h"
#include "reference/printer.h"
#include "reference/register_class.h"
#include "reference/wmma_load_table.h"

namespace matload {

KernelFrame WmmaFrame(const CheckedInstruction& instruction) {
  const OperandSignature& signature = instruction.signature();
  return {.record_bytes = kRecordHeaderBytes + 16,
          .window_bytes = kWmmaWindowBytes,
          .output_bytes = kWarpLanes * signature.destination_count * RegisterClassBits(signature.destination_class) / 8,
          .has_shared_window = signature.state_space != StateSpace::kGlobal};
}

std::string WmmaKernel(const CheckedInstruction& instruction, int shared_address_bits, PlantedBug bug) {
  const OperandSignature& signature = instruction.signature();
  const int registers = signature.destination_count;
  const int register_bits = RegisterClassBits(signature.destination_class);
  std::string address = "%generic_p";
  if (signature.state_space == StateSpace::kGlobal) address = "%global_p";
  if (signature.state_space == StateSpace::kShared) address = shared_address_bits == 32 ? "%shared_p32" : "%shared_p64";
  Form form = instruction.form();
  std::vector<std::string> destination;
  for (int i = 0; i < registers; ++i) destination.push_back(absl::StrCat("%v", i));
  form.operands = {VectorOperand{destination}, AddressOperand{address, 0}};
  if (signature.stride) form.operands.push_back(RegisterOperand{"%stride"});
  form.guard.reset();

  std::string ptx = KernelPrologue(instruction, kWmmaEntry, WmmaFrame(instruction));
  absl::StrAppend(&ptx, "  .reg .b32 %stride, %shared_p32, %pitch;\n",
                  "  .reg .b64 %offset, %generic_p, %global_p, %shared_p64, %pitch64;\n",
                  "  .reg .b", register_bits, " %v<", registers, ">;\n",
                  "  ld.global.u64 %offset, [%record+", kRecordHeaderBytes, "];\n",
                  "  ld.global.u32 %stride, [%record+", kRecordHeaderBytes + 8, "];\n");
  if (bug == PlantedBug::kOffByOneRow) {
    // One row (or column) further on: stride elements of the form's type.
    const int element_bits = wmma::ElementBits(static_cast<wmma::Type>(instruction.form().qualifiers.Get(wmma::kType)));
    absl::StrAppend(&ptx, "  mul.lo.u32 %pitch, %stride, ", element_bits, ";\n  shr.u32 %pitch, %pitch, 3;\n",
                    "  cvt.u64.u32 %pitch64, %pitch;\n  add.u64 %offset, %offset, %pitch64;\n");
  }
  absl::StrAppend(&ptx, "  add.u64 %generic_p, %window, %offset;\n");
  if (signature.state_space == StateSpace::kGlobal) {
    absl::StrAppend(&ptx, "  cvta.to.global.u64 %global_p, %generic_p;\n");
  } else if (signature.state_space == StateSpace::kShared) {
    absl::StrAppend(&ptx, "  cvta.to.shared.u64 %shared_p64, %generic_p;\n  cvt.u32.u64 %shared_p32, %shared_p64;\n");
  }
  absl::StrAppend(&ptx, "  ", PrintForm(form), "\n", StoreRegistersAndReturn(registers, register_bits, bug));
  return ptx;
}

}  // namespace matload
