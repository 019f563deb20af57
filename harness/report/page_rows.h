// PageRows: the rows of a page's data block (data_block.h) read back from
// the page's HTML as templates/report.js reads them, for the tests of the
// pages (run_report_test.cc, support_matrix_page_test.cc).
#ifndef MATLOAD_HARNESS_REPORT_PAGE_ROWS_H_
#define MATLOAD_HARNESS_REPORT_PAGE_ROWS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace matload {

// PageRows reads the block <script type="application/json" id="`id`"> of
// `html`: each row as an object from column name to its text, or list of
// texts. kNotFound where the page has no such block, kDataLoss where it
// does not parse.
absl::StatusOr<std::vector<nlohmann::json>> PageRows(const std::string& html, const std::string& id);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_PAGE_ROWS_H_
