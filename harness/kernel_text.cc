#include "harness/kernel_text.h"

#include "absl/strings/str_cat.h"

namespace matload {

std::string SharedWindowCopy(absl::string_view window, int window_bytes, absl::string_view source) {
  return absl::StrCat("  {\n  .reg .b32 %copy_i, %copy_word, %copy_base, %copy_to;\n  .reg .b64 %copy_from;\n",
                      "  .reg .pred %copy_more;\n  mov.u64 %copy_from, ", window, ";\n",
                      "  cvt.u32.u64 %copy_base, %copy_from;\n  mov.u32 %copy_i, %tid.x;\n  shl.b32 %copy_i, %copy_i, 2;\n",
                      "COPY:\n  setp.lt.u32 %copy_more, %copy_i, ", window_bytes, ";\n  @!%copy_more bra COPIED;\n",
                      "  cvt.u64.u32 %copy_from, %copy_i;\n  add.u64 %copy_from, ", source, ", %copy_from;\n",
                      "  ld.global.u32 %copy_word, [%copy_from];\n",
                      "  add.u32 %copy_to, %copy_base, %copy_i;\n  st.shared.u32 [%copy_to], %copy_word;\n",
                      "  add.u32 %copy_i, %copy_i, 128;\n  bra COPY;\nCOPIED:\n  bar.sync 0;\n  }\n");
}

}  // namespace matload
