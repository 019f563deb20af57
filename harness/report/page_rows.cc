#include "harness/report/page_rows.h"

#include "absl/strings/str_cat.h"

namespace matload {
namespace {

// Text is the text, or list of texts, that `value` names in `strings`.
nlohmann::json Text(const nlohmann::json& strings, const nlohmann::json& value) {
  if (!value.is_array()) return strings.at(value.get<size_t>());
  nlohmann::json texts = nlohmann::json::array();
  for (const nlohmann::json& index : value) texts.push_back(strings.at(index.get<size_t>()));
  return texts;
}

}  // namespace

absl::StatusOr<std::vector<nlohmann::json>> PageRows(const std::string& html, const std::string& id) {
  const std::string start = absl::StrCat("<script type=\"application/json\" id=\"", id, "\">");
  const size_t begin = html.find(start);
  if (begin == std::string::npos) return absl::NotFoundError(absl::StrCat("the page has no data block ", id));
  const size_t from = begin + start.size();
  const size_t end = html.find("</script>", from);
  std::vector<nlohmann::json> rows;
  try {
    const nlohmann::json block = nlohmann::json::parse(html.substr(from, end - from));
    const size_t distinct = block.at("distinct");
    for (const nlohmann::json& row : block.at("rows")) {
      nlohmann::json values = nlohmann::json::array();
      for (size_t at = 0; at < distinct; ++at) values.push_back(row.at(at));
      for (const nlohmann::json& value : block.at("shared").at(row.at(distinct).get<size_t>())) values.push_back(value);
      nlohmann::json record = nlohmann::json::object();
      for (size_t at = 0; at < block.at("columns").size(); ++at) {
        record[block["columns"][at].get<std::string>()] = Text(block.at("strings"), values.at(at));
      }
      rows.push_back(std::move(record));
    }
  } catch (const nlohmann::json::exception& error) {
    return absl::DataLossError(absl::StrCat("data block ", id, " does not parse: ", error.what()));
  }
  return rows;
}

}  // namespace matload
