#include "harness/triage/culprit.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace matload {
namespace {

// Find is the build named `name`, or null.
const BuildEvidence* Find(const CulpritEvidence& evidence, const char* name) {
  for (const BuildEvidence& build : evidence.builds) {
    if (build.name == name && build.built) return &build;
  }
  return nullptr;
}

// Facts are one line per build: "ptxas -O0: passes; loads LDS.U.64 x4".
std::vector<std::string> Facts(const CulpritEvidence& evidence) {
  std::vector<std::string> facts;
  for (const BuildEvidence& build : evidence.builds) {
    const char* outcome = !build.built ? "not built" : build.fails ? "fails" : build.passes ? "passes" : "mixed";
    facts.push_back(
        absl::StrCat(build.name, ": ", outcome, build.loads.empty() ? "" : absl::StrCat("; loads ", build.loads)));
  }
  for (const SiblingEvidence& sibling : evidence.siblings) {
    facts.push_back(absl::StrCat("sibling ", sibling.change, ": ", sibling.passes ? "passes" : "fails",
                                 sibling.loads.empty() ? "" : absl::StrCat("; loads ", sibling.loads)));
  }
  if (evidence.range_last_good.has_value()) {
    facts.push_back(absl::StrCat("toolkit range: ", *evidence.range_last_good, " passes, ",
                                 evidence.range_first_bad.value_or("?"), " fails"));
  }
  return facts;
}

// BlameOneBuild is the culprit where some built paths fail and others pass.
Culprit BlameOneBuild(const CulpritEvidence& evidence, const std::vector<std::string>& failing) {
  const BuildEvidence* jit = Find(evidence, "driver JIT");
  const BuildEvidence* o3 = Find(evidence, "ptxas -O3");
  const BuildEvidence* o0 = Find(evidence, "ptxas -O0");
  const BuildEvidence* linked = Find(evidence, "nvJitLink");
  if (o3 != nullptr && o0 != nullptr && o3->fails && o0->passes) {
    return {"ptxas optimizer",
            absl::StrCat("the ptxas cubin fails at -O3 and passes at -O0 on the same GPU",
                         o3->loads != o0->loads ? absl::StrCat(" (", o3->loads, " against ", o0->loads, ")") : ""),
            {}};
  }
  if (failing.size() == 1 && jit != nullptr && jit->fails) {
    return {"driver JIT", "only the driver JIT's build fails; the offline compilers' cubins pass on the same GPU", {}};
  }
  if (failing.size() == 1 && linked != nullptr && linked->fails) {
    return {"nvJitLink", "only nvJitLink's cubin fails; the driver JIT and ptxas pass on the same GPU", {}};
  }
  return {"ptxas", absl::StrCat("these builds fail: ", absl::StrJoin(failing, ", "), "; the others pass"), {}};
}

// FormLoads is the form's SASS loads, from its first disassembled build.
std::string FormLoads(const CulpritEvidence& evidence) {
  for (const BuildEvidence& build : evidence.builds) {
    if (!build.loads.empty()) return build.loads;
  }
  return "";
}

// PassingGenericSibling is the form without its state space where it passed
// with SASS loads other than the form's, or null.
const SiblingEvidence* PassingGenericSibling(const CulpritEvidence& evidence) {
  for (const SiblingEvidence& sibling : evidence.siblings) {
    if (sibling.generic_address && sibling.passes && !sibling.loads.empty() && sibling.loads != FormLoads(evidence)) {
      return &sibling;
    }
  }
  return nullptr;
}

}  // namespace

nlohmann::json Culprit::Json() const {
  return nlohmann::json{{"stage", stage}, {"because", because}, {"evidence", evidence}};
}

Culprit BlameStage(const CulpritEvidence& evidence) {
  Culprit culprit;
  std::vector<std::string> failing;
  int built = 0;
  for (const BuildEvidence& build : evidence.builds) {
    built += build.built ? 1 : 0;
    if (build.built && build.fails) failing.push_back(build.name);
  }
  if (!evidence.kernel_is_matloads) {
    culprit = {"harness",
               "the bundle's kernel.ptx is not the kernel this matload builds for its form (a self-test's "
               "planted bug, or another matload's kernel): the kernel itself is suspect",
               {}};
  } else if (failing.empty()) {
    culprit = {"none (does not reproduce)", "no build of the kernel fails as the bundle did", {}};
  } else if (static_cast<int>(failing.size()) < built) {
    culprit = BlameOneBuild(evidence, failing);
  } else if (evidence.range_last_good.has_value()) {
    culprit = {"ptxas",
               absl::StrCat("every build fails, but the cubin of ", *evidence.range_last_good,
                            " passes on the same GPU: the code generation changed at ",
                            evidence.range_first_bad.value_or("?")),
               {}};
  } else if (const SiblingEvidence* generic = PassingGenericSibling(evidence)) {
    culprit = {"code generation of the form",
               absl::StrCat("every build fails, but the same load ", generic->change,
                            " passes at the same addresses with other SASS loads (", generic->loads, " against ",
                            FormLoads(evidence),
                            "): the lowering every compiler path gives this form fails where the "
                            "generic one does not [inferred from the SASS]"),
               {}};
  } else {
    culprit = {"GPU or code generation",
               "every build fails alike, at every optimisation level and with every toolkit tried: the GPU, or a "
               "lowering every compiler shares (read the SASS loads); matload cannot tell them apart",
               {}};
  }
  culprit.evidence = Facts(evidence);
  return culprit;
}

}  // namespace matload
