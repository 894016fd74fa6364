// SPDX-License-Identifier: Apache-2.0
//
// htmsim cu-system: the commit-unit system (htm/tb/cu_system.h) from the command line.
//   htmsim cu-system [traffic options]  correctness harness: runs the transactions, checks the
//                                       serial order, prints a summary; exit 1 on a violation
//   htmsim cu-system --rates            rates benchmark: one unit, conflict-free and conflicting
//                                       streams, prints each stage's words per busy cycle
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "cli_util.h"
#include "commands.h"
#include "htm/configs/htm_commit_unit.h"
#include "htm/tb/cu_system.h"

namespace po = boost::program_options;

namespace htm::sim {

namespace {

using htm::tb::CuSystemOptions;
using htm::tb::CuSystemResult;

double Ratio(uint64_t num, uint64_t den) {
  return den == 0 ? 0.0 : double(num) / double(den);
}

void PrintRates(const char* scenario, const CuSystemResult& r) {
  const auto& s = r.unit_stats.at(0);
  std::printf("%-22s %8.3f %10.3f %8.3f %8.3f %8.3f %9llu %8llu %10llu\n", scenario,
              Ratio(s.intake, s.intake_busy), Ratio(s.validations, s.val_busy),
              Ratio(s.hazard_words, s.hazard_busy), Ratio(s.commit_words, s.commit_busy),
              Ratio(s.retire_words, s.retire_busy), static_cast<unsigned long long>(r.committed),
              static_cast<unsigned long long>(r.aborted),
              static_cast<unsigned long long>(r.cycles));
}

int Rates(const std::string& config, const htm::golden::CommitUnitParams& p, uint64_t seed,
          uint64_t transactions) {
  std::printf(
      "htmsim cu-system --rates: one %s commit unit, %llu transactions per stream, seed %llu\n"
      "rates are words (messages for intake) per cycle in which the stage had work\n\n",
      config.c_str(), static_cast<unsigned long long>(transactions),
      static_cast<unsigned long long>(seed));
  std::printf("%-22s %8s %10s %8s %8s %8s %9s %8s %10s\n", "stream", "intake", "validation",
              "hazard", "commit", "retire", "committed", "aborted", "cycles");
  struct Stream {
    const char* name;
    int pool;
  };
  const Stream streams[] = {
      {"conflict-free", 0}, {"conflicts, 256 words", 256}, {"conflicts, 32 words", 32}};
  bool met = true;
  for (const Stream& st : streams) {
    CuSystemOptions o;
    o.units = 1;
    o.cores = std::min(32, p.src_w >= 5 ? 32 : (1 << p.src_w));
    o.transactions = transactions;
    o.min_reads = o.max_reads = 8;
    o.min_writes = o.max_writes = 8;
    o.pool = st.pool;
    o.min_latency = o.max_latency = 4;
    o.ready_pct = 100;
    o.max_think = 0;
    o.seed = seed;
    const CuSystemResult r = htm::tb::RunCuSystem(p, o);
    if (!r.ok) {
      std::fprintf(stderr, "htmsim cu-system: %s stream failed: %s\n", st.name, r.error.c_str());
      return 1;
    }
    PrintRates(st.name, r);
    if (st.pool == 0) {
      const auto& s = r.unit_stats.at(0);
      met = Ratio(s.intake, s.intake_busy) >= 0.95 && Ratio(s.validations, s.val_busy) >= 0.95 &&
            Ratio(s.hazard_words, s.hazard_busy) >= 0.95 &&
            Ratio(s.commit_words, s.commit_busy) >= 0.95;
    }
  }
  std::printf("\nconflict-free target (>= 0.95 for intake, validation, hazard, commit): %s\n",
              met ? "met" : "NOT met");
  return 0;
}

}  // namespace

int CuSystemCommand(int argc, char** argv) {
  std::string config = "default";
  CuSystemOptions o;
  bool rates = false;
  po::options_description desc("Options");
  desc.add_options()("help,h", "print this help and exit")(
      "config", po::value(&config)->default_value(config),
      "named configuration of the commit units: default, small or one")(
      "rates", po::bool_switch(&rates), "run the rates benchmark instead of the harness")(
      "units", po::value(&o.units)->default_value(o.units), "commit units")(
      "cores", po::value(&o.cores)->default_value(o.cores), "scripted cores (<= 2**SrcW)")(
      "transactions", po::value(&o.transactions)->default_value(o.transactions),
      "transactions started (per stream with --rates)")(
      "min-reads", po::value(&o.min_reads)->default_value(o.min_reads), "reads per transaction")(
      "max-reads", po::value(&o.max_reads)->default_value(o.max_reads), "")(
      "min-writes", po::value(&o.min_writes)->default_value(o.min_writes),
      "writes per transaction")("max-writes", po::value(&o.max_writes)->default_value(o.max_writes),
                                "")("pool", po::value(&o.pool)->default_value(o.pool),
                                    "shared addresses (0: every access a fresh address)")(
      "min-latency", po::value(&o.min_latency)->default_value(o.min_latency),
      "memory latency in cycles")("max-latency",
                                  po::value(&o.max_latency)->default_value(o.max_latency),
                                  "")("ready", po::value(&o.ready_pct)->default_value(o.ready_pct),
                                      "memory request readiness, percent")(
      "think", po::value(&o.max_think)->default_value(o.max_think),
      "cycles between a core's transactions: 0..think")(
      "seed", po::value(&o.seed)->default_value(o.seed), "seed");
  po::variables_map vm;
  if (!ParseOptions("htmsim cu-system", argc, argv, desc, vm)) {
    return 2;
  }
  if (vm.count("help")) {
    std::cout << "Usage: htmsim cu-system [options]\n\n"
                 "Runs commit units (golden models, cycle-exact with the RTL) with scripted cores\n"
                 "and checks that the committed transactions serialise in commit-id order, or\n"
                 "with --rates measures each stage's throughput.\n\n"
              << desc << "\nExit status: 0 passed, 1 a check failed, 2 bad usage.\n";
    return 0;
  }
  const htm::golden::CommitUnitParams* p = FindConfig(htm::configs::htm_commit_unit::kAll, config);
  if (p == nullptr) {
    std::cerr << "htmsim cu-system: unknown configuration '" << config
              << "' (default, small or one)\n";
    return 2;
  }
  if (o.transactions == 0) {
    std::cerr << "htmsim cu-system: --transactions must be greater than 0\n";
    return 2;
  }
  if (rates) {
    return Rates(config, *p, o.seed, o.transactions);
  }
  if (std::string err = htm::tb::CheckCuSystemOptions(*p, o); !err.empty()) {
    std::cerr << "htmsim cu-system: " << err << "\n";
    return 2;
  }
  const CuSystemResult r = htm::tb::RunCuSystem(*p, o);
  std::printf(
      "htmsim cu-system: %d %s units, %d cores, seed %llu: %llu committed, %llu aborted, "
      "%llu cycles: %s\n",
      o.units, config.c_str(), o.cores, static_cast<unsigned long long>(o.seed),
      static_cast<unsigned long long>(r.committed), static_cast<unsigned long long>(r.aborted),
      static_cast<unsigned long long>(r.cycles), r.ok ? "PASS" : "FAIL");
  if (!r.ok) {
    std::printf("%s\n", r.error.c_str());
    return 1;
  }
  return 0;
}

}  // namespace htm::sim
