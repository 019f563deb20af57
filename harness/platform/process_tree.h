// ProcessTree: the processes below one process, read from /proc. matload
// fuzz needs them to stop a campaign: its libFuzzer parents run their -fork
// jobs through system(), which makes them ignore SIGINT while a job runs
// (system(3)), so an interrupt must reach the jobs themselves.
#ifndef MATLOAD_HARNESS_PLATFORM_PROCESS_TREE_H_
#define MATLOAD_HARNESS_PLATFORM_PROCESS_TREE_H_

#include <sys/types.h>

#include <chrono>
#include <vector>

namespace matload {

// Descendants lists the processes below `root`: its children, theirs, and
// so on, as /proc shows them now (a process that ends meanwhile is left
// out). Empty where /proc cannot be read.
std::vector<pid_t> Descendants(pid_t root);

// HasEnded says whether `process` has ended: it is gone from /proc, or a
// zombie its parent has not reaped yet. The tests that check no child
// outlives matload ask this of every process they started.
bool HasEnded(pid_t process);

// WaitUntilEnded waits up to `limit` for HasEnded, and returns it.
bool WaitUntilEnded(pid_t process, std::chrono::milliseconds limit);

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_PROCESS_TREE_H_
