// RootCauses: a run's failing cases grouped as its bundles group them, one
// bundle a signature, most cases first, each with the one-line diagnosis
// and the lane x word picture its bundle's registers give (WordOrigins,
// WordPicture). A night with 1,528 failing rows and 14 signatures reads as
// 14 root causes first.
#ifndef MATLOAD_HARNESS_REPORT_ROOT_CAUSES_H_
#define MATLOAD_HARNESS_REPORT_ROOT_CAUSES_H_

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "harness/runs/case_record.h"

namespace matload {

// RootCause is one bundle of a run and the cases that point at it.
struct RootCause {
  std::string signature;              // the bundle's case.json "signature", else its index.tsv line's, else its name
  size_t cases = 0;                   // the run's cases in it
  const CaseRecord* first = nullptr;  // its first case, by ID
  std::string diagnosis;              // what the wrong words have in common, or the first case's detail
  std::string picture;                // the lane x word picture (SVG), or empty when the bundle holds no registers
};

// RootCauses groups `cases` (the failing cases of a run) by bundle, reading
// each bundle under `run_directory`; a bundle whose files are not at hand
// keeps its name and its first case's detail. Cases without a bundle are
// left out.
std::vector<RootCause> RootCauses(const std::vector<const CaseRecord*>& cases,
                                  const std::filesystem::path& run_directory);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_ROOT_CAUSES_H_
