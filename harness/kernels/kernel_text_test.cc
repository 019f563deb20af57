#include "harness/kernels/kernel_text.h"

#include <array>

#include "gtest/gtest.h"

namespace matload {
namespace {

// The header layout the kernels read: stream at 0, pattern at 8, placement
// at 12, little-endian.
TEST(KernelTextTest, RecordHeaderIsLittleEndianAtTheDocumentedOffsets) {
  std::array<std::uint8_t, kRecordHeaderBytes> header;
  header.fill(0xAA);
  WriteRecordHeader(0x0102030405060708, DataPattern::kRandom, DataPlacement::kShared, absl::MakeSpan(header));
  EXPECT_EQ(header[0], 0x08);
  EXPECT_EQ(header[7], 0x01);
  EXPECT_EQ(header[8], static_cast<std::uint8_t>(DataPattern::kRandom));
  EXPECT_EQ(header[12], static_cast<std::uint8_t>(DataPlacement::kShared));
  EXPECT_EQ(header[15], 0);
}

// A field wider than the value is padded with zeros.
TEST(KernelTextTest, StoreLittleEndianZeroPadsWideFields) {
  std::array<std::uint8_t, 12> field;
  field.fill(0xAA);
  StoreLittleEndian(0x0102, absl::MakeSpan(field));
  EXPECT_EQ(field[0], 0x02);
  EXPECT_EQ(field[1], 0x01);
  for (size_t b = 2; b < field.size(); ++b) EXPECT_EQ(field[b], 0) << b;
}

// Each kernel-side bug changes the stores the way its name says.
TEST(KernelTextTest, PlantedStoreBugsChangeTheStores) {
  const std::string clean = StoreRegistersAndReturn(2, 32, PlantedBug::kNone);
  EXPECT_NE(clean.find("[%store_at+0], %v0"), std::string::npos);
  EXPECT_NE(clean.find("[%store_at+4], %v1"), std::string::npos);
  const std::string reversed = StoreRegistersAndReturn(2, 32, PlantedBug::kRegisterOrder);
  EXPECT_NE(reversed.find("[%store_at+4], %v0"), std::string::npos);
  EXPECT_NE(reversed.find("[%store_at+0], %v1"), std::string::npos);
  const std::string skipped = StoreRegistersAndReturn(2, 32, PlantedBug::kSkippedStore);
  EXPECT_EQ(skipped.find("%v1;"), std::string::npos);
  EXPECT_NE(StoreRegistersAndReturn(2, 32, PlantedBug::kWrongLane).find("xor.b32 %store_lane"), std::string::npos);
  EXPECT_NE(StoreRegistersAndReturn(2, 32, PlantedBug::kHangingBlock).find("@%hang bra HANG_FOREVER;"),
            std::string::npos);
  EXPECT_NE(StoreRegistersAndReturn(1, 64, PlantedBug::kNone).find("st.global.b64 [%store_at+0], %v0"),
            std::string::npos);
}

}  // namespace
}  // namespace matload
