// End-to-end: the built binary, its exit codes and its messages on bad input.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/compile/ptxas.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/process_tree.h"
#include "harness/platform/source_tree.h"
#include "harness/platform/subprocess.h"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// LargestChildKilobytes is the peak resident memory of the largest child
// this test has waited for.
long LargestChildKilobytes() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  return usage.ru_maxrss;
}

// Matload runs matload with `arguments`, its runs recorded in a results
// store of this test's own.
ProcessResult Matload(std::vector<std::string> arguments, std::vector<std::string> environment = {}) {
  arguments.insert(arguments.begin(), MATLOAD_BINARY);
  environment.insert(environment.begin(), "MATLOAD_DB=" + ::testing::TempDir() + "/matload_cli_test.sqlite");
  absl::StatusOr<ProcessResult> result = RunProcess(arguments, std::chrono::seconds(600), environment);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : ProcessResult{};
}

TEST(MatloadCliTest, ChecksASnippet) {
  ProcessResult result = Matload({"check", "--target", "sm_90", "--ptx", "9.0",
                                  "ldmatrix.sync.aligned.m8n8.x4.trans.b16 {a, b, c, d}, [p];"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.standard_output, "legal\n");
}

TEST(MatloadCliTest, ChecksManyTargetsAsJson) {
  ProcessResult result = Matload({"check", "--target", "all", "--json", "tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [t];"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.standard_output, HasSubstr(R"("target":"sm_100a","verdict":"legal")"));
  EXPECT_THAT(result.standard_output, HasSubstr(R"("target":"sm_120a","verdict":"illegal")"));
}

TEST(MatloadCliTest, PrintsForms) {
  ProcessResult result = Matload({"forms", "--target", "sm_75", "--ptx", "6.5"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.standard_output, HasSubstr("ldmatrix.sync.aligned.m8n8.x1.b16 {%r0}, [%addr];\n"));
}

TEST(MatloadCliTest, BadInputGetsAClearMessageAndNonzeroExit) {
  struct Case {
    std::vector<std::string> arguments;
    const char* message;
  };
  for (const Case& bad : std::vector<Case>{
           {{"check", "--target", "sm_91", "x;"}, "--target: unknown target 'sm_91'"},
           {{"check", "--target", "sm_90", "--ptx", "6.9", "x;"}, "--ptx: unknown PTX ISA version '6.9'"},
           {{"check", "--target", "sm_90"}, "check needs one snippet argument"},
           {{"check", "--target", "sm_90", "--file", "/nonexistent"}, "snippet file: cannot read /nonexistent"},
           {{"forms", "--target", "sm_90,sm_80"}, "forms takes exactly one --target"},
           {{"forms", "--target", "sm_110a", "--ptx", "8.8"}, "does not exist in PTX ISA 8.8"},
           {{"frobnicate"}, "unknown command 'frobnicate'"},
           {{}, "no command"},
       }) {
    ProcessResult result = Matload(bad.arguments);
    EXPECT_EQ(result.exit_code, 2) << bad.message;
    EXPECT_THAT(result.standard_error, HasSubstr(bad.message));
  }
  ProcessResult unknown_flag = Matload({"check", "--no-such-flag"});
  EXPECT_EQ(unknown_flag.exit_code, 2);
  EXPECT_THAT(unknown_flag.standard_error, HasSubstr("unknown flag '--no-such-flag' for check"));
}

// Each bad value of the bad-input report: exit 2, the flag and its range named.
TEST(MatloadCliTest, NumericFlagsOutsideTheirRangeExit2NamingTheRange) {
  struct Case {
    std::vector<std::string> arguments;
    const char* message;
  };
  const std::string wmma = "wmma.load.a.sync.aligned.row.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p];";
  for (const Case& bad : std::vector<Case>{
           {{"support", "--threads", "100000"}, "--threads: '100000' is not a whole number from 1 to 64"},
           {{"conform", "--variants", "2147483648"}, "--variants: '2147483648' is not a whole number from 1 to 2147483647"},
           {{"conform", "--workers", "0"}, "--workers: '0' is not a whole number from 1 to 256"},
           {{"conform", "--device", "-1"}, "--device: '-1' is not a whole number from 0 to 1023"},
           {{"fuzz", "--jobs", "100000"}, "--jobs: '100000' is not a whole number from 1 to 256"},
           {{"fuzz", "--seconds", "2147483647"}, "--seconds: '2147483647' is not a whole number from 1 to 31536000"},
           {{"model", "--target", "sm_90", "--stride", "4294967312", wmma},
            "--stride: '4294967312' is not a whole number from 0 to 4294967295"},
           {{"model", "--target", "sm_90", "--stride=-1", wmma}, "--stride: '-1' is not a whole number from 0 to"},
           {{"model", "--target", "sm_90", "--base", "4294967296", wmma},
            "--base: '4294967296' is not a whole number from 0 to 4294967295"},
           {{"model", "--target", "sm_90", "--row-addresses", "0,4294967296", wmma},
            "--row_addresses: '0,4294967296' is not a whole number from 0 to 4294967295"},
       }) {
    ProcessResult result = Matload(bad.arguments);
    EXPECT_EQ(result.exit_code, 2) << bad.message;
    EXPECT_THAT(result.standard_error, HasSubstr(bad.message));
  }
  EXPECT_THAT(Matload({"conform", "--variants", "0"}).standard_error,
              HasSubstr("a variant's index, half of its replay key, is a 32-bit int"));
}

TEST(MatloadCliTest, AStrideInRangeIsUsedAndNoStrideMeansTheDefault) {
  const std::string wmma = "wmma.load.a.sync.aligned.row.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p], s;";
  ProcessResult given = Matload({"model", "--target", "sm_90", "--stride", "32", wmma});
  ProcessResult sixteen = Matload({"model", "--target", "sm_90", "--stride", "16", wmma});
  ProcessResult absent = Matload({"model", "--target", "sm_90", wmma});
  EXPECT_EQ(given.exit_code, 0) << given.standard_error;
  EXPECT_EQ(absent.exit_code, 0) << absent.standard_error;
  EXPECT_NE(given.standard_output, absent.standard_output);
  EXPECT_EQ(sixteen.standard_output, absent.standard_output);  // 16 is this form's default stride
}

TEST(MatloadCliTest, EachCommandTakesOnlyItsOwnFlags) {
  ProcessResult result = Matload({"check", "--workers", "3", "--target", "sm_90", "x;"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.standard_error, HasSubstr("unknown flag '--workers' for check; check takes --target, --ptx"));
  EXPECT_EQ(Matload({"devices", "--json"}).exit_code, 2);
}

TEST(MatloadCliTest, HelpExits0) {
  ProcessResult usage = Matload({"--help"});
  EXPECT_EQ(usage.exit_code, 0);
  EXPECT_THAT(usage.standard_output, HasSubstr("matload COMMAND [flags]"));
  EXPECT_THAT(usage.standard_output, HasSubstr("  conform   every legal form on the GPU"));
  EXPECT_THAT(usage.standard_output, Not(HasSubstr("--workers")));
  EXPECT_THAT(usage.standard_output, Not(HasSubstr("Flags from")));
  ProcessResult check = Matload({"check", "--help"});
  EXPECT_EQ(check.exit_code, 0);
  EXPECT_THAT(check.standard_output, HasSubstr("  --file (default: \"\")"));
  EXPECT_THAT(check.standard_output, HasSubstr("example:\n  matload check --target sm_90 "));
  EXPECT_THAT(check.standard_output, Not(HasSubstr("--workers")));
  EXPECT_EQ(Matload({"conform", "-h"}).exit_code, 0);
}

TEST(MatloadCliTest, VersionNamesTheBuildAndTheToolchainsFound) {
  ProcessResult version = Matload({"--version"});
  EXPECT_EQ(version.exit_code, 0) << version.standard_error;
  EXPECT_THAT(version.standard_output, ::testing::ContainsRegex("^matload [0-9]+\\.[0-9]+ \\("));
  EXPECT_THAT(version.standard_output, ::testing::ContainsRegex("\ncommit [0-9a-f]{40}|\ncommit unknown"));
  EXPECT_THAT(version.standard_output, HasSubstr("\nbuild type "));
  EXPECT_THAT(version.standard_output, HasSubstr("\nptxas "));
  EXPECT_THAT(version.standard_output, HasSubstr("\nnvJitLink: "));
  EXPECT_THAT(version.standard_output, HasSubstr("\nCUDA driver: "));
  EXPECT_EQ(Matload({"--version", "check"}).exit_code, 2);
}

// The README spells it --row-addresses; the flag is row_addresses.
TEST(MatloadCliTest, RowAddressesTakesBothSpellings) {
  std::string rows = "0";
  for (int lane = 1; lane < 32; ++lane) absl::StrAppend(&rows, ",", 32 * lane);
  for (const char* flag : {"--row-addresses", "--row_addresses"}) {
    ProcessResult result =
        Matload({"model", "--target", "sm_90", flag, rows, "ldmatrix.sync.aligned.m8n8.x1.b16 {r}, [p];"});
    EXPECT_EQ(result.exit_code, 0) << flag << ": " << result.standard_error;
    EXPECT_THAT(result.standard_output, HasSubstr("lane 0: "));
  }
}

// The snippets of the bad-input report: 4 and 38 million registers asked
// for in 11 KB and 119 KB. Each is a verdict, and matload's peak memory
// stays small (before the limit, the first took 400 MB, the second ended
// in bad_alloc).
TEST(MatloadCliTest, HugeDeclarationsAreALimitVerdictInLittleMemory) {
  for (int vectors : {1000, 9300}) {
    std::string snippet = ".reg .b32 a0<4096>";
    for (int i = 1; i < vectors; ++i) absl::StrAppend(&snippet, ", a", i, "<4096>");
    absl::StrAppend(&snippet, "; ldmatrix.sync.aligned.m8n8.x1.b16 {a0}, [p];");
    ProcessResult result = Matload({"check", "--target", "sm_90", snippet});
    EXPECT_EQ(result.exit_code, 0) << snippet.size();
    EXPECT_THAT(result.standard_output, HasSubstr("illegal: limit (limit.declared-names): the snippet declares more "
                                                  "than 65536 names"));
  }
  EXPECT_LT(LargestChildKilobytes(), 100 * 1024);
}

TEST(MatloadCliTest, FileErrorsExit2NamingThePath) {
  const std::filesystem::path directory = std::filesystem::path(::testing::TempDir()) / "matload_cli_test_files";
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory / "fuzzers");
  const std::filesystem::path existing = directory / "existing-file";
  std::ofstream(existing) << "x";
  std::ofstream(directory / "fuzzers" / "text_fuzzer") << "a fuzzer that never runs";
  struct Case {
    std::vector<std::string> arguments;
    std::string message;
  };
  const std::string fuzzers = (directory / "fuzzers").string();
  for (const Case& bad : std::vector<Case>{
           {{"fuzz", "--targets", "text", "--fuzzers", fuzzers, "--out", existing.string()},
            absl::StrCat("--out ", existing.string(), " is a file, not a directory")},
           {{"fuzz", "--targets", "text", "--fuzzers", fuzzers, "--out", "/sys/matload-cli-test"},
            "cannot create /sys/matload-cli-test: "},
           {{"check", "--target", "sm_90", "--file", directory.string()},
            absl::StrCat("snippet file: ", directory.string(), " is a directory, not a regular file")},
           {{"check", "--target", "sm_90", "--file", "/dev/zero"},
            "snippet file: /dev/zero is a character device, not a regular file"},
       }) {
    ProcessResult result = Matload(bad.arguments);
    EXPECT_EQ(result.exit_code, 2) << bad.message;
    EXPECT_THAT(result.standard_error, HasSubstr(bad.message));
  }
}

// Without a driver matload says so and exits 3; with one it lists devices.
TEST(MatloadCliTest, DevicesSaysWhetherAGpuIsThere) {
  ProcessResult result = Matload({"devices"});
  if (result.exit_code == 3) {
    EXPECT_THAT(result.standard_output, HasSubstr("compile-only mode"));
  } else {
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_THAT(result.standard_output, HasSubstr("device 0: "));
  }
}

TEST(MatloadCliTest, SupportRejectsBadOptions) {
  ProcessResult compiler = Matload({"support", "--compiler", "gcc"});
  EXPECT_EQ(compiler.exit_code, 2);
  EXPECT_THAT(compiler.standard_error, HasSubstr("unknown compiler 'gcc'"));
  ProcessResult target = Matload({"support", "--target", "sm_101a"});
  EXPECT_EQ(target.exit_code, 2);
  EXPECT_THAT(target.standard_error, HasSubstr(".target sm_101a does not exist in PTX ISA 9.0"));
  ProcessResult ptxas = Matload({"support", "--ptxas", "/nonexistent/ptxas", "--target", "sm_90"});
  EXPECT_EQ(ptxas.exit_code, 2);
  EXPECT_THAT(ptxas.standard_error, HasSubstr("cannot run /nonexistent/ptxas"));
}

TEST(MatloadCliTest, MalformedSnippetsAreVerdictsNotCrashes) {
  for (const char* garbage : {"", "{{{{", "ldmatrix.sync [", "@", "wmma.load.a {x}, [p+];", "\xff\xfe;"}) {
    ProcessResult result = Matload({"check", "--target", "sm_90", garbage});
    EXPECT_EQ(result.exit_code, 0) << garbage;
    EXPECT_THAT(result.standard_output, HasSubstr("illegal: ")) << garbage;
  }
}

// StartMatload starts matload with `arguments` and `environment` added to
// this process's own, in the background, both of its streams appended to
// `log`, and returns its pid.
pid_t StartMatload(std::vector<std::string> arguments, const std::string& log,
                   std::vector<std::string> environment = {}) {
  arguments.insert(arguments.begin(), MATLOAD_BINARY);
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  environment.push_back("MATLOAD_DB=" + ::testing::TempDir() + "/matload_cli_test.sqlite");
  std::vector<char*> envp;
  for (std::string& variable : environment) envp.push_back(variable.data());
  for (char** variable = environ; *variable != nullptr; ++variable) envp.push_back(*variable);
  envp.push_back(nullptr);
  EXPECT_EQ(posix_spawn(&pid, MATLOAD_BINARY, &actions, nullptr, argv.data(), envp.data()), 0);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

// ProcessesNaming counts the running processes whose command line holds
// `text` (a campaign's fuzzers name its run directory in their arguments).
int ProcessesNaming(const std::string& text) {
  int count = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    std::ifstream file(entry.path() / "cmdline", std::ios::binary);
    const std::string command_line((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    count += command_line.find(text) != std::string::npos;
  }
  return count;
}

// WaitForExit waits up to `limit` for `pid` and returns its exit status,
// or -1 if it is still running (then it is killed).
int WaitForExit(pid_t pid, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// SIGTERM to `matload fuzz` stops its libFuzzer jobs, writes the summary of
// what ran and exits 143. It needs the libFuzzer build of text_fuzzer (the
// replay build in build/default cannot run a campaign).
TEST(MatloadCliTest, FuzzStopsItsJobsOnSigtermAndWritesItsSummary) {
  const std::string fuzzers = MATLOAD_FUZZERS;
  if (!std::filesystem::exists(std::filesystem::path(fuzzers) / "text_fuzzer")) {
    GTEST_SKIP() << "no libFuzzer build of text_fuzzer in " << fuzzers
                 << " (cmake --preset fuzz && cmake --build --preset fuzz --target text_fuzzer)";
  }
  // Normal, as matload stores run directories, so that the fuzzers' command lines name it as written here.
  const std::string out =
      (std::filesystem::path(::testing::TempDir()) / absl::StrCat("matload_cli_test_sigterm_", getpid()))
          .lexically_normal()
          .string();
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out);
  const pid_t matload = StartMatload({"fuzz", "--targets", "text", "--seconds", "600", "--jobs", "2", "--fuzzers",
                                      fuzzers, "--out", out + "/run"},
                                     out + "/matload.log");
  // The campaign runs when matload's libFuzzer parent and its jobs do; on a
  // CI machine busy with ptxas beside this test, starting can take minutes.
  // libFuzzer's FuzzerFork.cpp gives fork job N a max_total_time of N
  // seconds, so early jobs end within a second or two and the count dips
  // between jobs: what shows that the jobs started is the most seen.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(240);
  int most_processes_seen = 0;
  while (most_processes_seen < 3 && std::chrono::steady_clock::now() < deadline) {
    most_processes_seen = std::max(most_processes_seen, ProcessesNaming(out));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_GE(most_processes_seen, 3) << "the campaign did not start its jobs";
  kill(matload, SIGTERM);
  const int exit_status = WaitForExit(matload, std::chrono::seconds(60));
  std::ifstream log(out + "/matload.log");
  const std::string said((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_EQ(exit_status, 143) << said;
  EXPECT_EQ(ProcessesNaming(out), 0);
  std::ifstream summary(out + "/run/summary.md");
  const std::string text((std::istreambuf_iterator<char>(summary)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("| text | "));
  EXPECT_THAT(said, HasSubstr("interrupted by signal 15"));
  std::filesystem::remove_all(out);
}

// ExpectSupportStopsInOrderOn sends `signal` to `matload support`, which
// must end the sweep in order: the targets in flight are recorded, the run
// is stored as interrupted (so that it can be resumed, and retention counts
// it unfinished), and it exits 128+signal.
void ExpectSupportStopsInOrderOn(int signal) {
  const std::filesystem::path out =
      std::filesystem::path(::testing::TempDir()) / absl::StrCat("matload_cli_test_signal_", signal, "_", getpid());
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out);
  const std::string db = (out / "results.sqlite").string();
  const std::string log = (out / "matload.log").string();
  const pid_t matload = StartMatload({"support", "--db", db, "--out", (out / "run").string()}, log);
  // Once it names its run, the run is in the store and the sweep has begun;
  // a cold sweep of every target then takes most of a minute.
  const auto said = [&log] {
    std::ifstream file(log);
    return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (said().find("run support-") == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  kill(matload, signal);
  EXPECT_EQ(WaitForExit(matload, std::chrono::seconds(120)), 128 + signal) << said();
  EXPECT_THAT(said(), HasSubstr(absl::StrCat("interrupted by signal ", signal)));
  const ProcessResult runs = Matload({"runs", "--db", db});
  EXPECT_THAT(runs.standard_output, HasSubstr(" interrupted ")) << runs.standard_output;
  std::filesystem::remove_all(out);
}

TEST(MatloadCliTest, SupportStopsInOrderOnSigint) { ExpectSupportStopsInOrderOn(SIGINT); }

// SIGHUP (a closed terminal or ssh session) is SIGTERM's kind: before, it
// killed matload and left the run marked running.
TEST(MatloadCliTest, SupportStopsInOrderOnSighup) { ExpectSupportStopsInOrderOn(SIGHUP); }

// ReadFile is the file at `path`, or "" if there is none.
std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

// ExpectHistoryStopsWhileItsCompilerHangsOn sends `signal` to `matload
// history` while its second ptxas hangs (fake_ptxas.sh's hang: a module
// run that waits for a child of its own, a sleep): matload must stop at
// once, with 128+signal, and kill the compiler's whole process group, the
// sleep too. Before, the signal waited out the compiler's 120 s time
// limit, or was never heard, and the sleep outlived matload (the second
// attack on issue 34, D2 and D8).
void ExpectHistoryStopsWhileItsCompilerHangsOn(int signal) {
  const std::filesystem::path out = std::filesystem::path(::testing::TempDir()) /
                                    absl::StrCat("matload_cli_test_hung_history_", signal, "_", getpid());
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out);
  const std::filesystem::path child_pid_file = out / "child.pid";
  const std::string log = (out / "matload.log").string();
  const pid_t matload = StartMatload(
      {"history", "--target", "sm_90", "--include", "sm_90.ldmatrix.sync.aligned.m8n8.x1.*", "--ptxas",
       absl::StrCat(Ptxas::DefaultPath(), ",", SourceTreePath("harness/testing/fake_ptxas.sh")), "--db",
       (out / "results.sqlite").string(), "--out", (out / "run").string()},
      log, {"MATLOAD_FAKE_PTXAS=hang", absl::StrCat("MATLOAD_FAKE_PTXAS_CHILD_PID_FILE=", child_pid_file.string())});
  pid_t child = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!absl::SimpleAtoi(absl::StripAsciiWhitespace(ReadFile(child_pid_file)), &child) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_GT(child, 0) << "the fake ptxas never hung: " << ReadFile(log);
  const auto signalled = std::chrono::steady_clock::now();
  kill(matload, signal);
  EXPECT_EQ(WaitForExit(matload, std::chrono::seconds(30)), 128 + signal) << ReadFile(log);
  EXPECT_LT(std::chrono::steady_clock::now() - signalled, std::chrono::seconds(5)) << "heard only at a time limit";
  EXPECT_THAT(ReadFile(log), HasSubstr(absl::StrCat("interrupted by signal ", signal)));
  EXPECT_TRUE(WaitUntilEnded(child, std::chrono::seconds(2))) << "the hung compiler's child outlived matload";
  kill(child, SIGKILL);  // no sleep is left behind, even when the test fails
  std::filesystem::remove_all(out);
}

TEST(MatloadCliTest, HistoryStopsOnSigintWhileItsCompilerHangs) { ExpectHistoryStopsWhileItsCompilerHangsOn(SIGINT); }

TEST(MatloadCliTest, HistoryStopsOnSigtermWhileItsCompilerHangs) { ExpectHistoryStopsWhileItsCompilerHangsOn(SIGTERM); }

// SupportWithFakePtxas runs `matload support --target sm_90` on ldmatrix with
// harness/testing/fake_ptxas.sh in `mode`, into a fresh directory `out`.
ProcessResult SupportWithFakePtxas(const std::string& mode, const std::string& out) {
  std::filesystem::remove_all(out);
  // ldmatrix's cases only: what each mode does to ptxas's answers does not
  // depend on the family, and the sweep of every sm_90 form took 10 s of
  // CPU a test (docs/testing.md).
  return Matload({"support", "--target", "sm_90", "--include", "*.ldmatrix.*", "--ptxas",
                  SourceTreePath("harness/testing/fake_ptxas.sh"), "--out", out},
                 {"MATLOAD_FAKE_PTXAS=" + mode});
}

// A compiler that crashed, printed nothing or what cannot be read, accepted
// the canary or rejected the empty module ends the sweep with exit 4 and
// no report: no verdict it could not reach is published.
TEST(MatloadCliTest, SupportExitsFourWithoutAReportWhenTheCompilerCannotJudge) {
  for (const auto& [mode, cause] : std::vector<std::pair<std::string, std::string>>{
           {"crash", "compiler crashed"},
           {"silent", "compiler output not understood"},
           {"garbage", "compiler output not understood"},
           {"accept-all", "must be rejected"},
           {"reject", "rejected an empty module"}}) {
    const std::string out = ::testing::TempDir() + "/support-" + mode;
    ProcessResult result = SupportWithFakePtxas(mode, out);
    EXPECT_EQ(result.exit_code, kExitInfrastructure) << mode << ": " << result.standard_error;
    EXPECT_THAT(result.standard_error, HasSubstr(cause)) << mode;
    EXPECT_FALSE(std::filesystem::exists(out + "/support.json")) << mode << " wrote a report of verdicts it lacks";
  }
}

// A ptxas that dies right after naming the PTX version it speaks (12.0.140
// does, on any .version it does not speak) is heard, and swept.
TEST(MatloadCliTest, SupportHearsAPtxasThatCrashesAfterNamingItsVersion) {
  const std::string out = ::testing::TempDir() + "/support-crash-after-version";
  ProcessResult result = SupportWithFakePtxas("crash-after-version", out);
  EXPECT_EQ(result.exit_code, kExitClean) << result.standard_error.substr(0, 2000);
  EXPECT_TRUE(std::filesystem::exists(out + "/support.json"));
}

// Lines ptxas does not print (a loader's warning, a 100 KB line) change no
// verdict: sm_90's ldmatrix has no unexplained disagreement with ptxas
// 13.0.88 (reports/support/ptxas-13.0.88/ptx9.0/support.md).
TEST(MatloadCliTest, SupportIsCleanDespiteAnExtraStderrLine) {
  const std::string out = ::testing::TempDir() + "/support-extra-line";
  ProcessResult result = SupportWithFakePtxas("extra-line", out);
  EXPECT_EQ(result.exit_code, kExitClean) << result.standard_error;
  EXPECT_THAT(result.standard_output, HasSubstr(" 0 unexplained"));
  EXPECT_THAT(result.standard_error, HasSubstr("printed a line not in its diagnostic format: ERROR: ld.so"));
  EXPECT_TRUE(std::filesystem::exists(out + "/support.json"));
}

TEST(MatloadCliTest, SupportIsCleanDespiteAHundredKilobyteLine) {
  ProcessResult result = SupportWithFakePtxas("long-line", ::testing::TempDir() + "/support-long-line");
  EXPECT_EQ(result.exit_code, kExitClean) << result.standard_error.substr(0, 2000);
  EXPECT_THAT(result.standard_output, HasSubstr(" 0 unexplained"));
}

// Unexplained disagreements are findings: exit 1, with the report written.
TEST(MatloadCliTest, SupportExitsOneOnUnexplainedDisagreements) {
  const std::string out = ::testing::TempDir() + "/support-reject-ldmatrix";
  ProcessResult result = SupportWithFakePtxas("reject-ldmatrix", out);
  EXPECT_EQ(result.exit_code, kExitFindings) << result.standard_error;
  EXPECT_THAT(result.standard_output, ::testing::Not(HasSubstr(" 0 unexplained")));
  EXPECT_TRUE(std::filesystem::exists(out + "/support.json"));
}

}  // namespace
}  // namespace matload
