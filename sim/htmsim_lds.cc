// SPDX-License-Identifier: Apache-2.0
//
// htmsim lds: GPU-LocalTM on the golden compute-unit model (htm/lds/cu_model.h), and the LDS
// throughput benchmark.
//
//   htmsim lds list                           workloads and TM configurations
//   htmsim lds run --workload HT-HC/tm [--mode swo] [--sel sasc] [--seed 1]
//   htmsim lds suite [--seeds 2] [--jobs N] [--out DIR] [--bench HT,IT]
//   htmsim lds rates [--rtl]                  accesses per bank per cycle (--rtl: htmsim-rtl)
//
// `suite` runs every benchmark of thesis Table 5.7 in both contention levels: the serialized
// version, the atomics or fine-grained-lock version, and the TM version under every conflict-
// detection mode and every work-item selection policy (16 configurations). Every run's final
// state is checked; the suite prints the tables and writes DIR/lds_results.md and
// DIR/lds_results.csv. Exit status: 0 when every run passed its check, 1 otherwise, 2 on bad
// usage.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "cli_util.h"
#include "commands.h"
#include "htm/configs/htm_lds_tm.h"
#include "htm/golden/instance.h"
#include "htm/golden/lds_tm_model.h"
#include "htm/machine/lds/cu_model.h"
#include "htm/workloads/lds/workloads.h"
#include "lds_suite.h"
#include "parallel.h"
#include "rtl_models.h"

namespace po = boost::program_options;

namespace htm::sim {

namespace {

/// `htmsim lds suite`: prints the tables, writes DIR/lds_results.md and .csv.
int Suite(int seeds, int jobs_n, const std::string& out, const std::vector<std::string>& benches,
          bool progress) {
  std::string command = "htmsim lds suite --seeds " + std::to_string(seeds);
  for (size_t i = 0; i < benches.size(); ++i) {
    command += (i == 0 ? " --bench " : ",") + benches[i];
  }
  const LdsSuite r = RunLdsSuite(seeds, jobs_n, benches, progress, command);
  std::fputs(r.table.c_str(), stdout);
  std::printf(
      "\n%zu runs, %d failed; %.0f simulated cycles in %.1f s (%.0f cycles/s per run, "
      "%.1f s wall)\n",
      r.runs, r.failed, r.sim_cycles, r.cpu_seconds,
      r.cpu_seconds > 0 ? r.sim_cycles / r.cpu_seconds : 0, r.wall_seconds);
  for (const auto& e : r.errors) {
    std::printf("FAILED: %s\n", e.c_str());
  }
  if (!out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    const std::string mdp = out + "/lds_results.md", csvp = out + "/lds_results.csv";
    // Written to temporary names and renamed: no half-written report.
    if (ec || !WriteFileAtomically(mdp, r.markdown) || !WriteFileAtomically(csvp, r.csv)) {
      std::fprintf(stderr, "htmsim lds: cannot write %s%s%s\n", out.c_str(), ec ? ": " : "",
                   ec ? ec.message().c_str() : "");
      return 2;
    }
    std::printf("wrote %s and %s\n", mdp.c_str(), csvp.c_str());
  }
  return r.failed ? 1 : 0;
}

void PrintStats(const LdsJob& j) {
  const auto& s = j.r.stats;
  std::printf("workload %s, mode %s, selection %s, seed %llu: %s\n", j.workload.c_str(),
              kModes[j.mode].label, kSels[j.sel].label, static_cast<unsigned long long>(j.seed),
              j.r.ok ? "final state checked: OK" : ("FAILED: " + j.r.error).c_str());
  std::printf(
      "  cycles %llu (initial LDS contents: %llu more), instructions %llu (%llu in "
      "tries), LDS instructions %llu, accesses %llu\n",
      static_cast<unsigned long long>(s.cycles), static_cast<unsigned long long>(s.init_cycles),
      static_cast<unsigned long long>(s.instructions),
      static_cast<unsigned long long>(s.tx_instructions),
      static_cast<unsigned long long>(s.mem_instructions),
      static_cast<unsigned long long>(s.lds_accesses));
  if (s.tries == 0) {
    return;
  }
  std::printf(
      "  transactions %llu, tries %llu (Tx %llu, WfS %llu, WgS %llu; %llu aborted by "
      "WgS), commit ratio %.3f\n",
      static_cast<unsigned long long>(s.transactions), static_cast<unsigned long long>(s.tries),
      static_cast<unsigned long long>(s.tries_by_mode[1]),
      static_cast<unsigned long long>(s.tries_by_mode[2]),
      static_cast<unsigned long long>(s.tries_by_mode[3]),
      static_cast<unsigned long long>(s.wgs_aborted_tries), Ratio(s.tries_committing, s.tries));
  std::printf("  per wavefront commit ratio:");
  for (size_t v = 0; v < s.wf_tries.size(); ++v) {
    std::printf(" %.3f", Ratio(s.wf_tries_committing[v], s.wf_tries[v]));
  }
  std::printf(
      "\n  work-item tries %llu, commits %llu; conflicts %llu, false positives %llu "
      "(%.3f)\n",
      static_cast<unsigned long long>(s.wi_tries), static_cast<unsigned long long>(s.wi_commits),
      static_cast<unsigned long long>(s.positives),
      static_cast<unsigned long long>(s.false_positives), Ratio(s.false_positives, s.positives));
}

// ---- Throughput ----------------------------------------------------------------------------

struct Pattern {
  const char* name;
  bool tx;
  LdsIns op;
  int kind;  // 0: coalesced (two lanes per bank), 1: one bank, 2: one word
};

// A stream of `n` back-to-back wavefront instructions of a pattern; returns the cycles from the
// first instruction's presentation to the last response. `cycle` runs one cycle of the LDS.
template <class Cycle>
uint64_t Stream(Cycle&& cycle, const Pattern& pat, int n) {
  using htm::golden::LdsTmIn;
  uint64_t cycles = 0, rsps = 0;
  for (int i = 0; i < n; ++i) {
    LdsTmIn in;
    in.ins_valid = 1;
    in.ins_op = static_cast<uint64_t>(pat.op);
    for (int l = 0; l < 64; ++l) {
      uint64_t a = 7;  // one word
      if (pat.kind == 0) {
        a = static_cast<uint64_t>((i % 32) * 64 + l);  // two lanes per bank
      } else if (pat.kind == 1) {
        a = static_cast<uint64_t>(l * 32 + 5);  // every lane in bank 5
      }
      in.ins_addr[l] = a;
      in.ins_data[l] = static_cast<uint64_t>(i);
    }
    for (;;) {
      ++cycles;
      const auto o = cycle(in);
      rsps += o.rsp_valid;
      if (o.ins_ready) {
        break;
      }
    }
  }
  while (rsps < static_cast<uint64_t>(n)) {
    ++cycles;
    rsps += cycle(LdsTmIn{}).rsp_valid;
  }
  return cycles;
}

// Runs a pattern on a fresh LDS through `cycle`: a transaction begins first for the
// transactional patterns (and for repeated stores, a first pass makes every record).
template <class Cycle>
uint64_t Measure(Cycle&& cycle, const Pattern& pat, int n) {
  using htm::golden::LdsTmIn;
  auto ctl = [&](LdsIns op) {
    LdsTmIn in;
    in.ins_valid = 1;
    in.ins_op = static_cast<uint64_t>(op);
    while (!cycle(in).ins_ready) {
    }
    cycle(LdsTmIn{});
  };
  Pattern init{"", false, LdsIns::kStore, 0};
  Stream(cycle, init, 32);  // every word of the pattern written once
  if (pat.tx) {
    ctl(LdsIns::kTxBegin);
    if (pat.op == LdsIns::kStore) {
      Stream(cycle, pat, 32);
    }
  }
  return Stream(cycle, pat, n);
}

// One cycle of an instance: the outputs under `in`, then the rising edge.
htm::golden::LdsTmOut Step(htm::golden::Instance<htm::golden::LdsTmPorts>& inst,
                           const htm::golden::LdsTmIn& in) {
  const htm::golden::LdsTmOut o = inst.Eval(in);
  inst.Tick(in);
  return o;
}

int Rates(bool rtl) {
  using htm::golden::LdsTmIn;
  using htm::golden::LdsTmPorts;
  const auto p = htm::configs::htm_lds_tm::kDefault;
  const Pattern pats[] = {
      {"non-transactional loads, 2 lanes per bank", false, LdsIns::kLoad, 0},
      {"non-transactional stores, 2 lanes per bank", false, LdsIns::kStore, 0},
      {"transactional loads (no record in sWOsig mode)", true, LdsIns::kLoad, 0},
      {"transactional stores to words the work-item owns", true, LdsIns::kStore, 0},
      {"non-transactional loads, 64 lanes in one bank", false, LdsIns::kLoad, 1},
      {"non-transactional loads of one word (broadcast)", false, LdsIns::kLoad, 2},
  };
  constexpr int kN = 256;
  std::printf(
      "htmsim lds rates: htm_lds_tm/default (32 banks, wavefronts of 64, DCD + pRWsig + "
      "sWOsig), %d wavefront\ninstructions per pattern back to back; accesses per bank "
      "per cycle over the banks the pattern uses\n\n",
      kN);
  std::printf("%-50s %8s %12s", "pattern", "cycles", "acc/bank/cyc");
  if (rtl) {
    std::printf(" %11s", "RTL cycles");
  }
  std::printf("\n");
  int bad = 0;
  for (const Pattern& pat : pats) {
    htm::golden::GoldenInstance<htm::golden::LdsTmModel> m(p);
    const uint64_t cyc = Measure([&](const LdsTmIn& in) { return Step(m, in); }, pat, kN);
    const double accesses = pat.kind == 2 ? kN * 1.0 : kN * 64.0;  // a broadcast: one access
    const int banks = pat.kind == 0 ? 32 : 1;
    std::printf("%-50s %8llu %12.3f", pat.name, static_cast<unsigned long long>(cyc),
                accesses / (static_cast<double>(cyc) * banks));
    if (rtl) {
      // The paper-size RTL (the named configuration with these parameters), reset, alone.
      htm::golden::InstanceInfo info;
      info.block = "htm_lds_tm";
      info.name = "lds";
      try {
        const auto top = RtlModelFactory()->Make<LdsTmPorts>(htm::golden::Impl::kRtl, p, info);
        const uint64_t rc = Measure([&](const LdsTmIn& in) { return Step(*top, in); }, pat, kN);
        std::printf(" %11llu%s", static_cast<unsigned long long>(rc), rc == cyc ? "" : " DIFFERS");
        bad += rc == cyc ? 0 : 1;
      } catch (const htm::golden::InstanceMismatch& e) {
        std::printf(" DIFFERS: an RTL assertion failed\n%s", e.what());
        ++bad;
      }
    }
    std::printf("\n");
  }
  std::printf(
      "\nThe target is one access per bank per cycle when no shadow access is needed "
      "(the first four\npatterns; the figures include the pipeline's fill and drain).\n");
  return bad ? 1 : 0;
}

int Usage(const po::options_description& desc) {
  std::cout << "Usage: htmsim lds <list|run|suite|rates> [options]\n\n"
               "GPU-LocalTM workloads (thesis Table 5.7) on the golden compute-unit model, and "
               "the LDS\nthroughput benchmark.\n\n"
            << desc << "\nModes: dcd, smdcd, prw (DCD + pRWsig), swo (DCD + pRWsig + sWOsig). "
            << "Selections: sasc, sdesc, masc, mdesc.\nrates --rtl runs in htmsim-rtl (the "
               "Verilated models).\nExit status: 0 success, 1 a run failed its check or the "
               "RTL's cycles differ, 2 bad usage.\n";
  return 0;
}

}  // namespace

int LdsCommand(int argc, char** argv) {
  std::string cmd, workload, mode = "swo", sel = "sasc", out, bench;
  uint64_t seed = 1;
  int seeds = 1, jobs = DefaultJobs();
  bool rtl = false;
  po::options_description desc("Options");
  desc.add_options()("help,h", "print this help and exit")(
      "workload", po::value(&workload), "run: the workload, e.g. HT-HC/tm (see list)")(
      "mode", po::value(&mode), "run: conflict detection (default swo)")(
      "sel", po::value(&sel), "run: work-item selection policy (default sasc)")(
      "seed", po::value(&seed), "run: the workload's seed (default 1)")(
      "seeds", po::value(&seeds), "suite: seeds 1..N per run (default 1)")(
      "jobs", po::value(&jobs), "suite: parallel runs (default: the number of cores)")(
      "bench", po::value(&bench), "suite: only these benchmarks, comma-separated, e.g. HT,IT")(
      "out", po::value(&out), "suite: write lds_results.md and .csv into this directory")(
      "rtl", po::bool_switch(&rtl), "rates: measure the Verilated RTL too");
  po::variables_map vm;
  if (!ParseWithSubcommand("htmsim lds", argc, argv, desc, vm, &cmd)) {
    return 2;
  }
  if (vm.count("help")) {
    return Usage(desc);
  }
  const Named* m = Find(std::begin(kModes), std::end(kModes), mode);
  const Named* s = Find(std::begin(kSels), std::end(kSels), sel);
  if (m == nullptr) {
    std::cerr << "htmsim lds: unknown mode '" << mode << "' (dcd, smdcd, prw, swo)\n";
    return 2;
  }
  if (s == nullptr) {
    std::cerr << "htmsim lds: unknown selection '" << sel << "' (sasc, sdesc, masc, mdesc)\n";
    return 2;
  }
  if (cmd == "list") {
    for (const auto& info : htm::lds::AllWorkloads()) {
      std::printf("%-14s %s\n", info.name.c_str(), info.description.c_str());
    }
    std::printf("\nmodes:");
    for (const Named& n : kModes) {
      std::printf(" %s (%s)", n.name, n.label);
    }
    std::printf("\nselections:");
    for (const Named& n : kSels) {
      std::printf(" %s (%s)", n.name, n.label);
    }
    std::printf("\n");
    return 0;
  }
  if (cmd == "run") {
    if (workload.empty()) {
      std::cerr << "htmsim lds: run needs --workload (see htmsim lds list)\n";
      return 2;
    }
    try {
      htm::lds::FindWorkload(workload);
    } catch (const std::exception& e) {
      std::cerr << "htmsim lds: " << e.what() << "\n";
      return 2;
    }
    LdsJob j{workload, m->value, s->value, seed, {}, 0};
    RunJob(j);
    PrintStats(j);
    return j.r.ok ? 0 : 1;
  }
  if (cmd == "suite") {
    if (seeds < 1 || seeds > 100) {
      std::cerr << "htmsim lds: --seeds must be in 1..100\n";
      return 2;
    }
    if (std::string err = CheckJobs(jobs); !err.empty()) {
      std::cerr << "htmsim lds: " << err << "\n";
      return 2;
    }
    std::vector<std::string> benches;
    std::stringstream ss(bench);
    for (std::string b; std::getline(ss, b, ',');) {
      const auto& names = htm::lds::BenchmarkNames();
      if (std::find(names.begin(), names.end(), b) == names.end()) {
        std::cerr << "htmsim lds: unknown benchmark '" << b << "' (" << LdsBenchNames() << ")\n";
        return 2;
      }
      benches.push_back(b);
    }
    return Suite(seeds, jobs, out, benches, Progress().enabled());
  }
  if (cmd == "rates") {
    return Rates(rtl);
  }
  std::cerr << "htmsim lds: " << (cmd.empty() ? "no command" : "unknown command '" + cmd + "'")
            << " (list, run, suite, rates; try --help)\n";
  return 2;
}

}  // namespace htm::sim
