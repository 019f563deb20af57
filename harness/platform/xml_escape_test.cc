#include "harness/platform/xml_escape.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(XmlEscapeTest, MarkupBecomesReferences) {
  EXPECT_EQ(XmlEscape("x</title><script>alert(1)</script>"), "x&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(XmlEscape("a&b \"c\" 'd'"), "a&amp;b &quot;c&quot; &apos;d&apos;");
}

TEST(XmlEscapeTest, KeepsValidUtf8AndReplacesWhatXmlForbids) {
  EXPECT_EQ(XmlEscape("caf\xC3\xA9\t\n\x01\xFF"), "caf\xC3\xA9&#9;&#10;\xEF\xBF\xBD\xEF\xBF\xBD");
}

}  // namespace
}  // namespace matload
