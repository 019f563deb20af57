#include "harness/report/case_facets.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/runs/case_id.h"
#include "reference/families.h"

namespace matload {
namespace {

// Digits consumes a run of at least one digit from the front of `text`.
bool Digits(absl::string_view& text) {
  size_t count = 0;
  while (count < text.size() && absl::ascii_isdigit(text[count])) ++count;
  text.remove_prefix(count);
  return count > 0;
}

// Letter consumes `letter` from the front of `text`.
bool Letter(absl::string_view& text, char letter) {
  if (text.empty() || text.front() != letter) return false;
  text.remove_prefix(1);
  return true;
}

// IsTarget: sm_90, sm_100a, sm_120f.
bool IsTarget(absl::string_view token) {
  if (!absl::ConsumePrefix(&token, "sm_") || !Digits(token)) return false;
  return token.empty() || token == "a" || token == "f";
}

// IsShape: m8n8, m16n16k16 (ldmatrix, wmma.load) or 32x32b (tcgen05.ld).
bool IsShape(absl::string_view token) {
  if (Letter(token, 'm')) {
    if (!Digits(token) || !Letter(token, 'n') || !Digits(token)) return false;
    return token.empty() || (Letter(token, 'k') && Digits(token) && token.empty());
  }
  return Digits(token) && Letter(token, 'x') && Digits(token) && token == "b";
}

// IsType: an element type (b16, f16, bf16, tf32, s8, u4, e4m3, b8x16_b6x16_p32).
bool IsType(absl::string_view token) {
  for (absl::string_view prefix : {"bf", "tf", "b", "f", "s", "u"}) {
    absl::string_view rest = token;
    if (absl::ConsumePrefix(&rest, prefix) && Digits(rest)) return true;
  }
  return Letter(token, 'e') && Digits(token) && Letter(token, 'm') && Digits(token);
}

// IsPath says whether `token` is a conform case's compile path (docs/case-ids.md).
bool IsPath(absl::string_view token) {
  return token == "driver_jit" || token == "ptxas_cubin" || token == "nvjitlink_cubin" || token == "jit_compile";
}

// IsFamily says whether `token` is a registered family's token
// (FamilyToken, docs/case-ids.md). The tokens are spelt once: a run page
// asks for every token of every case.
bool IsFamily(absl::string_view token) {
  static const auto* const kTokens = [] {
    auto* tokens = new absl::flat_hash_set<std::string>;
    for (const FamilySpec* spec : AllFamilies()) tokens->insert(FamilyToken(*spec));
    return tokens;
  }();
  return kTokens->contains(token);
}

}  // namespace

CaseFacets FacetsOf(absl::string_view id) {
  const std::vector<std::string> tokens = absl::StrSplit(id, '.');
  CaseFacets facets;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    // The target is the first token, or the second after a toolkit ("ptxas_12_9_86.sm_90...").
    if (i <= 1 && facets.target.empty() && IsTarget(token)) {
      facets.target = token;
    } else if (facets.family.empty() && IsFamily(token)) {
      facets.family = token;
    } else if (i == 0 && token == "fuzz" && tokens.size() > 1) {
      facets.family = tokens[++i];
    } else if (IsPath(token)) {
      facets.path = token;
    } else if (facets.shape.empty() && IsShape(token)) {
      facets.shape = token;
    } else if (IsType(token)) {
      facets.type = token;
    }
  }
  return facets;
}

bool NaturalLess(absl::string_view a, absl::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (absl::ascii_isdigit(a[i]) && absl::ascii_isdigit(b[j])) {
      size_t end_a = i, end_b = j;
      while (end_a < a.size() && absl::ascii_isdigit(a[end_a])) ++end_a;
      while (end_b < b.size() && absl::ascii_isdigit(b[end_b])) ++end_b;
      // Without leading zeros, the longer run of digits is the larger number.
      absl::string_view number_a = a.substr(i, end_a - i), number_b = b.substr(j, end_b - j);
      while (number_a.size() > 1 && number_a.front() == '0') number_a.remove_prefix(1);
      while (number_b.size() > 1 && number_b.front() == '0') number_b.remove_prefix(1);
      if (number_a.size() != number_b.size()) return number_a.size() < number_b.size();
      if (number_a != number_b) return number_a < number_b;
      i = end_a;
      j = end_b;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

}  // namespace matload
