// counting_ptxas: the real ptxas, counting its runs, for the verdict
// cache's end-to-end test (harness/cli/support_cache_test.cc). It appends
// one line per run, its arguments, to $MATLOAD_COUNT_FILE, and then
// becomes the real ptxas ($MATLOAD_PTXAS, which ctest sets to the
// toolkit's, else /usr/local/cuda/bin/ptxas), which does the work. It is a program, not a
// script, because the verdict cache knows a compiler by its binary's
// digest and keeps no answer of a script (harness/compile/toolchain_identity.h).
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (const char* count_file = std::getenv("MATLOAD_COUNT_FILE"); count_file != nullptr) {
    std::string line;
    for (int i = 1; i < argc; ++i) line.append(i > 1 ? " " : "").append(argv[i]);
    line.push_back('\n');
    // One write of an O_APPEND file: runs at once never interleave their lines.
    const int fd = open(count_file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
      std::perror(count_file);
      return 127;
    }
    close(fd);
  }
  const char* real = std::getenv("MATLOAD_PTXAS");
  argv[0] = const_cast<char*>(real != nullptr ? real : "/usr/local/cuda/bin/ptxas");
  execv(argv[0], argv);
  std::perror(argv[0]);
  return 127;
}
