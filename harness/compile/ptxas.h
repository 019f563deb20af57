// Ptxas: the toolkit's PTX assembler as a compile oracle.
#ifndef MATLOAD_HARNESS_COMPILE_PTXAS_H_
#define MATLOAD_HARNESS_COMPILE_PTXAS_H_

#include <chrono>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "harness/compile/compile_oracle.h"
#include "harness/platform/subprocess.h"
#include "reference/target.h"

namespace matload {

// Ptxas runs one ptxas binary, without a shell. A run that crashed, hung,
// exited with a status ptxas never gives a verdict with, accepted without
// writing an ELF cubin, or rejected without one error message in ptxas's
// format is an InfrastructureError (infrastructure.h), never a verdict.
class Ptxas : public CompileOracle {
 public:
  // kDefaultTimeout bounds one ptxas run: far above any real run (a module
  // of 512 ldmatrix snippets takes about 0.05 s with ptxas 13.0.88 on 2
  // cores), so that only a hung ptxas meets it, even on a loaded machine.
  static constexpr std::chrono::milliseconds kDefaultTimeout = std::chrono::seconds(120);
  // kMaxModulesPerRun bounds AssembleModules' modules.
  static constexpr size_t kMaxModulesPerRun = 4096;

  // Open checks that `path` runs and reads its version and the -arch values
  // it accepts from --version and --help. Every run of it, these included,
  // is killed after `timeout` (tests make it short). A program that
  // crashes or hangs on them is an InfrastructureError; one that answers,
  // but not as ptxas does, is not a ptxas: kFailedPrecondition.
  static absl::StatusOr<Ptxas> Open(std::string path, std::chrono::milliseconds timeout = kDefaultTimeout);

  // DefaultPath is $MATLOAD_PTXAS, else $CUDA_HOME/bin/ptxas, else
  // /usr/local/cuda/bin/ptxas.
  static std::string DefaultPath();

  const std::string& path() const { return path_; }
  // WithArguments is this ptxas run with `arguments` added to every command
  // line ("-O0"), so that a triage can build the same kernel at another
  // optimisation level; arguments() are those added.
  Ptxas WithArguments(std::vector<std::string> arguments) const;
  const std::vector<std::string>& arguments() const { return arguments_; }

  std::string Tool() const override { return "ptxas"; }
  std::string Version() const override { return version_; }
  // Supports says whether this ptxas accepts `target` as -arch.
  bool Supports(Target target) const override { return arches_.contains(target.Name()); }
  // Assemble writes `module_text` to a temporary file and runs ptxas on it,
  // writing a temporary cubin, so that an acceptance is checked to have
  // produced one.
  absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target target) const override;
  // MaxModulesPerRun: ptxas takes many input files in one run and reads each
  // on its own, so that one module's errors do not hide another's (measured
  // with ptxas 13.0.88: it reports only the first wmma operand-lowering
  // error of a file, but the first of each file). The bound keeps the
  // command line short.
  size_t MaxModulesPerRun() const override { return kMaxModulesPerRun; }
  // AssembleModules writes each module to a file of its own in a temporary
  // directory and runs ptxas once on all of them, with the checks Assemble
  // makes. A message naming a file that is none of the modules (ptxas's
  // "<builtin>" helpers) has module -1.
  absl::StatusOr<AssembleResult> AssembleModules(const std::vector<std::string>& modules,
                                                 Target target) const override;
  // kModulesPerEachRun is how many modules AssembleEach puts in one run:
  // measured on every sm_90 form of the support sweep (ptxas 13.0.88, 2
  // cores), 64 took the least CPU time; more make each bisection of a run
  // that ended in a fatal error dearer, fewer pay ptxas's start more often.
  static constexpr size_t kModulesPerEachRun = 64;
  // AssembleEach gives each of `modules` what Assemble gives it, alone, in
  // far fewer runs: many modules go in one run (AssembleModules), and a
  // module's result comes from a run of several only where that run cannot
  // have changed it. Measured with ptxas 13.0.88, one file of a run does
  // change another's: after a fatal parsing error ptxas goes on with the
  // next file with part of the failed file's state (a clean wmma.load
  // gets "Multiple .aligned modifiers specified"), and it reports some
  // errors (the wmma operand lowering's) only when every file of the run
  // passed its earlier checks. So
  //  - a run that assembled gives each module acceptance;
  //  - a rejected run with no fatal error, whose every error names a line
  //    of one of its modules, rejects each module with errors, with them,
  //    and the modules without errors are assembled again in other runs;
  //  - any other rejected run is assembled again, in two halves, its
  //    modules with errors (all of them if none has its own), down to a
  //    module alone, which is Assemble's run, and the rest in other runs.
  // A module's diagnostics are those that name its file, with module 0 and
  // its lines, then the lines that name no file (ptxas's "Ptx assembly
  // aborted due to errors"), as one run of it alone prints them. The
  // modules share one program while they share a run, so each must name
  // its kernels apart from the others' (ptxas rejects a second .entry of
  // one name). A run that fails (ptxas crashed or hung) fails it all.
  // The modules must share their .version: ptxas 13.0.88 carries a file's
  // .version into the next files of its run (`.version 6.0 .target sm_75`
  // then `.version 9.0 .target sm_75` in one run: the second is rejected,
  // "PTX .version 9.0 does not support .target sm_75", and the first is
  // not named), and such an error names a line of the module it blames.
  // batch_checker_exactness_test.cc holds it to single runs.
  absl::StatusOr<std::vector<AssembleResult>> AssembleEach(const std::vector<std::string>& modules,
                                                           Target target) const;
  // CompileToCubin assembles `module_text` and returns the cubin, for the
  // offline compile path (the driver loads it without its JIT). A module
  // ptxas rejects is kFailedPrecondition with ptxas's messages.
  absl::StatusOr<std::string> CompileToCubin(absl::string_view module_text, Target target) const;
  // Ask runs ptxas on `module_text` for `target` and gives how the run
  // ended as it is, a crash included, for a question whose answer ptxas
  // prints before it fails (ptx_dialect.h: ptxas 12.0.140 dies of SIGSEGV
  // right after saying which PTX version it speaks). Only a ptxas that
  // could not be started, or a module that could not be written, fails.
  absl::StatusOr<ProcessResult> Ask(absl::string_view module_text, Target target) const;

 private:
  // Compiled is one run's verdict and, when accepted, its cubin.
  struct Compiled {
    AssembleResult assembled;
    std::string cubin;
  };
  // Compile is Assemble and CompileToCubin's one run of ptxas.
  absl::StatusOr<Compiled> Compile(absl::string_view module_text, Target target) const;
  // Run runs ptxas on `inputs` for `target`, writing `cubin`, and reads its
  // verdict as Compile does.
  absl::StatusOr<Compiled> Run(const std::vector<std::string>& inputs, const std::string& cubin, Target target) const;
  // Start runs ptxas on `inputs` for `target`, writing `cubin`, and gives
  // how it ended, whatever that was: Run's and Ask's one run.
  absl::StatusOr<ProcessResult> Start(const std::vector<std::string>& inputs, const std::string& cubin,
                                      Target target) const;

  Ptxas(std::string path, std::string version, absl::flat_hash_set<std::string> arches,
        std::chrono::milliseconds timeout)
      : path_(std::move(path)), version_(std::move(version)), arches_(std::move(arches)), timeout_(timeout) {}

  std::string path_;
  std::string version_;
  absl::flat_hash_set<std::string> arches_;
  std::chrono::milliseconds timeout_;
  std::vector<std::string> arguments_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_PTXAS_H_
