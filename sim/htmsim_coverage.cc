// SPDX-License-Identifier: Apache-2.0
//
// `htmsim coverage`: the bench column of docs/coverage.md. It runs the blocks' random benches,
// which live beside the Verilated models, so it is a command of htmsim-rtl (htmsim hands it
// over, sim/htmsim.cc).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "cli_util.h"
#include "commands.h"
#include "coverage.h"
#include "htm/tb/registry.h"

namespace po = boost::program_options;

namespace htm::sim {

int CoverageCommand(int argc, char** argv) {
  std::vector<std::string> blocks, configs;
  uint64_t cycles = 0, seed = 1;
  bool golden_only = false;
  std::string out;
  po::options_description desc("Options of htmsim coverage");
  desc.add_options()("help,h", "print this help and exit")(
      "block", po::value(&blocks)->composing(),
      "only this block (repeatable); default: every block whose golden model counts events")(
      "config", po::value(&configs)->composing(), "only this configuration (repeatable)")(
      "cycles", Num(&cycles), "cycles per run (0: each configuration's make-test length)")(
      "seed", Num(&seed), "stimulus seed")(
      "golden", po::bool_switch(&golden_only),
      "run each bench on the golden model alone (the same stimulus and counts, no RTL)")(
      "out,o", po::value(&out), "write the counts as JSON (docs/coverage.md) to this file");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(desc).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "htmsim coverage: " << e.what() << " (try htmsim coverage --help)\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << "Usage: htmsim coverage [--block B ...] [--config C ...] [--cycles N] [--seed S]\n"
                 "                       [--golden] [--out FILE]\n\n"
                 "Runs the random lockstep bench of every block and named configuration (RTL\n"
                 "against the golden model) and sums the golden models' coverage events per\n"
                 "block: the bench column of docs/coverage.md. tools/coverage_table.py sets it\n"
                 "beside the workloads' (htmsim suite --coverage).\n\n"
              << desc << "\nExit status: 0 every run passed, 1 a run failed, 2 bad usage.\n";
    return 0;
  }
  const auto& reg = tb::Registry();
  for (const std::string& b : blocks) {
    if (std::none_of(reg.begin(), reg.end(), [&](const tb::Entry& e) { return e.block == b; })) {
      std::cerr << "htmsim coverage: unknown block '" << b << "' (htmsim lockstep --list)\n";
      return 2;
    }
  }
  auto in = [](const std::vector<std::string>& v, const std::string& s) {
    return v.empty() || std::find(v.begin(), v.end(), s) != v.end();
  };
  std::unique_ptr<AtomicFile> file;
  if (!out.empty()) {
    file = std::make_unique<AtomicFile>(out);
    if (!file->good()) {
      std::cerr << "htmsim coverage: cannot write " << out << "\n";
      return 2;
    }
  }
  CoverageSum sum;
  int failed = 0, runs = 0;
  std::printf("htmsim coverage: the %s benches, seed %llu\n\n",
              golden_only ? "golden-model" : "lockstep", static_cast<unsigned long long>(seed));
  for (const tb::Entry& e : reg) {
    if (e.netlist || !in(blocks, e.block) || !in(configs, e.config)) {
      continue;
    }
    tb::RunOptions o;
    o.block = e.block;
    o.config = e.config;
    o.seed = seed;
    o.cycles = cycles != 0 ? cycles : e.default_cycles;
    o.repro = ProgramPath() + " lockstep --block " + e.block + " --config " + e.config +
              " --seed " + std::to_string(seed) + " --cycles " + std::to_string(o.cycles);
    const tb::RunResult r = golden_only ? e.run_model(o) : e.run(o);
    if (r.coverage.empty() && blocks.empty()) {
      continue;  // a block whose model counts no events
    }
    ++runs;
    std::printf("  %-18s %-10s %8llu cycles  %s\n", e.block.c_str(), e.config.c_str(),
                static_cast<unsigned long long>(o.cycles), r.passed ? "passed" : "FAILED");
    std::fflush(stdout);
    if (!r.passed) {
      ++failed;
      std::printf("%s\n", r.error.c_str());
    }
    sum.Add(e.config, e.block, e.config, 1, 0, r.coverage);
  }
  if (runs == 0) {
    std::cerr << "htmsim coverage: no bench selected counts coverage events\n";
    return 2;
  }
  std::string command = "htmsim coverage --seed " + std::to_string(seed);
  for (const std::string& b : blocks) {
    command += " --block " + b;
  }
  for (const std::string& c : configs) {
    command += " --config " + c;
  }
  command += cycles != 0 ? " --cycles " + std::to_string(cycles) : "";
  command += golden_only ? " --golden" : "";
  if (file) {
    file->os() << sum.Json("benches", command);
    if (!file->Commit()) {
      std::cerr << "htmsim coverage: writing " << out << " failed\n";
      return 1;
    }
  }
  std::printf("\n%s\n%d runs, %d failed\n", sum.Text("configuration").c_str(), runs, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace htm::sim
