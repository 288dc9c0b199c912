// Runs a shell command line (e.g. the xcvrctl binary) and captures its output and exit code.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace xcvr::test {

struct CommandResult {
  int code = -1;    // exit status, -1 when it did not exit normally
  std::string out;  // stdout (plus stderr when the command line redirects it)
};

inline CommandResult run_command(const std::string& command_line) {
  CommandResult r;
  FILE* p = ::popen(command_line.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace xcvr::test
