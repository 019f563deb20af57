#include "harness/wmma_kernel.h"

#include "absl/strings/str_cat.h"
#include "harness/kernel_text.h"
#include "reference/form.h"
#include "reference/printer.h"
#include "reference/register_class.h"

namespace matload {

std::string WmmaKernel(const CheckedInstruction& instruction, const WmmaPlacement& placement) {
  const OperandSignature& signature = instruction.signature();
  const int registers = signature.destination_count;
  const int register_bits = RegisterClassBits(signature.destination_class);
  const bool shared_data = placement.data_space == StateSpace::kShared;
  // The address operand: a generic pointer, a global one, or a shared one of
  // the chosen width.
  std::string address = "%generic_p";
  if (signature.state_space == StateSpace::kGlobal) address = "%global_p";
  if (signature.state_space == StateSpace::kShared) {
    address = placement.shared_address_bits == 32 ? "%shared_p32" : "%shared_p64";
  }
  Form form = instruction.form();
  std::vector<std::string> destination;
  for (int i = 0; i < registers; ++i) destination.push_back(absl::StrCat("%v", i));
  form.operands = {VectorOperand{destination}, AddressOperand{address, 0}};
  if (signature.stride) form.operands.push_back(RegisterOperand{"%stride"});
  form.guard.reset();

  std::string ptx = absl::StrCat(".version ", instruction.ptx().ToString(), "\n.target ", instruction.target().Name(),
                                 "\n.address_size 64\n\n.visible .entry ", kWmmaEntry,
                                 "(.param .u64 data, .param .u64 args, .param .u64 out)\n{\n");
  if (shared_data) absl::StrAppend(&ptx, "  .shared .align 128 .b8 window[", placement.shared_window_bytes, "];\n");
  absl::StrAppend(&ptx, "  .reg .b32 %lane, %stride, %shared_p32;\n",
                  "  .reg .b64 %data, %args, %out, %at, %offset, %start, %generic_p, %global_p, %shared_p64;\n",
                  "  .reg .b", register_bits, " %v<", registers, ">;\n",
                  "  ld.param.u64 %data, [data];\n  ld.param.u64 %args, [args];\n  ld.param.u64 %out, [out];\n",
                  "  cvta.to.global.u64 %data, %data;\n  cvta.to.global.u64 %args, %args;\n",
                  "  cvta.to.global.u64 %out, %out;\n  mov.u32 %lane, %tid.x;\n",
                  "  ld.global.u64 %offset, [%args];\n  ld.global.u32 %stride, [%args+8];\n");
  if (shared_data) {
    absl::StrAppend(&ptx, SharedWindowCopy("window", placement.shared_window_bytes, "%data"),
                    "  mov.u64 %start, window;\n  add.u64 %shared_p64, %start, %offset;\n",
                    "  cvt.u32.u64 %shared_p32, %shared_p64;\n  cvta.shared.u64 %generic_p, %shared_p64;\n");
  } else {
    absl::StrAppend(&ptx, "  add.u64 %global_p, %data, %offset;\n  cvta.global.u64 %generic_p, %global_p;\n");
  }
  absl::StrAppend(&ptx, "  ", PrintForm(form), "\n", "  mul.wide.u32 %at, %lane, ", registers * register_bits / 8,
                  ";\n  add.u64 %at, %out, %at;\n");
  for (int i = 0; i < registers; ++i) {
    absl::StrAppend(&ptx, "  st.global.b", register_bits, " [%at+", i * register_bits / 8, "], %v", i, ";\n");
  }
  absl::StrAppend(&ptx, "  ret;\n}\n");
  return ptx;
}

std::vector<std::uint8_t> WmmaKernelArgs(std::uint64_t offset, std::uint32_t stride) {
  std::vector<std::uint8_t> args(16, 0);
  for (int b = 0; b < 8; ++b) args[b] = static_cast<std::uint8_t>(offset >> (8 * b));
  for (int b = 0; b < 4; ++b) args[8 + b] = static_cast<std::uint8_t>(stride >> (8 * b));
  return args;
}

}  // namespace matload
