// DataBlock: the rows of one large table of a page, carried as one JSON
// data block that the page's own script (templates/report.js) renders,
// rather than as HTML: the 13,171 disagreements of a support sweep are
// 7.5 MB as rows of HTML. Every distinct string is kept once, and rows name
// strings by index; the columns most rows share values in (outcome,
// registry entry, message) are kept once per combination of their values.
#ifndef MATLOAD_HARNESS_REPORT_DATA_BLOCK_H_
#define MATLOAD_HARNESS_REPORT_DATA_BLOCK_H_

#include <string>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "nlohmann/json.hpp"

namespace matload {

class DataBlock {
 public:
  // Value is one column's value in a row: a text, or a list of texts
  // (a row's links, a matrix row's cells).
  using Value = std::variant<std::string, std::vector<std::string>>;

  // A DataBlock with `columns`, the names report.js reads each row's values
  // by. The first `distinct` columns differ from row to row (a case's ID);
  // the values of the others are kept once per combination.
  DataBlock(std::vector<std::string> columns, size_t distinct);

  // AddRow adds a row: one value per column, in the columns' order.
  void AddRow(const std::vector<Value>& values);

  // ScriptText is the block as the text of a <script type="application/json">:
  // {"columns": [...], "distinct": N, "strings": [...], "shared": [[...], ...],
  // "rows": [[...], ...]}: each row the values of its N distinct columns, then
  // the index in "shared" of the values of the others; each value the index
  // of its string in "strings" (a list: a list of indices). '<',
  // '>', '&' and '\'' are written \u003c, \u003e, \u0026 and \u0027, so that
  // no text ("</script>" in a message) can end the script element or start
  // markup, and the block holds none of the characters HTML escapes.
  std::string ScriptText() const;

 private:
  // Index is the index of `text` in strings_, added there if new.
  size_t Index(const std::string& text);

  // Indices is `value` as its index, or its list of indices.
  nlohmann::json Indices(const Value& value);

  std::vector<std::string> columns_;
  size_t distinct_;
  std::vector<std::string> strings_;
  absl::flat_hash_map<std::string, size_t> indices_;
  nlohmann::json shared_ = nlohmann::json::array();
  absl::flat_hash_map<std::string, size_t> shared_indices_;  // by the values' JSON
  nlohmann::json rows_ = nlohmann::json::array();
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_DATA_BLOCK_H_
