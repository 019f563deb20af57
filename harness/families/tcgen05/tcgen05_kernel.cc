#include "harness/families/tcgen05/tcgen05_kernel.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/kernels/data_pattern.h"
#include "reference/form.h"
#include "reference/outcome.h"
#include "reference/printer.h"
#include "reference/tcgen05_semantics.h"

namespace matload {
namespace {

// kFillColumns is how many columns one tcgen05.st of the fill writes.
constexpr int kFillColumns = 32;

// OutputRegisters counts what a lane stores: the destinations, then redval.
int OutputRegisters(const CheckedInstruction& instruction) {
  return instruction.signature().destination_count + (instruction.signature().redval ? 1 : 0);
}

}  // namespace

KernelFrame Tcgen05Frame(const CheckedInstruction& instruction) {
  return {.record_bytes = kRecordHeaderBytes + 16,
          .window_bytes = 0,
          .output_bytes = kWarpLanes * OutputRegisters(instruction) * 4,
          .has_shared_window = false};
}

std::string Tcgen05Kernel(const CheckedInstruction& instruction, PlantedBug bug) {
  const int registers = instruction.signature().destination_count;
  Form form = instruction.form();
  for (Operand& operand : form.operands) {
    if (auto* vector = std::get_if<VectorOperand>(&operand)) {
      for (int i = 0; i < registers; ++i) vector->elements[i] = absl::StrCat("%v", i);
    } else if (auto* redval = std::get_if<RegisterOperand>(&operand)) {
      redval->name = absl::StrCat("%v", registers);  // stored after the destinations
    } else if (auto* address = std::get_if<AddressOperand>(&operand)) {
      *address = AddressOperand{"%taddr", address->offset};
    }
  }
  form.guard.reset();

  std::string ptx = KernelPrologue(instruction, kTcgen05Entry, Tcgen05Frame(instruction));
  std::vector<std::string> fill;
  for (int i = 0; i < kFillColumns; ++i) fill.push_back(absl::StrCat("%fill", i));
  absl::StrAppend(&ptx, "  .shared .align 16 .b32 tmem_slot;\n",
                  "  .reg .b32 %slot, %tmem, %taddr, %offset, %chunk, %index, %column_address, %fill<", kFillColumns,
                  ">;\n  .reg .b64 %slot64;\n  .reg .pred %more;\n  .reg .b32 %v<", OutputRegisters(instruction),
                  ">;\n",
                  // 1. All 512 columns, so that the allocation starts at column 0.
                  "  mov.u64 %slot64, tmem_slot;\n  cvt.u32.u64 %slot, %slot64;\n",
                  "  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%slot], ", kTmemColumns, ";\n",
                  "  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n",
                  "  tcgen05.fence::before_thread_sync;\n  bar.sync 0;\n  tcgen05.fence::after_thread_sync;\n",
                  "  ld.shared.b32 %tmem, [tmem_slot];\n",
                  // 2. Lane t, column c: DataWord(pattern, stream, 512 t + c).
                  "  mov.u32 %chunk, 0;\nFILL_TMEM:\n");
  for (int i = 0; i < kFillColumns; ++i) {
    absl::StrAppend(&ptx, "  mad.lo.u32 %index, %lane, ", kTmemColumns, ", %chunk;\n  add.u32 %index, %index, ", i,
                    ";\n", DataWordPtx("%index", "%pattern", "%stream", fill[i]));
  }
  absl::StrAppend(&ptx, "  add.u32 %column_address, %tmem, %chunk;\n",
                  "  tcgen05.st.sync.aligned.32x32b.x", kFillColumns, ".b32 [%column_address], {",
                  absl::StrJoin(fill, ", "), "};\n  add.u32 %chunk, %chunk, ", kFillColumns, ";\n",
                  "  setp.lt.u32 %more, %chunk, ", kTmemColumns, ";\n  @%more bra FILL_TMEM;\n",
                  "  tcgen05.wait::st.sync.aligned;\n",
                  // 3. The form under test.
                  "  ld.global.u32 %offset, [%record+", kRecordHeaderBytes, "];\n");
  if (bug == PlantedBug::kOffByOneRow) absl::StrAppend(&ptx, "  add.u32 %offset, %offset, 1;\n");  // one column on
  absl::StrAppend(&ptx, "  add.u32 %taddr, %tmem, %offset;\n  ", PrintForm(form), "\n",
                  "  tcgen05.wait::ld.sync.aligned;\n",
                  // 4. Give the Tensor Memory back before storing.
                  "  tcgen05.fence::before_thread_sync;\n  bar.sync 0;\n  tcgen05.fence::after_thread_sync;\n",
                  "  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %tmem, ", kTmemColumns, ";\n",
                  StoreRegistersAndReturn(OutputRegisters(instruction), 32, bug));
  return ptx;
}

}  // namespace matload
