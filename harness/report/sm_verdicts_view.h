// SmVerdictsView: a run's GPU-judge verdicts by GPU and SM
// (harness/runs/sm_verdicts.h) as a fleet reads them: per GPU, how many
// SMs gave verdicts, how evenly, and which called blocks wrong, in a
// sentence (summary.md and the page) and a strip of one cell per SM (the
// page's inline SVG).
#ifndef MATLOAD_HARNESS_REPORT_SM_VERDICTS_VIEW_H_
#define MATLOAD_HARNESS_REPORT_SM_VERDICTS_VIEW_H_

#include <cstdint>
#include <string>
#include <vector>

#include "harness/runs/sm_verdicts.h"

namespace matload {

// GpuSms is one GPU's SMs and their counts, by SM number.
struct GpuSms {
  int gpu = 0;
  std::vector<std::pair<std::uint32_t, SmCounts>> sms;
};

// ByGpu splits `verdicts` by GPU, in ordinal order.
std::vector<GpuSms> ByGpu(const SmVerdicts& verdicts);

// SmSentence says, for one GPU, how many SMs gave verdicts, the fewest and
// most blocks one gave, and the SMs that called blocks wrong:
// "GPU 0: 132 SMs gave verdicts, 3,729,617 to 3,750,150 blocks each; SMs
// that called blocks wrong: none."
std::string SmSentence(const GpuSms& gpu);

// SmStripSvg draws one GPU's SMs as a strip of cells from SM 0 to its
// highest: the shade says how many blocks, red that some were called
// wrong, grey that the SM gave no verdict; each cell's title says its
// counts.
std::string SmStripSvg(const GpuSms& gpu);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_SM_VERDICTS_VIEW_H_
