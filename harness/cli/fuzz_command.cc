#include "harness/cli/fuzz_command.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <system_error>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "harness/cli/progress_reporter.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/output_files.h"
#include "harness/platform/process_tree.h"
#include "harness/platform/subprocess.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// kFuzzCommand names matload fuzz in its failure messages (ReportFailure).
constexpr absl::string_view kFuzzCommand = "matload fuzz";

namespace fs = std::filesystem;

// kTargetNames lists the fuzz targets, for messages.
constexpr absl::string_view kTargetNames = "text, legality, reference, cli and device";

// SeedCorpora maps each fuzz target to the corpora/fuzz/ directory it starts from.
const std::map<std::string, std::string>& SeedCorpora() {
  static const auto* const kSeeds = new std::map<std::string, std::string>{
      {"text", "text_fuzzer"}, {"legality", "cases"}, {"reference", "cases"}, {"cli", "cli"}, {"device", "cases"}};
  return *kSeeds;
}

// Campaign is one target's running fuzzer and what has been read of it.
struct Campaign {
  std::string name;
  std::string binary;  // the NAME_fuzzer that runs it
  fs::path directory;
  std::optional<BackgroundProcess> process;
  FuzzerStatus status;
  std::set<std::string> signatures;  // findings' directories
  std::int64_t cases = 0;            // filings, counting repeats
  std::int64_t crash_files = 0;
  std::string note;  // what the fuzzer said about itself ("needs a GPU: ...")
  std::optional<int> exit_code;
};

// ReadLog reads the newest status line of a fuzzer's log, and any line
// that says the target cannot do its work.
void ReadLog(Campaign& campaign) {
  // Only the log's tail: status lines come every few seconds, and the whole
  // log of a long campaign is large.
  constexpr std::streamoff kTail = 1 << 16;
  std::ifstream log(campaign.directory / "fuzzer.log");
  log.seekg(0, std::ios::end);
  const std::streamoff size = log.tellg();
  log.seekg(size > kTail ? size - kTail : 0);
  std::string line;
  while (std::getline(log, line)) {
    if (std::optional<FuzzerStatus> status = ParseFuzzerStatus(line)) campaign.status = *status;
    if (line.find("needs a GPU:") != std::string::npos) campaign.note = line;
  }
}

// Entries lists `directory`'s entries of `type`, never throwing: a
// directory that cannot be read (yet) has none.
std::vector<fs::path> Entries(const fs::path& directory, fs::file_type type) {
  std::vector<fs::path> entries;
  std::error_code error;
  for (fs::directory_iterator entry(directory, error), end; !error && entry != end; entry.increment(error)) {
    if (entry->status(error).type() == type) entries.push_back(entry->path());
  }
  return entries;
}

// CountFindings counts the campaign's findings (by signature and by case)
// and crash files so far.
void CountFindings(Campaign& campaign) {
  for (const fs::path& finding : Entries(campaign.directory / "findings", fs::file_type::directory)) {
    campaign.signatures.insert(finding.filename().string());
  }
  campaign.cases = 0;
  for (const std::string& signature : campaign.signatures) {
    std::ifstream cases(campaign.directory / "findings" / signature / "cases.txt");
    std::string line;
    while (std::getline(cases, line)) ++campaign.cases;
  }
  campaign.crash_files =
      static_cast<std::int64_t>(Entries(campaign.directory / "crashes", fs::file_type::regular).size());
}

// WriteCoverageRows writes one coverage.tsv row per target.
void WriteCoverageRows(const std::vector<Campaign>& campaigns, std::int64_t elapsed, std::ostream& coverage) {
  for (const Campaign& c : campaigns) {
    coverage << elapsed << "\t" << c.name << "\t" << c.status.runs << "\t" << c.status.coverage << "\t"
             << c.status.features << "\t" << c.status.corpus << "\t" << c.cases << "\t" << c.signatures.size() << "\n";
  }
}

// ProgressDetail is each target's coverage and findings, for the progress
// line (the full figures are in coverage.tsv and summary.md).
std::string ProgressDetail(const std::vector<Campaign>& campaigns) {
  std::string detail;
  for (const Campaign& c : campaigns) {
    absl::StrAppendFormat(&detail, "%s%s cov %d, %d findings", detail.empty() ? "" : "; ", c.name, c.status.coverage,
                          c.cases);
  }
  return detail;
}

// RanNothing names the targets whose campaign ran no input: a campaign
// that judged nothing is never clean.
std::vector<std::string> RanNothing(const std::vector<Campaign>& campaigns) {
  std::vector<std::string> idle;
  for (const Campaign& c : campaigns) {
    if (c.status.runs == 0) idle.push_back(c.name);
  }
  return idle;
}

// Runs is the executions of every target so far.
size_t Runs(const std::vector<Campaign>& campaigns) {
  std::int64_t runs = 0;
  for (const Campaign& c : campaigns) runs += c.status.runs;
  return static_cast<size_t>(runs);
}

std::string SummaryMarkdown(const FuzzCampaignOptions& options, const std::vector<Campaign>& campaigns,
                            std::int64_t elapsed) {
  std::string text = absl::StrFormat(
      "# matload fuzz\n\n%d s per target, %d job(s) each, seed %d, all targets at once; %d s in all.\n\n"
      "| target | runs | exec/s | coverage (cov) | features (ft) | corpus | crashes | findings | signatures |\n"
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
      options.seconds, options.jobs, options.seed, elapsed);
  for (const Campaign& c : campaigns) {
    absl::StrAppendFormat(&text, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", c.name, c.status.runs,
                          c.status.seconds > 0 ? c.status.runs / c.status.seconds : 0, c.status.coverage,
                          c.status.features, c.status.corpus, c.crash_files, c.cases, c.signatures.size());
  }
  absl::StrAppend(
      &text, "\nexec/s is runs over the fuzzers' own time; the fork-mode status line's exec/s is the last job's.\n");
  for (const Campaign& c : campaigns) {
    if (!c.note.empty()) absl::StrAppend(&text, "\n- ", c.name, ": ", c.note);
    for (const std::string& signature : c.signatures) {
      std::ifstream finding(c.directory / "findings" / signature / "finding.md");
      std::string title;
      std::getline(finding, title);
      absl::StrAppend(&text, "\n- ", c.name, ": `findings/", signature, "`: ", title.substr(title.find(' ') + 1));
    }
  }
  return text + "\n";
}

std::string SummaryJson(const std::vector<Campaign>& campaigns, std::int64_t elapsed) {
  nlohmann::json json = {{"seconds", elapsed}, {"targets", nlohmann::json::array()}};
  for (const Campaign& c : campaigns) {
    json["targets"].push_back({{"target", c.name},
                               {"runs", c.status.runs},
                               {"coverage", c.status.coverage},
                               {"features", c.status.features},
                               {"corpus", c.status.corpus},
                               {"crashes", c.crash_files},
                               {"findings", c.cases},
                               {"signatures", std::vector<std::string>(c.signatures.begin(), c.signatures.end())},
                               {"exit_code", c.exit_code.value_or(-1)},
                               {"note", c.note}});
  }
  return json.dump(2) + "\n";
}

// FindFuzzer is the first NAME_fuzzer in `directories`, as an absolute path.
absl::StatusOr<std::string> FindFuzzer(const std::string& name, const std::vector<std::string>& directories) {
  for (const std::string& directory : directories) {
    std::error_code error;
    const fs::path candidate = fs::absolute(fs::path(directory) / absl::StrCat(name, "_fuzzer"), error);
    if (!error && fs::exists(candidate, error)) return candidate.string();
  }
  return absl::NotFoundError(absl::StrCat(
      "no ", name, "_fuzzer in ", absl::StrJoin(directories, ", "),
      "; build the fuzz targets with `cmake --preset fuzz && cmake --build --preset fuzz` (the device target: "
      "the fuzz-device preset)"));
}

// PrepareCampaigns checks the options, finds every target's fuzzer and
// makes the run directory, before any fuzzer starts.
// CampaignCaseId names a target's campaign as a case of the run.
std::string CampaignCaseId(absl::string_view target) { return absl::StrCat("fuzz.", target); }

// CaseToken keeps letters, digits, '_' and '-' of a file name, and writes
// '_' for anything else, so that it can stand in a case ID.
std::string CaseToken(absl::string_view name) {
  std::string token(name);
  for (char& c : token) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-') c = '_';
  }
  return token;
}

// CampaignCases are the case records of a finished campaign: the campaign
// itself ("pass", or "finding" when it filed or crashed), then one case per
// finding signature and per crash file, each a finding with its directory.
std::vector<CaseRecord> CampaignCases(const Campaign& campaign, const fs::path& run_directory) {
  const std::string id = CampaignCaseId(campaign.name);
  const bool found = campaign.cases > 0 || campaign.crash_files > 0;
  std::vector<CaseRecord> records = {{.id = id,
                                      .outcome = found                   ? CaseOutcome::kFinding
                                                 : campaign.note.empty() ? CaseOutcome::kPass
                                                                         : CaseOutcome::kUnsupported,
                                      .finding = found,
                                      .campaign = CampaignFigures{.runs = campaign.status.runs,
                                                                  .findings = campaign.cases,
                                                                  .crashes = campaign.crash_files,
                                                                  .coverage = campaign.status.coverage,
                                                                  .corpus = campaign.status.corpus},
                                      .detail = campaign.note,
                                      .seconds = static_cast<double>(campaign.status.seconds)}};
  const std::string relative = fs::path(campaign.directory).lexically_relative(fs::absolute(run_directory)).string();
  for (const std::string& signature : campaign.signatures) {
    records.push_back({.id = absl::StrCat(id, ".finding.", CaseToken(signature)),
                       .outcome = CaseOutcome::kFinding,
                       .finding = true,
                       .bundle = absl::StrCat(relative, "/findings/", signature)});
  }
  for (const fs::path& crash : Entries(campaign.directory / "crashes", fs::file_type::regular)) {
    const std::string name = crash.filename().string();
    records.push_back({.id = absl::StrCat(id, ".crash.", CaseToken(name)),
                       .outcome = CaseOutcome::kCrash,
                       .finding = true,
                       .bundle = absl::StrCat(relative, "/crashes/", name)});
  }
  return records;
}

absl::StatusOr<std::vector<Campaign>> PrepareCampaigns(const FuzzCampaignOptions& options) {
  if (options.targets.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("--targets names none of ", kTargetNames));
  }
  if (options.seconds <= 0 || options.jobs <= 0) {
    return absl::InvalidArgumentError("--seconds and --jobs must be positive");
  }
  const auto unknown = std::find_if(options.targets.begin(), options.targets.end(),
                                    [](const std::string& name) { return !SeedCorpora().contains(name); });
  if (unknown != options.targets.end()) {
    return absl::InvalidArgumentError(absl::StrCat("unknown target '", *unknown, "'; the targets are ", kTargetNames));
  }
  std::vector<Campaign> campaigns;
  for (const std::string& name : options.targets) {
    if (!options.shard.Takes(name)) continue;
    if (options.journal != nullptr && options.journal->Recorded(CampaignCaseId(name))) continue;
    absl::StatusOr<std::string> binary = FindFuzzer(name, options.fuzzer_dirs);
    if (!binary.ok()) return binary.status();
    std::error_code error;
    const fs::path directory = fs::absolute(fs::path(options.out) / name, error);
    if (error) return absl::FailedPreconditionError(absl::StrCat("--out ", options.out, ": ", error.message()));
    campaigns.push_back({.name = name, .binary = *binary, .directory = directory});
  }
  if (absl::Status made = CreateDirectories(options.out); !made.ok()) return made;
  for (const Campaign& campaign : campaigns) {
    for (const char* sub : {"corpus", "findings", "crashes"}) {
      if (absl::Status made = CreateDirectories(campaign.directory / sub); !made.ok()) return made;
    }
  }
  return campaigns;
}

// FuzzerArguments is the libFuzzer command line of one campaign.
std::vector<std::string> FuzzerArguments(const FuzzCampaignOptions& options, const Campaign& campaign) {
  return {campaign.binary,
          absl::StrCat("-fork=", options.jobs),
          "-ignore_crashes=1",
          absl::StrCat("-max_total_time=", options.seconds),
          absl::StrCat("-seed=", options.seed),
          "-max_len=8192",
          "-print_funcs=0",
          absl::StrCat("-dict=", (fs::path(options.source_dir) / "fuzz" / "ptx.dict").string()),
          absl::StrCat("-artifact_prefix=", (campaign.directory / "crashes").string(), "/"),
          (campaign.directory / "corpus").string(),
          (fs::path(options.source_dir) / "corpora" / "fuzz" / SeedCorpora().at(campaign.name)).string()};
}

// StopAll stops every campaign's fuzzer that is still running.
void StopAll(std::vector<Campaign>& campaigns) {
  for (Campaign& campaign : campaigns) {
    if (campaign.process.has_value() && !campaign.exit_code.has_value()) campaign.exit_code = campaign.process->Stop();
  }
}

// kStopGrace is how long a stopped campaign's fuzzers get to end before
// they are killed.
constexpr auto kStopGrace = std::chrono::seconds(30);

// AnyRunning polls every campaign's fuzzer and says whether one still runs.
bool AnyRunning(std::vector<Campaign>& campaigns) {
  bool running = false;
  for (Campaign& campaign : campaigns) {
    if (!campaign.process.has_value()) continue;  // never started
    if (!campaign.exit_code.has_value()) campaign.exit_code = campaign.process->Poll();
    running |= !campaign.exit_code.has_value();
  }
  return running;
}

// InterruptCampaigns stops every campaign's fuzzer and its -fork jobs.
// BackgroundProcess::Stop's SIGINT reaches only the libFuzzer parent, which
// ignores it while system() runs a job (system(3)); so every process below
// matload gets SIGINT, again until the parents have ended (a parent ends
// when a job is interrupted) or kStopGrace has passed, then SIGKILL.
void InterruptCampaigns(std::vector<Campaign>& campaigns) {
  const auto deadline = std::chrono::steady_clock::now() + kStopGrace;
  while (AnyRunning(campaigns) && std::chrono::steady_clock::now() < deadline) {
    for (const pid_t pid : Descendants(getpid())) kill(pid, SIGINT);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (AnyRunning(campaigns)) {
    for (const pid_t pid : Descendants(getpid())) kill(pid, SIGKILL);
  }
  StopAll(campaigns);
}

// StartCampaigns starts every campaign's fuzzer; if one cannot start, it
// stops those already running.
absl::Status StartCampaigns(const FuzzCampaignOptions& options, std::vector<Campaign>& campaigns) {
  for (Campaign& campaign : campaigns) {
    std::vector<std::string> environment = {
        absl::StrCat("MATLOAD_FINDINGS_DIR=", (campaign.directory / "findings").string()),
        absl::StrCat("MATLOAD_SOURCE_DIR=", options.source_dir)};
    if (campaign.name == "device" && !options.gpus.empty()) {
      environment.push_back(absl::StrCat("CUDA_VISIBLE_DEVICES=", options.gpus));
    }
    absl::StatusOr<BackgroundProcess> process = BackgroundProcess::Start(
        FuzzerArguments(options, campaign), environment, (campaign.directory / "fuzzer.log").string());
    if (!process.ok()) {
      InterruptCampaigns(campaigns);
      return process.status();
    }
    campaign.process = *std::move(process);
  }
  return absl::OkStatus();
}

// CampaignEnd is how the watch ended: after how long, and the signal that
// interrupted it (0 if none).
struct CampaignEnd {
  std::int64_t elapsed = 0;
  int signal = 0;
};

// WatchCampaigns polls the fuzzers once a second until all have ended, a
// deadline passed or SIGINT/SIGTERM arrived (harness/platform/interrupt.h; for
// either it stops them with InterruptCampaigns), reading their progress
// into `campaigns`, a row per target into `coverage` every 10 s and the
// executions so far to `progress`.
CampaignEnd WatchCampaigns(const FuzzCampaignOptions& options, std::vector<Campaign>& campaigns, std::ostream& coverage,
                           ProgressReporter& progress) {
  const auto start = std::chrono::steady_clock::now();
  progress.StartPhase("fuzz", 0);
  progress.SetDeadline(absl::Now() + absl::Seconds(options.seconds));
  const auto deadline = start + std::chrono::seconds(options.seconds + 120);
  CampaignEnd end;
  std::int64_t next_row = 0;  // coverage.tsv gets a row every 10 s
  for (bool running = true; running;) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    end.elapsed = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count();
    end.signal = PendingInterrupt();
    if (end.signal != 0 || std::chrono::steady_clock::now() > deadline) InterruptCampaigns(campaigns);
    running = AnyRunning(campaigns);
    for (Campaign& campaign : campaigns) {
      ReadLog(campaign);
      CountFindings(campaign);
    }
    if (end.elapsed >= next_row || !running) {
      WriteCoverageRows(campaigns, end.elapsed, coverage);
      next_row = end.elapsed + 10;
    }
    progress.Update(Runs(campaigns), ProgressDetail(campaigns));
  }
  progress.Finish();
  return end;
}

}  // namespace

std::optional<FuzzerStatus> ParseFuzzerStatus(absl::string_view line) {
  if (line.empty() || line[0] != '#') return std::nullopt;
  const std::vector<absl::string_view> words = absl::StrSplit(line.substr(1), ' ', absl::SkipEmpty());
  if (words.empty() || words[0].empty() || words[0].back() != ':') return std::nullopt;
  FuzzerStatus status;
  if (!absl::SimpleAtoi(words[0].substr(0, words[0].size() - 1), &status.runs)) return std::nullopt;
  const std::map<absl::string_view, std::int64_t*> fields = {{"cov:", &status.coverage},
                                                             {"ft:", &status.features},
                                                             {"corp:", &status.corpus},
                                                             {"exec/s", &status.exec_per_second},
                                                             {"time:", &status.seconds}};
  int seen = 0;
  for (size_t i = 1; i + 1 < words.size(); ++i) {
    if (words[i] == "oom/timeout/crash:") {
      const std::vector<absl::string_view> counts = absl::StrSplit(words[i + 1], '/');
      if (counts.size() == 3 && absl::SimpleAtoi(counts[2], &status.crashes)) ++seen;
      continue;
    }
    auto field = fields.find(words[i]);
    if (field == fields.end()) continue;
    absl::string_view value = words[i + 1];
    if (words[i] == "time:") absl::ConsumeSuffix(&value, "s");
    if (!absl::SimpleAtoi(value, field->second)) return std::nullopt;
    ++seen;
  }
  if (seen != static_cast<int>(fields.size()) + 1) return std::nullopt;
  return status;
}

int RunFuzzCampaign(const FuzzCampaignOptions& options, std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::vector<Campaign>> campaigns = PrepareCampaigns(options);
  if (!campaigns.ok()) return ReportFailure(err, campaigns.status(), kFuzzCommand);
  if (campaigns->empty()) {
    out << "every target's campaign of this run is recorded already, or its shard takes none\n";
    return kExitClean;
  }
  if (absl::Status started = StartCampaigns(options, *campaigns); !started.ok()) {
    return ReportFailure(err, started, kFuzzCommand);
  }
  std::ofstream coverage(fs::path(options.out) / "coverage.tsv");
  coverage << "# seconds\ttarget\truns\tcov\tft\tcorpus\tfindings\tsignatures\n";
  ProgressReporter progress(err, "runs", ProgressReporter::ForStderr(options.progress_seconds, true));
  const CampaignEnd end = WatchCampaigns(options, *campaigns, coverage, progress);
  const std::string summary = SummaryMarkdown(options, *campaigns, end.elapsed);
  for (const auto& [name, text] :
       {std::pair{"summary.md", summary}, std::pair{"summary.json", SummaryJson(*campaigns, end.elapsed)}}) {
    if (absl::Status written = WriteFile(fs::path(options.out) / name, text); !written.ok()) {
      return ReportFailure(err, written, kFuzzCommand);
    }
  }
  if (!coverage.flush()) {
    return ReportFailure(err, absl::DataLossError(absl::StrCat("cannot write ", options.out, "/coverage.tsv")),
                         kFuzzCommand);
  }
  out << summary;
  if (end.signal != 0) return ReportFailure(err, InterruptedError(end.signal), kFuzzCommand);
  for (const Campaign& campaign : *campaigns) {
    if (options.journal == nullptr) break;
    if (absl::Status recorded = options.journal->Record(CampaignCases(campaign, options.out)); !recorded.ok()) {
      return ReportFailure(err, recorded, kFuzzCommand);
    }
  }
  bool found = false;
  for (const Campaign& campaign : *campaigns) found |= campaign.cases > 0 || campaign.crash_files > 0;
  if (found) return kExitFindings;
  if (const std::vector<std::string> idle = RanNothing(*campaigns); !idle.empty()) {
    return ReportFailure(
        err,
        InfrastructureError(InfrastructureCause::kHarnessTimeout,
                            absl::StrCat("no input ran on ", absl::StrJoin(idle, ", "), " in ", options.seconds,
                                         " s: its start-up took the whole campaign (give it more --seconds)")),
        kFuzzCommand);
  }
  return kExitClean;
}

}  // namespace matload
