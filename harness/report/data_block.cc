#include "harness/report/data_block.h"

#include <utility>

#include "absl/strings/str_replace.h"

namespace matload {

DataBlock::DataBlock(std::vector<std::string> columns, size_t distinct)
    : columns_(std::move(columns)), distinct_(distinct) {}

size_t DataBlock::Index(const std::string& text) {
  const auto [found, added] = indices_.try_emplace(text, strings_.size());
  if (added) strings_.push_back(text);
  return found->second;
}

nlohmann::json DataBlock::Indices(const Value& value) {
  if (const std::string* text = std::get_if<std::string>(&value)) return Index(*text);
  nlohmann::json indices = nlohmann::json::array();
  for (const std::string& text : std::get<std::vector<std::string>>(value)) indices.push_back(Index(text));
  return indices;
}

void DataBlock::AddRow(const std::vector<Value>& values) {
  nlohmann::json row = nlohmann::json::array();
  nlohmann::json shared = nlohmann::json::array();
  for (size_t column = 0; column < values.size(); ++column) {
    (column < distinct_ ? row : shared).push_back(Indices(values[column]));
  }
  const auto [found, added] = shared_indices_.try_emplace(shared.dump(), shared_.size());
  if (added) shared_.push_back(std::move(shared));
  row.push_back(found->second);
  rows_.push_back(std::move(row));
}

std::string DataBlock::ScriptText() const {
  const nlohmann::json block = {
      {"columns", columns_}, {"distinct", distinct_}, {"strings", strings_}, {"shared", shared_}, {"rows", rows_}};
  // Invalid UTF-8 (a compiler's message is bytes) is replaced, not thrown.
  const std::string text = block.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // In JSON these characters occur only inside strings, where the escapes mean them.
  return absl::StrReplaceAll(text, {{"<", "\\u003c"}, {">", "\\u003e"}, {"&", "\\u0026"}, {"'", "\\u0027"}});
}

}  // namespace matload
