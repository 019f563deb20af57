// The parser's bound on declarations (kMaxDeclaredNames): a snippet that
// declares too much is kResourceExhausted, and finding that out costs memory
// bounded by the limit, not by what the text asks for. Memory is measured by
// counting the bytes this test binary's operator new hands out.
#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "reference/parser.h"

namespace {

std::atomic<size_t> allocated_bytes{0};

}  // namespace

// Every allocation of the binary goes through here and is counted.
void* operator new(size_t size) {
  allocated_bytes.fetch_add(size, std::memory_order_relaxed);
  if (void* memory = std::malloc(size == 0 ? 1 : size)) return memory;
  throw std::bad_alloc();
}
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, size_t) noexcept { std::free(memory); }

namespace matload {
namespace {

// VectorDeclarations is ".reg .b32 a0<4096>, a1<4096>, ...;" with `vectors`
// vectors, followed by one ldmatrix: vectors * 4096 registers asked for.
std::string VectorDeclarations(int vectors) {
  std::string text = ".reg .b32 ";
  for (int i = 0; i < vectors; ++i) absl::StrAppend(&text, i == 0 ? "" : ", ", "a", i, "<4096>");
  return absl::StrCat(text, "; ldmatrix.sync.aligned.m8n8.x1.b16 {a0}, [p];");
}

// BytesAllocatedToParse is how many bytes ParseSnippet(text) allocated.
size_t BytesAllocatedToParse(const std::string& text, absl::StatusCode* code) {
  const size_t before = allocated_bytes.load();
  *code = ParseSnippet(text).status().code();
  return allocated_bytes.load() - before;
}

TEST(ParserLimitTest, TheLimitItselfParses) {
  absl::StatusOr<Snippet> snippet = ParseSnippet(VectorDeclarations(kMaxDeclaredNames / 4096));
  ASSERT_TRUE(snippet.ok()) << snippet.status();
  EXPECT_EQ(snippet->declarations.size(), kMaxDeclaredNames);
}

TEST(ParserLimitTest, OneNameMoreIsResourceExhausted) {
  const std::string one_more = absl::StrCat(".reg .b32 extra; ", VectorDeclarations(kMaxDeclaredNames / 4096));
  EXPECT_EQ(ParseSnippet(one_more).status().code(), absl::StatusCode::kResourceExhausted);
  const std::string one_vector_more = VectorDeclarations(kMaxDeclaredNames / 4096 + 1);
  EXPECT_EQ(ParseSnippet(one_vector_more).status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(ParserLimitTest, ScalarDeclarationsCountToo) {
  std::string text = ".shared .b8 ";
  for (size_t i = 0; i <= kMaxDeclaredNames; ++i) absl::StrAppend(&text, i == 0 ? "" : ", ", "s", i, "[4]");
  absl::StrAppend(&text, "; ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [s0];");
  EXPECT_EQ(ParseSnippet(text).status().code(), absl::StatusCode::kResourceExhausted);
}

// The 11 KB and 119 KB snippets of the bad-input report asked for 4 and 40
// million registers (400 MB, then bad_alloc). Now either costs at most what
// the limit's declarations take (about 100 bytes each, the vector doubling).
TEST(ParserLimitTest, RefusingAHugeSnippetCostsMemoryBoundedByTheLimit) {
  constexpr size_t kBound = kMaxDeclaredNames * 100 * 3;
  for (int vectors : {1000, 10000}) {
    const std::string text = VectorDeclarations(vectors);
    absl::StatusCode code = absl::StatusCode::kOk;
    const size_t bytes = BytesAllocatedToParse(text, &code);
    EXPECT_EQ(code, absl::StatusCode::kResourceExhausted) << text.size() << " bytes of text";
    EXPECT_LT(bytes, kBound) << text.size() << " bytes of text";
  }
}

}  // namespace
}  // namespace matload
