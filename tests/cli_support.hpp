// Running the built programs from tests: `lddb` (LDDB_CLI) for cli_test and cli_search_test,
// `lddb-bench` (LDDB_BENCH) for suite_test.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cli_support {

namespace fs = std::filesystem;

struct run_result {
  int status = -1;  // exit status; 1000 + signal when killed by a signal
  std::string out, err;
  std::string all() const { return out + err; }
};

// Single-quoted for the shell.
inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
inline std::string quote(const fs::path& p) { return quote(p.string()); }

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_file(const fs::path& p, const std::string& bytes) {
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// An empty scratch folder for the running test: LDDB_BINARY_DIR/<folder>/<suite.test>.
inline fs::path fresh_scratch_dir(const std::string& folder) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name)
    if (c == '/') c = '_';
  const fs::path dir = fs::path(LDDB_BINARY_DIR) / folder / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Runs `<program> <args>` with stdin closed, its output caught in `scratch`; `env` is
// prepended (e.g. "LDDB_DATA_DIR=x"), and the command runs in `cwd` when given.
inline run_result run_program_in(const std::string& program, const fs::path& scratch, const std::string& args,
                                 const std::string& env = "", const std::optional<fs::path>& cwd = std::nullopt) {
  const fs::path out = scratch / "stdout.txt", err = scratch / "stderr.txt";
  const std::string cmd = (cwd ? "cd " + quote(*cwd) + " && " : std::string()) + env + (env.empty() ? "" : " ") +
                          quote(program) + " " + args + " </dev/null >" + quote(out) + " 2>" + quote(err);
  const int raw = std::system(cmd.c_str());
  run_result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 1000 + (WIFSIGNALED(raw) ? WTERMSIG(raw) : 0);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

// run_program_in for `lddb` (LDDB_CLI).
inline run_result run_in(const fs::path& scratch, const std::string& args, const std::string& env = "",
                         const std::optional<fs::path>& cwd = std::nullopt) {
  return run_program_in(LDDB_CLI, scratch, args, env, cwd);
}

// As run_in, and the peak resident memory of the lddb process in KiB (wait4's rusage;
// the shell execs lddb, so the figure is lddb's own).
inline run_result run_measured(const fs::path& scratch, const std::string& args, long* max_rss_kib) {
  const fs::path out = scratch / "stdout.txt", err = scratch / "stderr.txt";
  const std::string cmd = "exec " + quote(std::string(LDDB_CLI)) + " " + args + " </dev/null >" + quote(out) + " 2>" +
                          quote(err);
  run_result r;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int raw = 0;
  struct rusage usage {};
  if (pid < 0 || ::wait4(pid, &raw, 0, &usage) != pid) {
    ADD_FAILURE() << "cannot run " << cmd;
    return r;
  }
  *max_rss_kib = usage.ru_maxrss;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 1000 + (WIFSIGNALED(raw) ? WTERMSIG(raw) : 0);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

// Files in `dir` (recursively) whose name has ".tmp-": the temporary files of atomic
// writes, which no run may leave behind.
inline std::vector<std::string> leftover_temporaries(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().filename().string().find(".tmp-") != std::string::npos) found.push_back(e.path().string());
  return found;
}

// A failure the user caused: a non-zero exit below 128 (no crash, no signal), `status`
// exactly when given, a message mentioning `must_mention`, no stack trace or exception text.
inline void expect_clean_failure(const run_result& r, const std::string& must_mention, int status = -1) {
  EXPECT_GT(r.status, 0) << r.all();
  EXPECT_LT(r.status, 128) << r.all();
  if (status >= 0) {
    EXPECT_EQ(r.status, status) << r.all();
  }
  EXPECT_NE(r.all().find(must_mention), std::string::npos) << "expected '" << must_mention << "' in:\n" << r.all();
  EXPECT_EQ(r.all().find("terminate called"), std::string::npos) << r.all();
  EXPECT_EQ(r.all().find("what()"), std::string::npos) << r.all();
}

}  // namespace cli_support
