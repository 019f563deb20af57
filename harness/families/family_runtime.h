// FamilyRuntime: the run-time half of one instruction family, registered
// beside its FamilySpec (reference/families.h).
//
// A FamilySpec says which forms exist; a FamilyRuntime says how one of them
// runs: the program factory (kernel and model), the address widths a form is
// built at, and the family's run-time operands as bundles write them and as
// the fuzzers' RuntimeInputs hold them. Conform, the bundle writer and the
// fuzzers reach a family only through RuntimeOf, so none of them switches on
// the family. docs/adding-a-family.md says how a new family gets one.
//
// A descriptor lives beside its table, in families/<family>/, but is built
// into harness/'s families room, not into reference/, because its programs
// write CUDA kernels; reference/ stays free of CUDA and of harness/.
#ifndef MATLOAD_HARNESS_FAMILIES_FAMILY_RUNTIME_H_
#define MATLOAD_HARNESS_FAMILIES_FAMILY_RUNTIME_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "harness/families/model_explanation.h"
#include "harness/families/model_invariants.h"
#include "harness/families/runtime_inputs.h"
#include "harness/families/test_program.h"
#include "nlohmann/json.hpp"
#include "reference/family_spec.h"
#include "reference/legality.h"

namespace matload {

// HardwareNeed is what a family needs of a GPU beyond its target's
// instructions ("Tensor Memory"). Where no GPU has it, family_kernels_test
// still compile-checks the family's kernels.
struct HardwareNeed {
  std::string hardware;
};

// FamilyRuntime is one family's run-time descriptor. Each family has exactly
// one, a static instance in its own folder.
class FamilyRuntime {
 public:
  virtual ~FamilyRuntime() = default;

  // family is the table this is the run-time half of.
  virtual Family family() const = 0;

  // NewProgram builds the TestProgram of a legal form of this family. A
  // form the model cannot predict on its target is kNotFound; a planted bug
  // the family cannot carry is kInvalidArgument.
  virtual absl::StatusOr<std::unique_ptr<TestProgram>> NewProgram(const CheckedInstruction& instruction,
                                                                  const ProgramOptions& options) const = 0;

  // AddressWidths are the .shared address widths (32 or 64 bits) conform
  // builds `instruction` at, one program each. More than one, and the
  // programs' labels name the width.
  virtual std::vector<int> AddressWidths(const CheckedInstruction& instruction) const { return {64}; }

  // OperandsJson is a variant's operands as a bundle's case.json writes
  // them: {"row_offsets": [...]}, {"offset": 64, "stride": 16}, ...
  virtual nlohmann::json OperandsJson(const Variant& variant) const = 0;

  // SetOperands fills `variant`'s operands from a fuzz case's inputs, and
  // fixes its placement where the family reads one space only.
  virtual void SetOperands(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                           Variant& variant) const = 0;

  // SetInputs is SetOperands backwards: the inputs that give `variant`'s
  // operands, so that a fuzz case replays it.
  virtual void SetInputs(const Variant& variant, RuntimeInputs& runtime) const = 0;

  // CheckInvariants holds the reference model to the family's invariants at
  // a case's inputs (model_invariants.h), adding each one it breaks to
  // `violations`; the reference fuzzer runs it on every legal case.
  virtual void CheckInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                               std::vector<InvariantViolation>& violations) const = 0;

  // Explain runs the reference model once, as `matload model` does: memory
  // (and, for tcgen05.ld, Tensor Memory, lane-major) holds `window`, and
  // the operands are `inputs`' (the rows, the offset or column, the
  // stride). A form the model cannot predict, or inputs the family cannot
  // take, is kInvalidArgument or kNotFound.
  virtual absl::StatusOr<ModelExplanation> Explain(const CheckedInstruction& instruction,
                                                   absl::Span<const std::uint8_t> window,
                                                   const RuntimeInputs& inputs) const = 0;

  // NeededHardware is what a GPU must have, beyond its target's
  // instructions, to run this family, or nullopt. On a target without the
  // family, conform says how many forms it leaves to GPUs that have it.
  virtual std::optional<HardwareNeed> NeededHardware() const { return std::nullopt; }
};

// VariantFor turns a legal case's run-time inputs into the variant its test
// program runs: the family's operands (FamilyRuntime::SetOperands), the data
// and a placement the form can address (a form that names .shared or
// .global is placed there). The fuzzers run their cases so.
Variant VariantFor(const CheckedInstruction& instruction, const RuntimeInputs& runtime);

// Each family's descriptor is <folder>::Runtime(), in
// families/<folder>/<folder>_runtime.cc.
#define MATLOAD_FAMILY(folder, enumerator, conform_rank) \
  namespace folder {                                     \
  const FamilyRuntime& Runtime();                        \
  }
#include "families/families.def"
#undef MATLOAD_FAMILY

// AllFamilyRuntimes lists the descriptors, one per table of AllFamilies(),
// in the order conform runs them. A table without a descriptor aborts.
const std::vector<const FamilyRuntime*>& AllFamilyRuntimes();

// RuntimeOf is `family`'s descriptor. A family without one is a programming
// error: it aborts, naming the family.
const FamilyRuntime& RuntimeOf(Family family);

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_FAMILY_RUNTIME_H_
