// TriageCase: one failing GPU case taken back from its bundle
// (harness/conform/bundle_writer.h), so that `matload triage` can run it
// again, through other compilers and on other GPUs, and judge every run
// with the model as conform did.
//
// The bundle's kernel.ptx and record.bin are the evidence; case.json names
// the form and the replay key (seed, variant index). The case rebuilds the
// form's test program and the variant from that key, and checks them
// against the bundle's files: a record that is not the variant the key
// names is bad input, and a kernel that is not the one this matload builds
// for the form (a self-test's planted bug, or another matload's kernel) is
// said, never hidden: the triage then runs the bundle's kernel.
#ifndef MATLOAD_HARNESS_TRIAGE_TRIAGE_CASE_H_
#define MATLOAD_HARNESS_TRIAGE_TRIAGE_CASE_H_

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/families/test_program.h"
#include "harness/platform/input_files.h"

namespace matload {

// TriageCase is one bundled case, ready to run again.
struct TriageCase {
  std::filesystem::path bundle;  // the bundle directory
  std::unique_ptr<TestProgram> program;
  Variant variant;
  std::uint64_t seed = 0;
  bool undefined = false;          // the run that found it made undefined variants too
  std::string kernel;              // the bundle's kernel.ptx
  bool kernel_is_matloads = true;  // kernel == program->kernel()
  std::string signature;           // as the bundle's run filed it
  std::string recorded_outcome;    // "mismatch", "unexpected fault", ...
  std::string recorded_detail;
  std::string recorded_compile_path;  // "driver-jit", ...
  std::string recorded_identity;      // the GPU, driver and toolkit that found it
};

// ReadTriageCase reads the bundle in `directory`. A directory that is no
// bundle, a case.json that does not read, a form this matload does not
// know, or a record.bin that is not the variant its key names is
// kInvalidArgument, naming the file and what is wrong.
absl::StatusOr<TriageCase> ReadTriageCase(const std::filesystem::path& directory);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_TRIAGE_CASE_H_
