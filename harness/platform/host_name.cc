#include "harness/platform/host_name.h"

#include <unistd.h>

#include <climits>

namespace matload {

std::string HostName() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

}  // namespace matload
