// SPDX-License-Identifier: Apache-2.0
//
// htmsim lockstep: the lockstep regression of every block x configuration (RTL against the golden
// model, optionally the Yosys netlists), or of those selected. In htmsim-rtl only (it needs the
// Verilated models).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "cli_util.h"
#include "commands.h"
#include "htm/tb/registry.h"
#include "htm/tb/stimulus.h"

namespace po = boost::program_options;

namespace htm::sim {

namespace {

struct Args {
  std::vector<std::string> blocks;
  std::vector<std::string> configs;
  uint64_t cycles = 200000;
  std::optional<uint64_t> seed;
  std::string waves;
  bool netlist = false;
  bool list = false;
};

int Usage(const po::options_description& desc) {
  std::cout << "Usage: htmsim lockstep [options]\n\n"
               "Runs the cycle-exact lockstep regression (RTL against the golden model) of every\n"
               "block and named configuration, or of those selected, and prints a summary.\n\n"
            << desc
            << "\nExit status: 0 when every run passed, 1 when one failed, 2 on bad "
               "usage.\n";
  return 0;
}

}  // namespace

int LockstepCommand(int argc, char** argv) {
  Args a;
  uint64_t seed_value = 0;
  po::options_description desc("Options");
  desc.add_options()("help,h", "print this help and exit")(
      "list", po::bool_switch(&a.list), "list the blocks and configurations and exit")(
      "block", po::value(&a.blocks)->composing(), "run only this block (repeatable), e.g. htm_sig")(
      "config", po::value(&a.configs)->composing(),
      "run only this named configuration (repeatable), e.g. default")(
      "cycles", Num(&a.cycles), "random stimulus cycles per run (> 0)")(
      "seed", NumNoDefault(&seed_value), "stimulus seed (default: $HTM_SEED, else random)")(
      "netlist", po::bool_switch(&a.netlist), "also run the Yosys netlists")(
      "waves", po::value(&a.waves),
      "dump FST waves to this file (needs exactly one selected run); a GTKWave view is "
      "written to <file>.gtkw");
  po::variables_map vm;
  if (!ParseOptions("htmsim lockstep", argc, argv, desc, vm)) {
    return 2;
  }
  if (vm.count("help")) {
    return Usage(desc);
  }
  if (a.cycles == 0) {
    std::cerr << "htmsim lockstep: --cycles must be greater than 0\n";
    return 2;
  }
  if (vm.count("seed")) {
    a.seed = seed_value;
  }
  const auto& reg = tb::Registry();
  auto known = [&](const std::string& v, bool block) {
    return std::any_of(reg.begin(), reg.end(),
                       [&](const tb::Entry& e) { return (block ? e.block : e.config) == v; });
  };
  for (const auto& b : a.blocks) {
    if (!known(b, true)) {
      std::cerr << "htmsim lockstep: unknown block '" << b << "' (see --list)\n";
      return 2;
    }
  }
  for (const auto& c : a.configs) {
    if (!known(c, false)) {
      std::cerr << "htmsim lockstep: unknown configuration '" << c << "' (see --list)\n";
      return 2;
    }
  }
  auto selected = [&](const tb::Entry& e) {
    auto in = [](const std::vector<std::string>& v, const std::string& s) {
      return v.empty() || std::find(v.begin(), v.end(), s) != v.end();
    };
    return in(a.blocks, e.block) && in(a.configs, e.config) && (a.netlist || !e.netlist);
  };
  std::vector<const tb::Entry*> runs;
  for (const auto& e : reg) {
    if (a.list) {
      std::printf("%-18s %-10s %s\n", e.block.c_str(), e.config.c_str(),
                  e.netlist ? "netlist" : "rtl");
    } else if (selected(e)) {
      runs.push_back(&e);
    }
  }
  if (a.list) {
    return 0;
  }
  if (runs.empty()) {
    std::cerr << "htmsim lockstep: no block/configuration matches the selection (see --list)\n";
    return 2;
  }
  if (!a.waves.empty() && runs.size() != 1) {
    std::cerr
        << "htmsim lockstep: --waves needs exactly one run; select it with --block and --config "
           "(selected: "
        << runs.size() << ")\n";
    return 2;
  }
  uint64_t seed = 0;
  try {
    seed = a.seed ? *a.seed : tb::SeedFromEnv();
  } catch (const std::exception& e) {
    std::cerr << "htmsim lockstep: " << e.what() << "\n";
    return 2;
  }
  std::printf(
      "htmsim lockstep: every selected block and configuration, seed %llu, %llu cycles per run\n\n",
      static_cast<unsigned long long>(seed), static_cast<unsigned long long>(a.cycles));
  std::printf("%-18s %-10s %-8s %10s %14s  %s\n", "block", "config", "model", "cycles", "cycles/s",
              "result");
  int failed = 0;
  std::vector<std::string> reports;
  for (const auto* e : runs) {
    tb::RunOptions o;
    o.block = e->block;
    o.config = e->config;
    o.netlist = e->netlist;
    o.seed = seed;
    o.cycles = a.cycles;
    o.waves = a.waves;
    o.repro = ProgramPath() + " lockstep --block " + e->block + " --config " + e->config +
              (e->netlist ? " --netlist" : "") + " --seed " + std::to_string(seed) + " --cycles " +
              std::to_string(a.cycles) + " --waves " + e->block + "_" + e->config + ".fst";
    const tb::RunResult r = e->run(o);
    std::printf("%-18s %-10s %-8s %10llu %14.0f  %s\n", e->block.c_str(), e->config.c_str(),
                e->netlist ? "netlist" : "rtl", static_cast<unsigned long long>(r.cycles),
                r.seconds > 0 ? r.cycles / r.seconds : 0.0, r.passed ? "PASS" : "FAIL");
    std::fflush(stdout);
    if (!r.passed) {
      ++failed;
      reports.push_back(r.error);
    }
  }
  for (const auto& r : reports) {
    std::printf("\n%s", r.c_str());
  }
  std::printf("\n%zu passed, %d failed\n", runs.size() - failed, failed);
  return failed ? 1 : 0;
}

}  // namespace htm::sim
