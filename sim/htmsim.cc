// SPDX-License-Identifier: Apache-2.0
//
// htmsim: the project's command-line tool. One table of commands (name, summary, function)
// dispatches `htmsim COMMAND ...` and writes `htmsim --help`; each command is in its own file
// (commands.h).
//
// Two executables are built from it: htmsim, with the golden models only, and htmsim-rtl, the
// same commands with the Verilated models linked in (rtl_models.h; docs/htmsim.md, "One tool,
// two builds"). A command that needs the Verilated models (lockstep, or --rtl) given to htmsim
// runs htmsim-rtl from the same directory in its place, or, when it is not there, exits 2 naming
// the target to build.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

#include "commands.h"
#include "rtl_models.h"

namespace htm::sim {

namespace {

/// When a command needs the Verilated models.
enum class NeedsRtl : uint8_t {
  kNever,
  kWithRtlOption,  // when --rtl is given
  kAlways,
};

struct Command {
  const char* name;
  const char* summary;
  int (*run)(int argc, char** argv);
  NeedsRtl rtl;
};

const Command kCommands[] = {
    {"run", "a workload under a TM configuration on the system model, checked", RunCommand,
     NeedsRtl::kWithRtlOption},
    {"suite", "every workload x TM configuration (and GPU-LocalTM); the report", SuiteCommand,
     NeedsRtl::kWithRtlOption},
    {"check", "checks a commit log written by run --commit-log", CheckCommand, NeedsRtl::kNever},
    {"list", "the workloads, TM configurations, machines and scales", ListCommand,
     NeedsRtl::kNever},
    {"lds", "GPU-LocalTM on the compute-unit model: list, run, suite, rates", LdsCommand,
     NeedsRtl::kWithRtlOption},
    {"ecr", "rates of the early-conflict-resolution blocks CAT and RCT", EcrCommand,
     NeedsRtl::kWithRtlOption},
    {"si", "the post-dating unit against an exact cycle detector: oracle", SiCommand,
     NeedsRtl::kNever},
    {"cu-system", "commit units with scripted cores: serial-order harness, rates", CuSystemCommand,
     NeedsRtl::kNever},
    {"proto", "runs a prototype workload on the FPGA prototype over its UART", ProtoCommand,
     NeedsRtl::kNever},
    {"lockstep", "every block's RTL (and netlist) against its golden model", LockstepCommand,
     NeedsRtl::kAlways},
    {"coverage", "the blocks' coverage events under their random benches", CoverageCommand,
     NeedsRtl::kAlways},
};

std::string& ProgramPathStorage() {
  static std::string path = "htmsim";
  return path;
}

void Usage(std::ostream& os) {
  os << "Usage: htmsim COMMAND [options]       (htmsim COMMAND --help: the command's options)\n\n"
        "Commands:\n";
  for (const Command& c : kCommands) {
    os << "  " << std::left << std::setw(10) << c.name << " " << c.summary
       << (c.rtl == NeedsRtl::kAlways ? " [htmsim-rtl]" : "") << "\n";
  }
  os << "\nThis is "
     << (HasRtlModels() ? "htmsim-rtl, with the golden and the Verilated models."
                        : "htmsim, with the golden models only.")
     << " lockstep, and --rtl of run, suite,\n"
        "lds rates and ecr rates, need the Verilated models: htmsim hands them to htmsim-rtl\n"
        "in its own directory. `htmsim --block ...` (lockstep options first) is htmsim lockstep.\n"
        "Exit status: 0 success, 1 a run or check failed, 2 bad usage.\n";
}

bool HasRtlOption(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rtl") == 0 || std::strncmp(argv[i], "--rtl=", 6) == 0) {
      return true;
    }
  }
  return false;
}

/// Runs htmsim-rtl from this executable's directory with the same command line; returns only
/// when it cannot (exit status 2, the message names the target to build).
int HandOverToRtl(const std::string& what, int argc, char** argv) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path sibling =
      ec ? std::filesystem::path() : self.parent_path() / "htmsim-rtl";
  if (!sibling.empty() && access(sibling.c_str(), X_OK) == 0) {
    std::vector<std::string> store(argv, argv + argc);
    store[0] = sibling.string();
    std::vector<char*> args;
    for (std::string& s : store) {
      args.push_back(s.data());
    }
    args.push_back(nullptr);
    execv(sibling.c_str(), args.data());
    std::cerr << "htmsim: cannot run " << sibling.string() << ": " << std::strerror(errno) << "\n";
    return 2;
  }
  std::cerr << what
            << ": needs the Verilated models; this htmsim has the golden models only and no "
               "htmsim-rtl beside it"
            << (sibling.empty() ? "" : " (" + sibling.string() + ")")
            << ".\nBuild the target htmsim-rtl, in a tree configured with -DHTM_RTL=ON (the "
               "default, as make test's build/):\n"
               "  make configure && cmake --build build --target htmsim-rtl\n"
               "then run build/sim/htmsim-rtl, or build/sim/htmsim, which hands over to it.\n";
  return 2;
}

}  // namespace

const std::string& ProgramPath() {
  return ProgramPathStorage();
}

}  // namespace htm::sim

int main(int argc, char** argv) {
  using htm::sim::Command;
  using htm::sim::kCommands;
  using htm::sim::NeedsRtl;
  htm::sim::ProgramPathStorage() = argv[0];
  if (argc < 2) {
    htm::sim::Usage(std::cerr);
    return 2;
  }
  std::string name = argv[1];
  std::vector<char*> args(argv, argv + argc);
  static char help[] = "--help";
  if (name == "help" && argc > 2) {  // htmsim help COMMAND: htmsim COMMAND --help
    name = argv[2];
    args = {argv[0], argv[2], help};
  } else if (name == "--help" || name == "-h" || name == "help") {
    htm::sim::Usage(std::cout);
    return 0;
  } else if (name.size() > 1 && name[0] == '-') {
    // The lockstep regression's options without the command name, as before there were
    // commands.
    static char lockstep[] = "lockstep";
    args.insert(args.begin() + 1, lockstep);
    name = lockstep;
  }
  for (const Command& c : kCommands) {
    if (name != c.name) {
      continue;
    }
    const int n = static_cast<int>(args.size());
    if (!htm::sim::HasRtlModels() &&
        (c.rtl == NeedsRtl::kAlways ||
         (c.rtl == NeedsRtl::kWithRtlOption && htm::sim::HasRtlOption(n, args.data())))) {
      return htm::sim::HandOverToRtl(
          c.rtl == NeedsRtl::kAlways ? "htmsim " + name : "htmsim " + name + " --rtl", n,
          args.data());
    }
    return c.run(n - 1, args.data() + 1);
  }
  std::string names;
  for (const Command& c : kCommands) {
    names += (names.empty() ? "" : ", ") + std::string(c.name);
  }
  std::cerr << "htmsim: unknown command '" << name << "' (" << names << "; try htmsim --help)\n";
  return 2;
}
