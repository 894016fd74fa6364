// SPDX-License-Identifier: Apache-2.0
//
// htmsim si: checks of the snapshot-isolation blocks.
//
//   htmsim si oracle [--config C] [--histories N] [--seed S] [shape options]
//
// oracle: random small histories of transactional reads and writes, their dependency edges
// fed to the post-dating unit (the golden model of htm_postdate in configuration C), and an
// exact cycle detector on the same graph as the reference (docs/htm_postdate.md). Prints the
// counts; exits 1 if a history with a cycle was not declared (its seed is printed).
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

#include <boost/program_options.hpp>

#include "cli_util.h"
#include "commands.h"
#include "htm/configs/htm_postdate.h"
#include "htm/golden/si_oracle.h"

namespace po = boost::program_options;

namespace htm::sim {

namespace {

int Usage(const po::options_description& desc) {
  std::cout << "Usage: htmsim si oracle [options]\n\n"
               "  oracle   random histories through the post-dating unit against an exact\n"
               "           dependency-cycle detector (no cycle may be missed)\n\n"
            << desc << "\n";
  return 0;
}

bool InRange(const char* name, int v, int lo, int hi) {
  if (v < lo || v > hi) {
    std::cerr << "htmsim si: --" << name << " must be in " << lo << ".." << hi << ", got " << v
              << "\n";
    return false;
  }
  return true;
}

}  // namespace

int SiCommand(int argc, char** argv) {
  std::string cmd, config = "default";
  int64_t histories = 100000;  // signed, so that a negative count is refused, not wrapped
  uint64_t seed = 1;
  htm::golden::SiHistoryShape shape;
  po::options_description desc("Options");
  desc.add_options()("help,h", "print this help and exit")(
      "config", po::value(&config)->default_value(config),
      "htm_postdate configuration: default, small or one")(
      "histories", po::value(&histories)->default_value(histories), "histories to run")(
      "seed", po::value(&seed)->default_value(seed), "seed of the history seeds")(
      "slots", po::value(&shape.slots)->default_value(shape.slots),
      "transaction slots in use (at most NumTx)")(
      "instances", po::value(&shape.instances)->default_value(shape.instances),
      "transactions per history")(
      "addresses", po::value(&shape.addresses)->default_value(shape.addresses), "distinct words")(
      "max-accesses", po::value(&shape.max_accesses)->default_value(shape.max_accesses),
      "accesses per transaction, 1..max")(
      "write-percent", po::value(&shape.write_percent)->default_value(shape.write_percent),
      "share of accesses that write")(
      "abort-percent", po::value(&shape.abort_percent)->default_value(shape.abort_percent),
      "share of transactions that abort");
  po::variables_map vm;
  if (!ParseWithSubcommand("htmsim si", argc, argv, desc, vm, &cmd)) {
    return 2;
  }
  if (vm.count("help")) {
    return Usage(desc);
  }
  if (cmd != "oracle") {
    std::cerr << "htmsim si: " << (cmd.empty() ? "no command" : "unknown command '" + cmd + "'")
              << " (oracle; try htmsim si --help)\n";
    return 2;
  }
  const htm::golden::PostdateParams* p = FindConfig(htm::configs::htm_postdate::kAll, config);
  if (p == nullptr) {
    std::cerr << "htmsim si: unknown configuration '" << config
              << "' (htm_postdate has default, small, one)\n";
    return 2;
  }
  if (histories < 1) {
    std::cerr << "htmsim si: --histories must be at least 1, got " << histories << "\n";
    return 2;
  }
  if (!InRange("slots", shape.slots, 2, p->num_tx) ||
      !InRange("instances", shape.instances, 1, 100000) ||
      !InRange("addresses", shape.addresses, 1, 100000) ||
      !InRange("max-accesses", shape.max_accesses, 1, 1000) ||
      !InRange("write-percent", shape.write_percent, 0, 100) ||
      !InRange("abort-percent", shape.abort_percent, 0, 100)) {
    return 2;
  }
  uint64_t miss_seed = 0;
  const htm::golden::SiOracleStats st =
      htm::golden::RunSiOracle(*p, shape, static_cast<uint64_t>(histories), seed, true, &miss_seed);
  const uint64_t acyclic = st.histories - st.cyclic;
  std::printf("htm_postdate/%s: %llu histories (%d slots, %d transactions, %d words), %llu edges\n",
              config.c_str(), static_cast<unsigned long long>(st.histories), shape.slots,
              shape.instances, shape.addresses, static_cast<unsigned long long>(st.edges));
  std::printf("  with a cycle   %llu\n", static_cast<unsigned long long>(st.cyclic));
  std::printf("  declared       %llu\n", static_cast<unsigned long long>(st.declared));
  std::printf("  overflowed     %llu\n", static_cast<unsigned long long>(st.overflow));
  std::printf("  missed         %llu\n", static_cast<unsigned long long>(st.missed));
  std::printf("  false alarms   %llu (%.2f%% of the %llu acyclic histories)\n",
              static_cast<unsigned long long>(st.false_alarms),
              acyclic != 0
                  ? 100.0 * static_cast<double>(st.false_alarms) / static_cast<double>(acyclic)
                  : 0.0,
              static_cast<unsigned long long>(acyclic));
  if (st.missed != 0) {
    std::printf("MISSED: a history with a cycle was not declared (history seed %llu)\n",
                static_cast<unsigned long long>(miss_seed));
    return 1;
  }
  return 0;
}

}  // namespace htm::sim
