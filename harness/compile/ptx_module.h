// PtxModule: many snippets in one PTX module, each on lines of its own, so
// a compiler message can be traced back to its snippet by line number.
#ifndef MATLOAD_HARNESS_COMPILE_PTX_MODULE_H_
#define MATLOAD_HARNESS_COMPILE_PTX_MODULE_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

#include "reference/ptx_version.h"
#include "reference/raw_instruction.h"
#include "reference/target.h"

namespace matload {

// LineRange is the first and last (1-based) line a snippet occupies.
struct LineRange {
  int first = 0;
  int last = 0;
  bool Contains(int line) const { return line >= first && line <= last; }
};

// PtxModule is module text plus where each snippet landed.
struct PtxModule {
  std::string text;
  std::vector<LineRange> snippet_lines;  // one per snippet, in order

  // SnippetAt returns the index of the snippet on `line`, or -1.
  int SnippetAt(int line) const;
};

// kModuleEntry is the name of a module's one kernel.
inline constexpr absl::string_view kModuleEntry = "matload_check";

// BuildModule writes `.version ptx`, `.target target`, `.address_size 64` and
// one kernel, named `entry`, holding every snippet, one instruction per line. When all
// snippets share one declaration list it is written once; otherwise each
// snippet gets a { } scope with its own declarations. A snippet without
// declarations gets implicit ones: each name it uses, typed as its operand
// needs (reference/implicit_declarations.h).
PtxModule BuildModule(const std::vector<Snippet>& snippets, PtxVersion ptx, Target target,
                      absl::string_view entry = kModuleEntry);

// BuildSharedModule is BuildModule of snippets that all have
// `declarations` (not empty), given by their instructions as printed
// (PrintRaw): the same text, without a copy of the declarations per snippet.
PtxModule BuildSharedModule(const std::vector<Declaration>& declarations, const std::vector<std::string>& instructions,
                            PtxVersion ptx, Target target, absl::string_view entry = kModuleEntry);

// BuildTextModule is BuildModule for snippets kept as text (ones that do not
// parse): each text goes verbatim into a { } scope of its own.
PtxModule BuildTextModule(const std::vector<std::string>& texts, PtxVersion ptx, Target target,
                          absl::string_view entry = kModuleEntry);

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_PTX_MODULE_H_
