#include "fuzz/case_mutator.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "reference/enumerate.h"
#include "reference/families.h"
#include "reference/form.h"
#include "reference/register_class.h"
#include "reference/run_geometry.h"

namespace matload {
namespace {

// Below is a number in [0, bound), bound > 0.
size_t Below(std::mt19937_64& random, size_t bound) { return static_cast<size_t>(random() % bound); }

// OneIn is true with probability 1/n.
bool OneIn(std::mt19937_64& random, size_t n) { return Below(random, n) == 0; }

template <typename T>
const T& Pick(std::mt19937_64& random, const std::vector<T>& values) {
  return values[Below(random, values.size())];
}

// SpecOrAny is the family the instruction's mnemonic names, or a random one
// when it names none (after a misspelt mnemonic, say).
const FamilySpec& SpecOrAny(const RawInstruction& instruction, std::mt19937_64& random) {
  const FamilySpec* spec = FindFamily(instruction.opcode);
  return spec != nullptr ? *spec : *Pick(random, AllFamilies());
}

// FirstWithStateSpaces is the first registered family whose forms name a
// state space, for spellings that are foreign to the others, or nullptr.
const FamilySpec* FirstWithStateSpaces() {
  for (const FamilySpec* spec : AllFamilies()) {
    if (spec->operands.state_space_axis != kAbsent) return spec;
  }
  return nullptr;
}

// QualifierStart is the index of the first opcode token after the mnemonic.
size_t QualifierStart(const RawInstruction& instruction) {
  const FamilySpec* spec = FindFamily(instruction.opcode);
  return std::min(instruction.opcode.size(), spec != nullptr ? spec->mnemonic.size() : size_t{1});
}

// Token is a spelling as the opcode holds it, without the dot.
std::string Token(absl::string_view spelling) { return std::string(spelling.substr(1)); }

// RandomSpelling is a value of a random axis of `spec`.
std::string RandomSpelling(const FamilySpec& spec, std::mt19937_64& random) {
  const AxisSpec& axis = Pick(random, spec.axes);
  return Token(Pick(random, axis.spellings));
}

// AxisOfToken finds the axis of `spec` that spells `token`, or kAbsent.
int AxisOfToken(const FamilySpec& spec, const std::string& token) {
  for (size_t axis = 0; axis < spec.axes.size(); ++axis) {
    for (absl::string_view spelling : spec.axes[axis].spellings) {
      if (spelling.substr(1) == token) return static_cast<int>(axis);
    }
  }
  return kAbsent;
}

// DeclareIfStandard declares `name` as the standard register file does,
// when the snippet declares its registers and not yet this one, so that a
// mutation that brings in a register of another type gives a type error,
// not an undeclared name.
void DeclareIfStandard(Snippet& snippet, const std::string& name) {
  if (snippet.declarations.empty() || snippet.FindDeclaration(name) != nullptr) return;
  for (const Declaration& declaration : StandardRegisterFile()) {
    if (declaration.name == name) snippet.declarations.push_back(declaration);
  }
}

// StandardNames are the register and variable names of the standard file.
const std::vector<std::string>& StandardNames() {
  static const auto* const kNames = [] {
    auto* names = new std::vector<std::string>;
    for (const Declaration& declaration : StandardRegisterFile()) names->push_back(declaration.name);
    return names;
  }();
  return *kNames;
}

// RegisterSlot points at one register name written in an operand.
std::vector<std::string*> RegisterSlots(RawInstruction& instruction) {
  std::vector<std::string*> slots;
  for (Operand& operand : instruction.operands) {
    if (auto* vector = std::get_if<VectorOperand>(&operand)) {
      for (std::string& element : vector->elements) slots.push_back(&element);
    } else if (auto* reg = std::get_if<RegisterOperand>(&operand)) {
      slots.push_back(&reg->name);
    } else if (auto* address = std::get_if<AddressOperand>(&operand); address != nullptr && !address->base.empty()) {
      slots.push_back(&address->base);
    }
  }
  return slots;
}

// RandomImmediate favours the values rules care about: small, aligned,
// negative, past 32 bits.
std::int64_t RandomImmediate(std::mt19937_64& random) {
  static const std::vector<std::int64_t> kInteresting = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, -1, -16,
                                                         1 << 16, 1LL << 32};
  if (OneIn(random, 2)) return Pick(random, kInteresting);
  return static_cast<std::int64_t>(Below(random, 1 << 12)) - 64;
}

// RandomOperand is an operand of a random kind.
Operand RandomOperand(std::mt19937_64& random) {
  switch (Below(random, 4)) {
    case 0: return RegisterOperand{Pick(random, StandardNames())};
    case 1: return ImmediateOperand{RandomImmediate(random)};
    case 2: return AddressOperand{OneIn(random, 4) ? "" : Pick(random, StandardNames()), RandomImmediate(random)};
    default: {
      VectorOperand vector;
      for (size_t i = 0, count = 1 + Below(random, 4); i < count; ++i) vector.elements.push_back(absl::StrCat("%r", i));
      return vector;
    }
  }
}

// The legal forms of each target at the newest PTX version, enumerated
// once per process.
const std::vector<Form>& LegalFormsOf(Target target) {
  static std::mutex mutex;
  static auto* const forms = new std::map<Target, std::vector<Form>>;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = forms->try_emplace(target);
  if (inserted) it->second = LegalForms(NewestPtxVersion(), target);
  return it->second;
}

// TargetsOfNewestPtx are the targets that exist at the newest PTX version.
const std::vector<Target>& TargetsOfNewestPtx() {
  static const auto* const kTargets = [] {
    auto* targets = new std::vector<Target>;
    for (const TargetInfo& info : AllTargets()) {
      if (TargetExistsIn(info.target, NewestPtxVersion())) targets->push_back(info.target);
    }
    return targets;
  }();
  return *kTargets;
}

void MutateQualifiers(Mutation mutation, std::mt19937_64& random, Snippet& snippet) {
  RawInstruction& instruction = snippet.instruction;
  std::vector<std::string>& opcode = instruction.opcode;
  const FamilySpec& spec = SpecOrAny(instruction, random);
  const size_t start = QualifierStart(instruction);
  const auto random_position = [&] { return opcode.begin() + static_cast<long>(start + Below(random, opcode.size() - start + 1)); };
  switch (mutation) {
    case Mutation::kSwapQualifierValue: {
      std::vector<size_t> swappable;
      for (size_t i = start; i < opcode.size(); ++i) {
        if (AxisOfToken(spec, opcode[i]) != kAbsent) swappable.push_back(i);
      }
      if (swappable.empty()) return;
      const size_t at = Pick(random, swappable);
      opcode[at] = Token(Pick(random, spec.axes[AxisOfToken(spec, opcode[at])].spellings));
      return;
    }
    case Mutation::kInsertQualifier: {
      const FamilySpec& source = OneIn(random, 4) ? *Pick(random, AllFamilies()) : spec;
      opcode.insert(random_position(), RandomSpelling(source, random));
      return;
    }
    case Mutation::kDropQualifier:
      if (opcode.size() > 1) opcode.erase(opcode.begin() + static_cast<long>(1 + Below(random, opcode.size() - 1)));
      return;
    case Mutation::kDuplicateQualifier: {
      if (opcode.size() <= start) return;
      const std::string token = opcode[start + Below(random, opcode.size() - start)];
      opcode.insert(random_position(), token);
      return;
    }
    case Mutation::kMoveQualifier: {
      if (opcode.size() < 2) return;
      const size_t from = 1 + Below(random, opcode.size() - 1);
      const std::string token = opcode[from];
      opcode.erase(opcode.begin() + static_cast<long>(from));
      opcode.insert(opcode.begin() + static_cast<long>(1 + Below(random, opcode.size())), token);
      return;
    }
    case Mutation::kChangeMnemonic: {
      const size_t old_length = FindFamily(opcode) != nullptr ? spec.mnemonic.size() : 1;
      std::vector<std::string> mnemonic;
      for (absl::string_view token : Pick(random, AllFamilies())->mnemonic) mnemonic.emplace_back(token);
      if (OneIn(random, 4)) mnemonic[Below(random, mnemonic.size())] += "x";
      opcode.erase(opcode.begin(), opcode.begin() + static_cast<long>(std::min(old_length, opcode.size())));
      opcode.insert(opcode.begin(), mnemonic.begin(), mnemonic.end());
      return;
    }
    case Mutation::kChangeStateSpace: {
      // A family without a state-space axis gets another family's
      // spellings: foreign to it, on purpose.
      const FamilySpec* with_space = spec.operands.state_space_axis != kAbsent ? &spec : FirstWithStateSpaces();
      if (with_space == nullptr) return;  // no registered family names a state space
      const int axis = with_space->operands.state_space_axis;
      std::vector<std::string> kept(opcode.begin(), opcode.begin() + static_cast<long>(start));
      for (size_t i = start; i < opcode.size(); ++i) {
        if (AxisOfToken(*with_space, opcode[i]) != axis) kept.push_back(opcode[i]);
      }
      opcode = std::move(kept);
      if (!OneIn(random, 3)) opcode.insert(random_position(), Token(Pick(random, with_space->axes[axis].spellings)));
      return;
    }
    default: return;
  }
}

void MutateOperands(Mutation mutation, std::mt19937_64& random, Snippet& snippet) {
  RawInstruction& instruction = snippet.instruction;
  std::vector<Operand>& operands = instruction.operands;
  switch (mutation) {
    case Mutation::kResizeVector: {
      for (Operand& operand : operands) {
        auto* vector = std::get_if<VectorOperand>(&operand);
        if (vector == nullptr) continue;
        std::vector<std::string>& elements = vector->elements;
        size_t length = elements.size();
        switch (Below(random, 3)) {
          case 0: ++length; break;
          case 1: length = length > 1 ? length - 1 : 2; break;
          default: length = 1 + Below(random, 2 * elements.size() + 2); break;
        }
        elements.resize(length);
        for (size_t i = 0; i < length; ++i) {
          if (!elements[i].empty()) continue;
          elements[i] = absl::StrCat("%r", i);
          DeclareIfStandard(snippet, elements[i]);
        }
        return;
      }
      return;
    }
    case Mutation::kRetypeRegister: {
      if (snippet.declarations.empty()) snippet.declarations = UsedStandardDeclarations(instruction);
      std::vector<std::string*> slots = RegisterSlots(instruction);
      if (slots.empty()) return;
      std::string* slot = Pick(random, slots);
      if (OneIn(random, 2)) {
        *slot = Pick(random, StandardNames());
        DeclareIfStandard(snippet, *slot);
        return;
      }
      for (Declaration& declaration : snippet.declarations) {
        if (declaration.name == *slot && declaration.state_space == ".reg") {
          declaration.type = std::string(Pick(random, DeclarableTypes()));
        }
      }
      return;
    }
    case Mutation::kUndeclareRegister: {
      if (snippet.declarations.empty()) snippet.declarations = UsedStandardDeclarations(instruction);
      std::vector<std::string*> slots = RegisterSlots(instruction);
      if (slots.empty()) return;
      *Pick(random, slots) = absl::StrCat("%undeclared", Below(random, 4));
      return;
    }
    case Mutation::kChangeOperandKind:
      if (operands.empty()) return;
      operands[Below(random, operands.size())] = RandomOperand(random);
      return;
    case Mutation::kAddOrDropOperand:
      if (!operands.empty() && OneIn(random, 2)) {
        operands.erase(operands.begin() + static_cast<long>(Below(random, operands.size())));
      } else {
        operands.insert(operands.begin() + static_cast<long>(Below(random, operands.size() + 1)),
                        OneIn(random, 2) && !operands.empty() ? Pick(random, operands)
                                                              : Operand{ImmediateOperand{RandomImmediate(random)}});
      }
      return;
    case Mutation::kChangeAddress: {
      for (Operand& operand : operands) {
        auto* address = std::get_if<AddressOperand>(&operand);
        if (address == nullptr) continue;
        static const std::vector<std::string> kBases = {"%addr", "%addr32", "%taddr", "%rd0", "%h0", "%r0",
                                                        "%f0",   "%p",      "%smem",  "%gmem", ""};
        if (OneIn(random, 3)) {
          address->offset = RandomImmediate(random);
        } else {
          address->base = Pick(random, kBases);
          DeclareIfStandard(snippet, address->base);
        }
        return;
      }
      return;
    }
    case Mutation::kChangeGuard: {
      static const std::vector<std::string> kGuards = {"%p", "!%p", "%r0", "%undeclared0"};
      if (instruction.guard.has_value() && OneIn(random, 2)) {
        instruction.guard.reset();
      } else {
        instruction.guard = Pick(random, kGuards);
        DeclareIfStandard(snippet, "%p");
      }
      return;
    }
    default: return;
  }
}

void MutateRuntime(Mutation mutation, std::mt19937_64& random, RuntimeInputs& runtime) {
  switch (mutation) {
    case Mutation::kChangeStride: {
      const std::uint32_t current = runtime.stride.value_or(16);
      switch (Below(random, 5)) {
        case 0: runtime.stride.reset(); break;
        case 1: runtime.stride = current * static_cast<std::uint32_t>(2 + Below(random, 3)); break;
        case 2: runtime.stride = current > 0 ? current - 1 : 1; break;
        case 3: runtime.stride = current + static_cast<std::uint32_t>(1 + Below(random, 16)); break;
        default: runtime.stride = static_cast<std::uint32_t>(8 * Below(random, 33)); break;
      }
      return;
    }
    case Mutation::kChangeLaneAddress: {
      constexpr std::uint64_t kRow = kLaneRowBytes;
      constexpr std::uint64_t kWindowRows = kLdmatrixWindowBytes / kRow;
      runtime.rows = PaddedRows(runtime);
      std::uint64_t& row = runtime.rows[Below(random, kMaxRowEntries)];
      switch (Below(random, 5)) {
        case 0: row = kRow * Below(random, kWindowRows); break;                    // another aligned row
        case 1: row = Pick(random, runtime.rows); break;                            // another lane's row
        case 2: row += 1 + Below(random, kRow - 1); break;                          // misaligned
        case 3: row = kRow * (kWindowRows - 1 + Below(random, 3)); break;           // at or past the window's end
        default: row = Below(random, 1 << 16); break;
      }
      return;
    }
    case Mutation::kChangeOffset: {
      const std::uint64_t alignment = std::uint64_t{1} << Below(random, 9);
      switch (Below(random, 3)) {
        case 0: runtime.offset = alignment * Below(random, kWmmaWindowBytes / alignment); break;
        case 1: runtime.offset += alignment; break;
        default: runtime.offset = runtime.offset >= alignment ? runtime.offset - alignment : kWmmaWindowBytes - alignment; break;
      }
      return;
    }
    case Mutation::kChangeColumn:
      // A quarter of the draws within 4 columns of Tensor Memory's end, on either side.
      runtime.column = OneIn(random, 4) ? static_cast<std::uint32_t>(kTmemColumns - 4 + Below(random, 8))
                                        : static_cast<std::uint32_t>(Below(random, kTmemColumns));
      return;
    case Mutation::kChangeData:
      if (OneIn(random, 3)) {
        runtime.pattern = runtime.pattern == DataPattern::kRandom ? DataPattern::kTagged : DataPattern::kRandom;
      }
      runtime.stream = random();
      return;
    case Mutation::kChangePlacement:
      runtime.placement = runtime.placement == DataPlacement::kShared ? DataPlacement::kGlobal : DataPlacement::kShared;
      return;
    default: return;
  }
}

// WriteIfFits copies `text` to `data` if it fits in `max_size`.
size_t WriteIfFits(const std::string& text, std::uint8_t* data, size_t max_size) {
  if (text.size() > max_size) return 0;
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

}  // namespace

absl::string_view MutationName(Mutation mutation) {
  static constexpr absl::string_view kNames[kMutationCount] = {
      "swap-qualifier-value", "insert-qualifier", "drop-qualifier", "duplicate-qualifier", "move-qualifier",
      "change-mnemonic",      "change-state-space", "resize-vector", "retype-register",   "undeclare-register",
      "change-operand-kind",  "add-or-drop-operand", "change-address", "change-guard",     "regenerate",
      "change-target",        "change-ptx-version", "change-stride",  "change-lane-address", "change-offset",
      "change-column",        "change-data",        "change-placement"};
  return kNames[static_cast<int>(mutation)];
}

FuzzCase RandomLegalCase(std::mt19937_64& random) {
  FuzzCase fuzz_case;
  fuzz_case.target = Pick(random, TargetsOfNewestPtx());
  fuzz_case.ptx = NewestPtxVersion();
  const std::vector<Form>& forms = LegalFormsOf(fuzz_case.target);
  const RawInstruction instruction = ToRaw(Pick(random, forms));
  fuzz_case.snippet = {UsedStandardDeclarations(instruction), instruction};
  fuzz_case.runtime.stream = random();
  return fuzz_case;
}

void Mutate(Mutation mutation, std::mt19937_64& random, FuzzCase& fuzz_case) {
  switch (mutation) {
    case Mutation::kRegenerate: {
      const RuntimeInputs runtime = fuzz_case.runtime;
      fuzz_case = RandomLegalCase(random);
      fuzz_case.runtime = runtime;
      return;
    }
    case Mutation::kChangeTarget: fuzz_case.target = Pick(random, AllTargets()).target; return;
    case Mutation::kChangePtxVersion: fuzz_case.ptx = Pick(random, AllPtxVersions()); return;
    default: break;
  }
  if (mutation <= Mutation::kChangeStateSpace) {
    MutateQualifiers(mutation, random, fuzz_case.snippet);
  } else if (mutation <= Mutation::kChangeGuard) {
    MutateOperands(mutation, random, fuzz_case.snippet);
  } else {
    MutateRuntime(mutation, random, fuzz_case.runtime);
  }
}

void MutateRandomly(std::mt19937_64& random, FuzzCase& fuzz_case) {
  for (size_t count = 1 + Below(random, 3); count > 0; --count) {
    Mutate(static_cast<Mutation>(Below(random, kMutationCount)), random, fuzz_case);
  }
}

FuzzCase CrossOver(const FuzzCase& first, const FuzzCase& second, std::mt19937_64& random) {
  FuzzCase child = first;
  if (OneIn(random, 2)) {
    child.snippet = second.snippet;
    return child;
  }
  // Splice: the first's opcode up to a point, the second's from a point.
  const std::vector<std::string>& tail = second.snippet.instruction.opcode;
  std::vector<std::string>& opcode = child.snippet.instruction.opcode;
  opcode.resize(1 + Below(random, opcode.size()));
  if (!tail.empty()) opcode.insert(opcode.end(), tail.begin() + static_cast<long>(Below(random, tail.size())), tail.end());
  return child;
}

size_t MutateCaseBytes(std::uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  std::mt19937_64 random(seed);
  absl::StatusOr<FuzzCase> decoded = DecodeFuzzInput(data, size);
  FuzzCase fuzz_case = decoded.ok() ? *std::move(decoded) : RandomLegalCase(random);
  for (int attempt = 0; attempt < 4; ++attempt) {
    FuzzCase mutated = fuzz_case;
    MutateRandomly(random, mutated);
    if (const size_t written = WriteIfFits(EncodeFuzzCase(mutated), data, max_size); written > 0) return written;
  }
  // Nothing that fits came of it (a vector grown past max_size): start over.
  const size_t written = WriteIfFits(EncodeFuzzCase(RandomLegalCase(random)), data, max_size);
  return written > 0 ? written : size;
}

size_t CrossOverCaseBytes(const std::uint8_t* first, size_t first_size, const std::uint8_t* second,
                          size_t second_size, std::uint8_t* out, size_t max_out_size, unsigned seed) {
  absl::StatusOr<FuzzCase> a = DecodeFuzzInput(first, first_size);
  absl::StatusOr<FuzzCase> b = DecodeFuzzInput(second, second_size);
  if (!a.ok() || !b.ok()) return 0;
  std::mt19937_64 random(seed);
  return WriteIfFits(EncodeFuzzCase(CrossOver(*a, *b, random)), out, max_out_size);
}

}  // namespace matload
