// DecodeQualifiers' placement rules, on a table of its own: an opcode of
// two optional parts (as tcgen05.ld.red.spcompress) and one free qualifier.
#include "reference/form.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// OpcodeSpec is "op{.red}{.spcompress}.sync": both opcode axes are
// optional, and .sync may go anywhere after them.
const FamilySpec& OpcodeSpec() {
  static const FamilySpec* const kSpec = new FamilySpec{
      .family = Family::kTcgen05Ld,
      .mnemonic = {"op"},
      .axes = {{.name = "red", .spellings = {".red"}, .placement = Placement::kRightAfterMnemonic},
               {.name = "spcompress", .spellings = {".spcompress"}, .placement = Placement::kRightAfterMnemonic},
               {.name = "sync", .spellings = {".sync"}}}};
  return *kSpec;
}

// Messages decodes `opcode` (dot-separated) and returns its reasons' messages.
std::vector<std::string> Messages(std::vector<std::string> opcode) {
  std::vector<std::string> messages;
  for (const Reason& reason : DecodeQualifiers(OpcodeSpec(), opcode).reasons) messages.push_back(reason.message);
  return messages;
}

TEST(DecodeQualifiersTest, TheOpcodesPartsComeFirstInTableOrder) {
  EXPECT_THAT(Messages({"op", "red", "spcompress", "sync"}), IsEmpty());
  EXPECT_THAT(Messages({"op", "spcompress", "sync"}), IsEmpty()) << "either part may be left out";
  EXPECT_THAT(Messages({"op", "red", "sync"}), IsEmpty());
  EXPECT_THAT(Messages({"op", "red", "sync", "spcompress"}), ElementsAre("'.spcompress' must directly follow op.red"));
  EXPECT_THAT(Messages({"op", "sync", "spcompress"}), ElementsAre("'.spcompress' must directly follow op"));
  EXPECT_THAT(Messages({"op", "spcompress", "red", "sync"}),
              ElementsAre("'.red' must directly follow op", "'.spcompress' must directly follow op.red"));
}

}  // namespace
}  // namespace matload
