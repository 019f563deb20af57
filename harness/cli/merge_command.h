// `matload merge RUN|PARENT... [--from DB,...] [--db DB] [--out DIR]`: the
// shards of a sharded run (--shard; harness/runs/shard.h), read from the
// stores that hold them, joined into one new run in --db that equals the
// run one process would have made (harness/runs/shard_merge.h), with a run
// directory of its own holding the shards' bundles and the reports the
// unsharded command writes, rendered from the merged cases and artifacts:
// support's reports; conform's summaries, results.tsv and bundle index
// (harness/conform/conform_merge.h). The shards' run
// directories must be reachable from here for their bundles (a shared file
// system, as on a Slurm cluster).
#ifndef MATLOAD_HARNESS_CLI_MERGE_COMMAND_H_
#define MATLOAD_HARNESS_CLI_MERGE_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace matload {

// RunMergeCommand merges the shard runs `arguments` name (run IDs, or the
// parent whose shards to take), with --from, --db and --out already set,
// and returns the exit status: the merged run's (0 clean, 1 findings, as
// the unsharded command would exit), or 2 when the runs are not every
// finished shard of one run exactly once, saying why, with nothing written.
int RunMergeCommand(const std::vector<std::string>& arguments, const std::string& command_line, std::ostream& out,
                    std::ostream& err);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_MERGE_COMMAND_H_
