#include "harness/runs/export_marker.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

TEST(ExportMarkerTest, NamesTheKindAndTheRunsAsEachFormatWritesIt) {
  EXPECT_EQ(ExportMarker(ExportKind::kJunit, "conform-1"), "<!-- matload junit export of run conform-1 -->");
  EXPECT_EQ(ExportMarker(ExportKind::kRunPage, "conform-1"),
            "<meta name=\"matload-export\" content=\"run-page of run conform-1\">");
  EXPECT_EQ(ExportMarker(ExportKind::kDiffPage, "conform-1 conform-2"),
            "<meta name=\"matload-export\" content=\"diff-page of runs conform-1 conform-2\">");
  // What a stored run ID could hold that would break the page or the comment is written '_'.
  EXPECT_EQ(ExportMarker(ExportKind::kRunPage, "a\"><script>--x"),
            "<meta name=\"matload-export\" content=\"run-page of run a___script_-_x\">");
  EXPECT_EQ(ExportMarker(ExportKind::kJunit, "a-->b"), "<!-- matload junit export of run a-__b -->");
}

class CheckReplaceableTest : public testing::Test {
 protected:
  // Write makes a file named `name` holding `text`, and gives its path.
  std::string Write(const std::string& name, const std::string& text) const {
    const std::string path = absl::StrCat(testing::TempDir(), "/export_marker_test_", name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
};

TEST_F(CheckReplaceableTest, AFileThatDoesNotExistIsFree) {
  const std::string path = absl::StrCat(testing::TempDir(), "/export_marker_test_none");
  std::filesystem::remove(path);
  EXPECT_TRUE(CheckReplaceable(path, ExportKind::kJunit, "conform-1").ok());
}

TEST_F(CheckReplaceableTest, OnlyTheSameKindOfTheSameRunIsReplaced) {
  const std::string junit =
      Write("junit.xml", absl::StrCat("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                                      ExportMarker(ExportKind::kJunit, "conform-1"), "\n<testsuites>\n"));
  EXPECT_TRUE(CheckReplaceable(junit, ExportKind::kJunit, "conform-1").ok());
  const absl::Status other_run = CheckReplaceable(junit, ExportKind::kJunit, "conform-2");
  EXPECT_EQ(other_run.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(other_run.message(), HasSubstr("is not an earlier junit export of run conform-2"));
  EXPECT_EQ(CheckReplaceable(junit, ExportKind::kRunPage, "conform-1").code(), absl::StatusCode::kAlreadyExists);
  const std::string page = Write("page.html", absl::StrCat("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n",
                                                           ExportMarker(ExportKind::kDiffPage, "a-1 b-2"), "\n"));
  EXPECT_TRUE(CheckReplaceable(page, ExportKind::kDiffPage, "a-1 b-2").ok());
  EXPECT_FALSE(CheckReplaceable(page, ExportKind::kDiffPage, "a-1 b-3").ok());
  EXPECT_FALSE(CheckReplaceable(page, ExportKind::kRunPage, "a-1").ok());
}

TEST_F(CheckReplaceableTest, AFileWithoutAMarkerIsNeverReplaced) {
  // A googletest report starts as a JUnit export does.
  const std::string gtest = Write("gtest.xml",
                                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"1\" name=\"AllTests\">\n"
                                  "  <testsuite name=\"A\" tests=\"1\"><testcase name=\"b\"/></testsuite>\n</testsuites>\n");
  EXPECT_EQ(CheckReplaceable(gtest, ExportKind::kJunit, "conform-1").code(), absl::StatusCode::kAlreadyExists);
  // A marker past the first kilobytes is no marker: a page that quotes one, say.
  const std::string late = Write("late.html", absl::StrCat(std::string(8192, ' '),
                                                           ExportMarker(ExportKind::kRunPage, "conform-1")));
  EXPECT_FALSE(CheckReplaceable(late, ExportKind::kRunPage, "conform-1").ok());
  EXPECT_FALSE(CheckReplaceable(testing::TempDir(), ExportKind::kRunPage, "conform-1").ok());  // a directory
  // A FIFO is refused without opening it (opening waited for a writer).
  const std::string fifo = absl::StrCat(testing::TempDir(), "/export_marker_test_fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(CheckReplaceable(fifo, ExportKind::kJunit, "conform-1").code(), absl::StatusCode::kAlreadyExists);
}

}  // namespace
}  // namespace matload
