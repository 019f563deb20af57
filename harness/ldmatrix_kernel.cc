#include "harness/ldmatrix_kernel.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/kernel_text.h"
#include "reference/form.h"
#include "reference/ldmatrix_table.h"
#include "reference/printer.h"

namespace matload {

std::string LdmatrixKernel(const CheckedInstruction& instruction, int window_bytes) {
  const int registers = instruction.signature().destination_count;
  const bool explicit_shared = instruction.form().qualifiers.Present(ldmatrix::kStateSpace);
  Form form = instruction.form();
  std::vector<std::string> destination;
  for (int i = 0; i < registers; ++i) destination.push_back(absl::StrCat("%v", i));
  form.operands = {VectorOperand{destination}, AddressOperand{explicit_shared ? "%shared_row" : "%generic_row", 0}};
  form.guard.reset();

  std::string ptx = absl::StrCat(".version ", instruction.ptx().ToString(), "\n.target ", instruction.target().Name(),
                                 "\n.address_size 64\n\n.visible .entry ", kLdmatrixEntry,
                                 "(.param .u64 data, .param .u64 row_offsets, .param .u64 out)\n{\n");
  absl::StrAppend(&ptx, "  .shared .align 16 .b8 window[", window_bytes, "];\n",
                  "  .reg .b32 %lane, %shared_row;\n",
                  "  .reg .b64 %data, %offsets, %out, %at, %offset, %base, %generic_row;\n",
                  "  .reg .b32 %v<", registers, ">;\n",
                  "  ld.param.u64 %data, [data];\n  ld.param.u64 %offsets, [row_offsets];\n",
                  "  ld.param.u64 %out, [out];\n  cvta.to.global.u64 %data, %data;\n",
                  "  cvta.to.global.u64 %offsets, %offsets;\n  cvta.to.global.u64 %out, %out;\n",
                  "  mov.u32 %lane, %tid.x;\n  mov.u64 %base, window;\n",
                  SharedWindowCopy("window", window_bytes, "%data"),
                  // This lane's row address.
                  "  mul.wide.u32 %at, %lane, 8;\n  add.u64 %at, %offsets, %at;\n  ld.global.u64 %offset, [%at];\n",
                  "  add.u64 %generic_row, %base, %offset;\n  cvt.u32.u64 %shared_row, %generic_row;\n",
                  "  cvta.shared.u64 %generic_row, %generic_row;\n",
                  "  ", PrintForm(form), "\n",
                  // Store every register of this lane.
                  "  mul.wide.u32 %at, %lane, ", registers * 4, ";\n  add.u64 %at, %out, %at;\n");
  for (int i = 0; i < registers; ++i) absl::StrAppend(&ptx, "  st.global.u32 [%at+", 4 * i, "], %v", i, ";\n");
  absl::StrAppend(&ptx, "  ret;\n}\n");
  return ptx;
}

}  // namespace matload
