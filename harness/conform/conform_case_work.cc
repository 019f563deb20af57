#include "harness/conform/conform_case_work.h"

#include <algorithm>
#include <optional>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "harness/conform/bundle_writer.h"
#include "harness/gpu/cuda_driver.h"
#include "harness/gpu/device_sweep_run.h"
#include "harness/gpu/launch_outcome.h"
#include "harness/gpu/launch_pipeline.h"

namespace matload {
namespace {

// Made is one variant of an item and its role.
struct Made {
  Variant variant;
  VariantRole role = VariantRole::kDefined;
  std::string entry;  // the registry entry that predicts its fault, if any
};

// MayBeUndefined says whether the model may call one of `work`'s variants
// undefined. Without undefined variants asked for, the generator makes
// only variants the program's own model predicts (TestProgram::MakeVariant;
// TestProgramTest.WithoutUndefinedEveryVariantIsPredicted). A planted
// transposed expectation is another form's model, which need not agree;
// every other planted bug is in a kernel, and leaves the model as it is.
bool MayBeUndefined(const CaseWork& work) {
  return work.undefined || work.program->options().bug == PlantedBug::kTransposedExpectation;
}

// Make makes the item's variant `index` on host thread `thread`. The model
// is asked here only where it may call the variant undefined; the judge
// asks it in any case.
Made Make(const CaseWork& work, const CaseWorkContext& context, std::int64_t index, int thread) {
  Made made{.variant = work.program->MakeVariant(work.seed, static_cast<int>(index), work.undefined)};
  if (MayBeUndefined(work) && std::holds_alternative<Undefined>(work.program->Expect(made.variant))) {
    made.role = VariantRole::kUndefined;
    return made;
  }
  if (context.predict) made.entry = context.predict(work.program->FaultCaseText(made.variant), thread);
  made.role = made.entry.empty() ? VariantRole::kDefined : VariantRole::kPredicted;
  return made;
}

// CountLeftOut counts a variant a defined item does not run, for the items
// that will.
void CountLeftOut(const CaseWork& work, const Made& made, CaseSummary& summary) {
  if (work.take != VariantRole::kDefined) return;
  if (made.role == VariantRole::kUndefined) ++summary.undefined;
  if (made.role == VariantRole::kPredicted)
    summary.predicted[made.entry].Add({.count = 1, .first = made.variant.index});
}

// Signature is a finding's bundle signature (bundle_writer.h); others have none.
std::string Signature(const TestProgram& program, const Variant& variant, const Outcome& expected,
                      const CaseVerdict& verdict) {
  if (!IsFinding(verdict.kind)) return "";
  return BundleSignature({.program = &program, .variant = variant, .verdict = verdict, .expected = expected});
}

// CaseBatches is an item as the pipeline's batches: block b of batch k is
// the item's index k * blocks + b, or a filler where that variant's role
// is not the item's.
class CaseBatches : public BatchSource {
 public:
  CaseBatches(const CaseWork& work, const CaseWorkContext& context, size_t blocks, Made filler,
              std::vector<CaseSummary>& summaries)
      : work_(work), context_(context), blocks_(blocks), filler_(std::move(filler)), summaries_(summaries) {}

  size_t BlocksIn(std::uint64_t batch) const override {
    const size_t first = batch * blocks_;
    return first >= work_.size() ? 0 : std::min(blocks_, work_.size() - first);
  }

  bool Fill(int thread, std::uint64_t batch, size_t block, Variant& variant) const override {
    Made made = Make(work_, context_, work_.IndexAt(batch * blocks_ + block), thread);
    if (Takes(work_, made.role, made.entry)) {
      variant = made.variant;
      return true;
    }
    CountLeftOut(work_, made, summaries_[thread]);
    variant = filler_.variant;
    return false;
  }

 private:
  const CaseWork& work_;
  const CaseWorkContext& context_;
  const size_t blocks_;
  const Made filler_;
  std::vector<CaseSummary>& summaries_;  // per host thread
};

// FirstTaken is the first variant the item runs, if any.
std::optional<Made> FirstTaken(const CaseWork& work, const CaseWorkContext& context) {
  for (size_t position = 0; position < work.size(); ++position) {
    Made made = Make(work, context, work.IndexAt(position), 0);
    if (Takes(work, made.role, made.entry)) return made;
  }
  return std::nullopt;
}

// Rejection is the verdict on every variant of a form whose module
// `error` says the compiler rejected, if it says so.
std::optional<CaseVerdict> Rejection(const absl::Status& error) {
  const LaunchOutcome outcome = ClassifyLaunchError(error);
  if (outcome.kind != LaunchOutcome::Kind::kCompileRejected) return std::nullopt;
  return CaseVerdict{.kind = CaseClass::kLegalRejected, .detail = outcome.detail};
}

// WordsPerVariant is how many register words the model predicts for a
// defined variant of the item, such as `filler`: what a variant the device
// judged alone compared.
size_t WordsPerVariant(const CaseWork& work, const Made& filler) {
  const Outcome expected = work.program->Expect(filler.variant);
  const auto* values = std::get_if<LaneValues>(&expected);
  return values != nullptr ? values->words.size() : 0;
}

// RunPipelined runs the item through the launch pipeline on the worker's
// GPU, with `filler` in the blocks of variants it does not take, in the
// kernel the device judges where the item has one.
absl::StatusOr<CaseSummary> RunPipelined(const CaseWork& work, const CaseWorkContext& context, Made filler) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(context.device);
  if (!jit.ok()) return jit.status();
  const TestProgram& launched = work.device_judged != nullptr ? *work.device_judged : *work.program;
  absl::StatusOr<std::string> image = ProgramImage(launched, work.path);
  if (!image.ok()) return image.status();
  const TestProgram& program = *work.program;
  const size_t device_words = launched.frame().judged_on_device ? WordsPerVariant(work, filler) : 0;
  std::vector<CaseSummary> summaries(context.threads);
  const size_t blocks = std::min<size_t>(context.blocks, work.size());
  const CaseBatches source(work, context, blocks, std::move(filler), summaries);
  const PipelineLaunch launch =
      [&](int slot, absl::Span<const Variant> variants,
          absl::Span<const std::uint8_t> records) -> absl::StatusOr<absl::Span<const std::uint8_t>> {
    const DriverJit::KernelLaunch kernel = KernelLaunchFor(launched, variants.size(), records);
    absl::StatusOr<absl::Span<std::uint8_t>> output = (*jit)->PinnedOutput(slot, kernel.HostOutputBytes());
    if (!output.ok()) return output.status();
    if (absl::Status status = (*jit)->LaunchInto(*image, kernel, *output); !status.ok()) return status;
    return *output;
  };
  const BlockJudge judge = [&](int thread, const Variant& variant, absl::Span<const std::uint8_t> output) {
    const Outcome expected = program.Expect(variant);
    const CaseVerdict verdict = JudgeOutput(expected, output);
    const auto* values = std::get_if<LaneValues>(&expected);
    summaries[thread].Add(variant.index, verdict, true, values != nullptr ? values->words.size() : 0,
                          Signature(program, variant, expected, verdict), output, context.device, context.keep);
    return !IsFinding(verdict.kind);
  };
  absl::StatusOr<PipelineStats> ran =
      RunBatches(launched, {.blocks = static_cast<int>(blocks), .threads = context.threads}, source, launch, judge);
  if (!ran.ok()) return ran.status();
  CaseSummary summary;
  for (const CaseSummary& mine : summaries) summary.Merge(mine, context.keep);
  summary.AddJudgedOnDevice(ran->judged_on_device, device_words);
  summary.AddSmCounts(context.device, ran->per_sm);
  summary.seconds = {
      .pipeline = ran->seconds, .launching = ran->launching, .judging = ran->judging, .generating = ran->generating};
  return summary;
}

// kSweptVariantsPerLaunch sizes a sweep's launches in conform: tens of
// milliseconds of a Hopper GPU's time each, so that the host's re-judging
// of one overlaps the next (device_sweep_run.h).
constexpr std::uint64_t kSweptVariantsPerLaunch = std::uint64_t{1} << 24;

// SweepKernelOf is the sweep kernel (TestProgram::SweepKernel) that runs
// `work`'s variants from 1 on, where there is one and it may: an item of a
// range of defined variants, of a form judged on the device, in a run that
// makes no undefined variant and plants no transposed expectation (a
// planted bug in a kernel is in the sweep kernel too), on a GPU that says how
// many SMs it has (the fake GPU of the tests says none, and runs no
// sweep).
std::optional<std::string> SweepKernelOf(const CaseWork& work, const DriverJit& jit) {
  if (work.device_judged == nullptr || work.take != VariantRole::kDefined || !work.listed.empty() ||
      MayBeUndefined(work) || work.end <= 1 || jit.device().multiprocessors == 0) {
    return std::nullopt;
  }
  return work.device_judged->SweepKernel();
}

// PredictedClasses are the registry entries that predict faults for
// `program`'s fault classes (TestProgram::FaultClassTexts), by class: empty
// for a class it does not.
std::vector<std::string> PredictedClasses(const TestProgram& program, const CaseWorkContext& context) {
  std::vector<std::string> entries;
  for (const std::string& text : program.FaultClassTexts()) {
    entries.push_back(context.predict ? context.predict(text, 0) : "");
  }
  return entries;
}

// SkippedClasses is the sweep's mask of the classes that have an entry.
std::uint64_t SkippedClasses(const std::vector<std::string>& entries) {
  std::uint64_t mask = 0;
  for (size_t fault_class = 0; fault_class < entries.size(); ++fault_class) {
    if (!entries[fault_class].empty()) mask |= std::uint64_t{1} << fault_class;
  }
  return mask;
}

// RunSwept runs `work` with its sweep kernel `kernel` (device_sweep_run.h):
// its variants from 1 drawn and judged on the device, every variant the
// device kept judged again on the host, and its variant 0, if it has it,
// through the launch pipeline. The variants of the fault classes the
// registry predicts to fault are skipped and counted as left out, by entry,
// as the pipeline would (CountLeftOut). The pipeline takes the whole item instead
// where the sweep cannot speak for it: a sweep that saw more disagreements
// than it kept (the pipeline judges each one), and a sweep kernel the
// compiler rejects (the harness's own kernel; only the form's test kernel,
// in the pipeline, may give the verdict that the compiler rejects the form).
absl::StatusOr<CaseSummary> RunSwept(const CaseWork& work, const CaseWorkContext& context, const DriverJit& jit,
                                     const std::string& kernel, const Made& filler) {
  const TestProgram& program = *work.program;
  const size_t words = WordsPerVariant(work, filler);
  std::vector<CaseSummary> summaries(context.threads);
  const std::vector<std::string> predicted = PredictedClasses(*work.device_judged, context);
  const SweepOptions options{
      .seed = work.seed,
      .first = static_cast<std::uint64_t>(std::max<std::int64_t>(work.begin, 1)),
      .end = static_cast<std::uint64_t>(work.end),
      .variants_per_launch = kSweptVariantsPerLaunch,
      .skipped_classes = SkippedClasses(predicted),
      .threads = context.threads,
      .on_kept = [&](int thread, const Variant& variant, const CaseVerdict& verdict,
                     absl::Span<const std::uint8_t> registers) {
        const std::string signature =
            IsFinding(verdict.kind) ? Signature(program, variant, program.Expect(variant), verdict) : "";
        summaries[thread].Add(variant.index, verdict, true, words, signature, registers, context.device, context.keep);
      }};
  const absl::StatusOr<std::string> image = KernelImage(kernel, program.instruction().target(), work.path);
  const absl::StatusOr<SweepStats> swept =
      image.ok() ? RunSweep(*work.device_judged, options,
                            DeviceSweepLaunch(jit, *work.device_judged, *image,
                                              static_cast<unsigned>(kSweepBlocksPerSm * jit.device().multiprocessors)))
                 : absl::StatusOr<SweepStats>(image.status());
  if (!swept.ok() && Rejection(swept.status()).has_value()) return RunPipelined(work, context, filler);
  if (!swept.ok()) return swept.status();
  if (swept->unseen > 0) return RunPipelined(work, context, filler);
  CaseSummary summary;
  if (work.begin == 0) {
    CaseWork tagged = work;
    tagged.end = 1;
    absl::StatusOr<CaseSummary> first = RunPipelined(tagged, context, filler);
    if (!first.ok()) return first.status();
    summary.Merge(*first, context.keep);
  }
  for (const CaseSummary& mine : summaries) summary.Merge(mine, context.keep);
  for (size_t fault_class = 0; fault_class < predicted.size(); ++fault_class) {
    if (swept->skipped[fault_class].count > 0)
      summary.predicted[predicted[fault_class]].Add(swept->skipped[fault_class]);
  }
  summary.AddJudgedOnDevice(swept->agreed - swept->kept_agreed, words);
  summary.AddSmCounts(context.device, swept->per_sm);
  summary.seconds.Add({.pipeline = swept->seconds, .launching = swept->launching, .judging = swept->judging});
  return summary;
}

// JudgeItem is RunCaseWork's judging, without its clock. Its summary says
// how long the worker's start (the first item's WorkerJit) and the module
// loads took.
absl::StatusOr<CaseSummary> JudgeItem(const CaseWork& work, const CaseWorkContext& context) {
  if (work.verdict.has_value()) return JudgeWithout(work, context, *work.verdict);
  std::optional<Made> filler = FirstTaken(work, context);
  if (!filler.has_value()) return JudgeWithout(work, context, {});
  const absl::Time start = absl::Now();
  absl::StatusOr<DriverJit*> jit = WorkerJit(context.device);
  if (!jit.ok()) return jit.status();
  const double starting = absl::ToDoubleSeconds(absl::Now() - start);
  const double loaded_before = (*jit)->LoadingSeconds();
  const std::optional<std::string> sweep = SweepKernelOf(work, **jit);
  absl::StatusOr<CaseSummary> summary = sweep.has_value() ? RunSwept(work, context, **jit, *sweep, *filler)
                                                          : RunPipelined(work, context, *std::move(filler));
  if (summary.ok()) {
    summary->seconds.starting += starting;
    summary->seconds.loading += (*jit)->LoadingSeconds() - loaded_before;
    return summary;
  }
  if (std::optional<CaseVerdict> rejection = Rejection(summary.status()); rejection.has_value()) {
    return JudgeWithout(work, context, *rejection);
  }
  return summary.status();
}

}  // namespace

const std::string& FaultTextMemo::Find(int thread, const std::string& text,
                                       const std::function<std::string(const std::string&)>& compute) {
  absl::flat_hash_map<std::string, std::string>& answers = answers_[thread];
  auto found = answers.find(text);
  if (found == answers.end()) found = answers.emplace(text, compute(text)).first;
  return found->second;
}

bool Takes(const CaseWork& work, VariantRole role, const std::string& entry) {
  if (work.take == VariantRole::kAny) return true;
  return role == work.take && (role != VariantRole::kPredicted || entry == work.entry);
}

CaseSummary JudgeWithout(const CaseWork& work, const CaseWorkContext& context, const CaseVerdict& verdict) {
  CaseSummary summary;
  for (size_t position = 0; position < work.size(); ++position) {
    const Made made = Make(work, context, work.IndexAt(position), 0);
    if (!Takes(work, made.role, made.entry)) {
      CountLeftOut(work, made, summary);
      continue;
    }
    const std::string signature =
        IsFinding(verdict.kind) ? Signature(*work.program, made.variant, work.program->Expect(made.variant), verdict)
                                : "";
    summary.Add(made.variant.index, verdict, false, 0, signature, {}, context.device, context.keep);
  }
  return summary;
}

absl::StatusOr<CaseSummary> RunCaseWork(const CaseWork& work, const CaseWorkContext& context) {
  const absl::Time start = absl::Now();
  absl::StatusOr<CaseSummary> summary = JudgeItem(work, context);
  if (summary.ok()) summary->seconds.items = absl::ToDoubleSeconds(absl::Now() - start);
  return summary;
}

}  // namespace matload
