#include "harness/platform/outside_text.h"

#include <string>

#include "gtest/gtest.h"

namespace matload {
namespace {

using namespace std::string_literals;

TEST(OutsideTextTest, KeepsTextThatIsAlreadyText) {
  for (const std::string& text : {"", "NVIDIA H100 80GB HBM3", "/tmp/résumé/目录/🙂", "C:\\path\\to", "a\\"}) {
    EXPECT_EQ(OutsideText(text), text);
    EXPECT_EQ(OutsideBytes(text), text);
  }
}

TEST(OutsideTextTest, EscapesBytesThatAreNotUtf8) {
  EXPECT_EQ(OutsideText("/tmp/bad\xff\xfe"), "/tmp/bad\\xff\\xfe");
  EXPECT_EQ(OutsideText("NVIDIA H100 \xff\xfe"), "NVIDIA H100 \\xff\\xfe");
  EXPECT_EQ(OutsideText("\xc3"), "\\xc3");                             // a sequence cut short
  EXPECT_EQ(OutsideText("\xc0\xaf"), "\\xc0\\xaf");                    // overlong
  EXPECT_EQ(OutsideText("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate
  EXPECT_EQ(OutsideText("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
}

TEST(OutsideTextTest, EscapesControlsSoThatNoLineOrFieldIsSplit) {
  EXPECT_EQ(OutsideText("GPU\tname\nsecond line\r"), "GPU\\x09name\\x0asecond line\\x0d");
  EXPECT_EQ(OutsideText("\x1b[31mred\x7f"), "\\x1b[31mred\\x7f");
  EXPECT_EQ(OutsideText("\xc2\x9b"
                        "2J \xc2\xa0"),
            "\\xc2\\x9b2J \xc2\xa0");  // C1 CSI escaped, NBSP kept
  EXPECT_EQ(OutsideText("nul\0byte"s), "nul\\x00byte");
}

TEST(OutsideTextTest, IsValidUtf8WhateverTheBytes) {
  std::string every_byte;
  for (int byte = 0; byte < 256; ++byte) every_byte.push_back(static_cast<char>(byte));
  const std::string text = OutsideText(every_byte + every_byte);
  EXPECT_TRUE(IsUtf8(text));
  EXPECT_FALSE(IsUtf8(every_byte));
}

TEST(OutsideTextTest, GivesBackTheBytesItWasMadeFrom) {
  std::string every_byte;
  for (int byte = 0; byte < 256; ++byte) every_byte.push_back(static_cast<char>(byte));
  for (const std::string& bytes :
       {every_byte, "/tmp/bad\xff\xfe"s, "a literal \\x41, \\xzz and \\x4"s, "\\\xff"s, "\\\\x00\\"s, "\xe2\x82"s}) {
    EXPECT_EQ(OutsideBytes(OutsideText(bytes)), bytes) << OutsideText(bytes);
  }
  EXPECT_EQ(OutsideText("\\x41"), "\\x5cx41");  // a backslash before 'x' is escaped, so it stays one
}

// A printed message keeps its lines, and text OutsideText made already
// reads as it was stored; what would reach the terminal raw is escaped.
TEST(OutsideTextTest, PrintedTextKeepsLinesAndEscapesTheRest) {
  EXPECT_EQ(PrintedText("started: a\n  now: b"), "started: a\n  now: b");
  EXPECT_EQ(PrintedText("wrote /tmp/x\xff\x1b[31m.csv"), "wrote /tmp/x\\xff\\x1b[31m.csv");
  EXPECT_EQ(PrintedText("stored as bad\\xff"), "stored as bad\\xff");
  EXPECT_EQ(PrintedText("tab\tcr\r\xc2\x9b"), "tab\\x09cr\\x0d\\xc2\\x9b");
  std::string every_byte;
  for (int byte = 0; byte < 256; ++byte) every_byte.push_back(static_cast<char>(byte));
  EXPECT_TRUE(IsUtf8(PrintedText(every_byte)));
}

}  // namespace
}  // namespace matload
