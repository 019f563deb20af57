#include "harness/report/sm_verdicts_view.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/report/report_view.h"

namespace matload {
namespace {

constexpr int kCellWidth = 6, kCellHeight = 18;

}  // namespace

std::vector<GpuSms> ByGpu(const SmVerdicts& verdicts) {
  std::map<int, GpuSms> gpus;
  for (const auto& [where, counts] : verdicts) {
    GpuSms& gpu = gpus[where.first];
    gpu.gpu = where.first;
    gpu.sms.emplace_back(where.second, counts);
  }
  std::vector<GpuSms> ordered;
  for (auto& [ordinal, gpu] : gpus) ordered.push_back(std::move(gpu));
  return ordered;
}

std::string SmSentence(const GpuSms& gpu) {
  std::uint64_t fewest = UINT64_MAX, most = 0;
  std::vector<std::string> disagreeing;
  for (const auto& [sm, counts] : gpu.sms) {
    fewest = std::min(fewest, counts.blocks);
    most = std::max(most, counts.blocks);
    if (counts.disagreed > 0) {
      disagreeing.push_back(absl::StrCat("SM ", sm, " (", Thousands(static_cast<std::int64_t>(counts.disagreed)), ")"));
    }
  }
  return absl::StrCat("GPU ", gpu.gpu, ": ", gpu.sms.size(), gpu.sms.size() == 1 ? " SM" : " SMs", " gave verdicts, ",
                      Thousands(static_cast<std::int64_t>(fewest)), " to ", Thousands(static_cast<std::int64_t>(most)),
                      " blocks each; SMs that called blocks wrong: ",
                      disagreeing.empty() ? "none" : absl::StrJoin(disagreeing, ", "), ".");
}

std::string SmStripSvg(const GpuSms& gpu) {
  std::map<std::uint32_t, SmCounts> by_sm(gpu.sms.begin(), gpu.sms.end());
  const std::uint32_t cells = by_sm.empty() ? 0 : by_sm.rbegin()->first + 1;
  std::uint64_t most = 1;
  for (const auto& [sm, counts] : by_sm) most = std::max(most, counts.blocks);
  std::string svg = absl::StrFormat(
      "<svg class=\"sm-strip\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\" "
      "aria-label=\"GPU %d's SMs, by SM number\">",
      cells * kCellWidth, kCellHeight, gpu.gpu);
  for (std::uint32_t sm = 0; sm < cells; ++sm) {
    const auto found = by_sm.find(sm);
    const SmCounts counts = found == by_sm.end() ? SmCounts{} : found->second;
    const char* css = counts.disagreed > 0 ? "o-finding" : counts.blocks > 0 ? "o-agree" : "o-notrun";
    const double opacity = counts.disagreed > 0 || counts.blocks == 0
                               ? 1.0
                               : 0.35 + 0.65 * static_cast<double>(counts.blocks) / static_cast<double>(most);
    absl::StrAppendFormat(&svg,
                          "<rect class=\"%s\" x=\"%d\" y=\"0\" width=\"%d\" height=\"%d\" fill-opacity=\"%.2f\">"
                          "<title>GPU %d SM %d: %s blocks, %s called wrong</title></rect>",
                          css, sm * kCellWidth, kCellWidth - 1, kCellHeight, opacity, gpu.gpu, sm,
                          Thousands(static_cast<std::int64_t>(counts.blocks)),
                          Thousands(static_cast<std::int64_t>(counts.disagreed)));
  }
  return svg + "</svg>";
}

}  // namespace matload
