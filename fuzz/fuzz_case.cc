#include "fuzz/fuzz_case.h"

#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "reference/parser.h"
#include "reference/printer.h"

namespace matload {
namespace {

constexpr absl::string_view kSeparator = "---";

absl::Status LineError(int line, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("fuzz case line ", line, ": ", what));
}

// ParseNumber reads a decimal or 0x-prefixed hexadecimal unsigned number.
std::optional<std::uint64_t> ParseNumber(absl::string_view text) {
  std::uint64_t value = 0;
  if (absl::ConsumePrefix(&text, "0x")) {
    if (text.empty() || !absl::SimpleHexAtoi(text, &value)) return std::nullopt;
    return value;
  }
  if (!absl::SimpleAtoi(text, &value)) return std::nullopt;
  return value;
}

// HeaderLine applies one `key value...` line to `fuzz_case`.
absl::Status ApplyHeaderLine(const std::vector<absl::string_view>& words, int line, FuzzCase& fuzz_case) {
  const absl::string_view key = words[0];
  const auto want = [&](size_t count) -> absl::Status {
    if (words.size() == count + 1) return absl::OkStatus();
    return LineError(line, absl::StrCat("'", key, "' takes ", count, " value", count == 1 ? "" : "s"));
  };
  const auto number = [&](absl::string_view text, std::uint64_t limit) -> absl::StatusOr<std::uint64_t> {
    std::optional<std::uint64_t> value = ParseNumber(text);
    if (!value.has_value() || *value > limit) {
      return LineError(line, absl::StrCat("'", key, "' needs a number up to ", limit, ", not '", text, "'"));
    }
    return *value;
  };
  if (key == "target") {
    if (absl::Status status = want(1); !status.ok()) return status;
    absl::StatusOr<Target> target = ParseTarget(words[1]);
    if (!target.ok()) return LineError(line, target.status().message());
    fuzz_case.target = *target;
  } else if (key == "ptx") {
    if (absl::Status status = want(1); !status.ok()) return status;
    absl::StatusOr<PtxVersion> ptx = ParsePtxVersion(words[1]);
    if (!ptx.ok()) return LineError(line, ptx.status().message());
    fuzz_case.ptx = *ptx;
  } else if (key == "data") {
    if (absl::Status status = want(2); !status.ok()) return status;
    absl::StatusOr<DataPattern> pattern = ParseDataPattern(words[1]);
    if (!pattern.ok()) return LineError(line, pattern.status().message());
    absl::StatusOr<std::uint64_t> stream = number(words[2], UINT64_MAX);
    if (!stream.ok()) return stream.status();
    fuzz_case.runtime.pattern = *pattern;
    fuzz_case.runtime.stream = *stream;
  } else if (key == "placement") {
    if (absl::Status status = want(1); !status.ok()) return status;
    if (words[1] != "shared" && words[1] != "global") {
      return LineError(line, absl::StrCat("placement is 'shared' or 'global', not '", words[1], "'"));
    }
    fuzz_case.runtime.placement = words[1] == "shared" ? DataPlacement::kShared : DataPlacement::kGlobal;
  } else if (key == "rows") {
    if (words.size() - 1 > kMaxRowEntries) return LineError(line, "'rows' takes at most 32 offsets, one per lane");
    for (size_t i = 1; i < words.size(); ++i) {
      absl::StatusOr<std::uint64_t> row = number(words[i], UINT32_MAX);
      if (!row.ok()) return row.status();
      fuzz_case.runtime.rows.push_back(*row);
    }
  } else if (key == "offset") {
    if (absl::Status status = want(1); !status.ok()) return status;
    absl::StatusOr<std::uint64_t> offset = number(words[1], UINT32_MAX);
    if (!offset.ok()) return offset.status();
    fuzz_case.runtime.offset = *offset;
  } else if (key == "stride") {
    if (absl::Status status = want(1); !status.ok()) return status;
    if (words[1] == "default") {
      fuzz_case.runtime.stride.reset();
    } else {
      absl::StatusOr<std::uint64_t> stride = number(words[1], UINT32_MAX);
      if (!stride.ok()) return stride.status();
      fuzz_case.runtime.stride = static_cast<std::uint32_t>(*stride);
    }
  } else if (key == "column") {
    if (absl::Status status = want(1); !status.ok()) return status;
    absl::StatusOr<std::uint64_t> column = number(words[1], UINT32_MAX);
    if (!column.ok()) return column.status();
    fuzz_case.runtime.column = static_cast<std::uint32_t>(*column);
  } else {
    return LineError(line, absl::StrCat("unknown key '", key, "'"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<FuzzCase> DecodeFuzzCase(absl::string_view text) {
  FuzzCase fuzz_case;
  std::set<std::string> seen;
  int line_number = 0;
  while (true) {
    if (text.empty()) return absl::InvalidArgumentError("fuzz case: no '---' line before the snippet");
    ++line_number;
    const size_t end = text.find('\n');
    const absl::string_view line = absl::StripTrailingAsciiWhitespace(text.substr(0, end));
    text = end == absl::string_view::npos ? absl::string_view() : text.substr(end + 1);
    if (line == kSeparator) break;
    const std::vector<absl::string_view> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (words.empty()) continue;
    if (!seen.insert(std::string(words[0])).second) {
      return LineError(line_number, absl::StrCat("'", words[0], "' given twice"));
    }
    if (absl::Status status = ApplyHeaderLine(words, line_number, fuzz_case); !status.ok()) return status;
  }
  absl::StatusOr<Snippet> snippet = ParseSnippet(text);
  if (!snippet.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("fuzz case snippet (after line ", line_number, "): ", snippet.status().message()));
  }
  fuzz_case.snippet = *std::move(snippet);
  return fuzz_case;
}

absl::StatusOr<FuzzCase> DecodeFuzzInput(const std::uint8_t* data, size_t size) {
  return DecodeFuzzCase(absl::string_view(reinterpret_cast<const char*>(data), size));
}

std::string EncodeFuzzCase(const FuzzCase& fuzz_case) {
  const RuntimeInputs& runtime = fuzz_case.runtime;
  std::string text = absl::StrCat("target ", fuzz_case.target.Name(), "\nptx ", fuzz_case.ptx.ToString(), "\ndata ",
                                  DataPatternName(runtime.pattern), " 0x", absl::Hex(runtime.stream), "\nplacement ",
                                  runtime.placement == DataPlacement::kShared ? "shared" : "global", "\n");
  if (!runtime.rows.empty()) absl::StrAppend(&text, "rows ", absl::StrJoin(runtime.rows, " "), "\n");
  absl::StrAppend(&text, "offset ", runtime.offset, "\nstride ",
                  runtime.stride.has_value() ? absl::StrCat(*runtime.stride) : "default", "\ncolumn ", runtime.column,
                  "\n", kSeparator, "\n", PrintSnippet(fuzz_case.snippet), "\n");
  return text;
}

}  // namespace matload
