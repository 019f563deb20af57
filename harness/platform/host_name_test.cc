#include "harness/platform/host_name.h"

#include <unistd.h>

#include <climits>

#include "gtest/gtest.h"

namespace matload {
namespace {

// The name is the system's own, the one every process of this host reads.
TEST(HostNameTest, IsTheSystemsName) {
  char name[HOST_NAME_MAX + 1] = {};
  ASSERT_EQ(gethostname(name, sizeof(name) - 1), 0);
  EXPECT_EQ(HostName(), name);
  EXPECT_FALSE(HostName().empty());
}

}  // namespace
}  // namespace matload
