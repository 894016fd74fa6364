// SPDX-License-Identifier: Apache-2.0
//
// htm_lds: GPU-LocalTM on the golden compute-unit model (htm/lds/cu_model.h), and the LDS
// throughput benchmark.
//
//   htm_lds list                              workloads and TM configurations
//   htm_lds run --workload HT-HC/tm [--mode swo] [--sel sasc] [--seed 1]
//   htm_lds suite [--seeds 2] [--jobs N] [--out DIR] [--bench HT,IT]
//   htm_lds rates [--rtl]                     accesses per bank per cycle
//
// `suite` runs every benchmark of thesis Table 5.7 in both contention levels: the serialized
// version, the atomics or fine-grained-lock version, and the TM version under every conflict-
// detection mode and every work-item selection policy (16 configurations). Every run's final
// state is checked; the suite prints the tables and writes DIR/lds_results.md and
// DIR/lds_results.csv. Exit status: 0 when every run passed its check, 1 otherwise, 2 on bad
// usage.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/program_options.hpp>
#include <unistd.h>

#include "Vhtm_lds_tm__default.h"
#include "verilated.h"

#include "cli_util.h"
#include "htm/configs/htm_lds_bank.h"
#include "htm/configs/htm_lds_tm.h"
#include "htm/golden/lds_bank_model.h"
#include "htm/golden/lds_tm_model.h"
#include "htm/lds/cu_model.h"
#include "htm/lds/workloads.h"

namespace po = boost::program_options;
using htm::LdsCd;
using htm::LdsIns;
using htm::LdsSel;

namespace {

// ---- Configurations ------------------------------------------------------------------------

struct Named {
  const char* name;
  const char* label;  // as in the thesis's figures
  int value;
};
constexpr Named kModes[] = {
    {"dcd", "DCD", 0}, {"smdcd", "SMDCD", 1}, {"prw", "pRWsig", 2}, {"swo", "sWOsig", 3}};
constexpr Named kSels[] = {{"sasc", "single-asc", 0},
                           {"sdesc", "single-desc", 1},
                           {"masc", "multiple-asc", 2},
                           {"mdesc", "multiple-desc", 3}};

const Named* Find(const Named* b, const Named* e, const std::string& n) {
  for (const Named* p = b; p != e; ++p) {
    if (n == p->name) {
      return p;
    }
  }
  return nullptr;
}

htm::golden::LdsTmParams Params(int mode, int sel) {
  htm::golden::LdsTmParams p = htm::configs::htm_lds_tm::kDefault;
  p.mode = static_cast<LdsCd>(mode);
  p.sel = static_cast<LdsSel>(sel);
  return p;
}

// ---- One run -------------------------------------------------------------------------------

struct Job {
  std::string workload;  // WorkloadInfo::name
  int mode = 3, sel = 0;
  uint64_t seed = 1;
  // results
  htm::lds::CuResult r;
  double seconds = 0;
};

void RunJob(Job& j) {
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const auto& info = htm::lds::FindWorkload(j.workload);
    auto w = info.make(htm::lds::Geometry{}, j.seed);
    htm::lds::ComputeUnit cu(Params(j.mode, j.sel));
    j.r = cu.Run(*w);
  } catch (const std::exception& e) {
    j.r.ok = false;
    j.r.error = std::string("exception: ") + e.what();
  }
  j.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void RunAll(std::vector<Job>& jobs, int n_threads, bool progress) {
  std::atomic<size_t> next{0}, done{0};
  std::mutex mu;
  auto worker = [&] {
    for (size_t i; (i = next++) < jobs.size();) {
      RunJob(jobs[i]);
      const size_t d = ++done;
      if (progress) {
        std::lock_guard<std::mutex> lock(mu);
        std::fprintf(stderr, "\r%zu/%zu runs", d, jobs.size());
      }
    }
  };
  std::vector<std::thread> ts;
  for (int t = 0; t < std::max(1, n_threads); ++t) {
    ts.emplace_back(worker);
  }
  for (auto& t : ts) {
    t.join();
  }
  if (progress) {
    std::fprintf(stderr, "\n");
  }
}

double Ratio(uint64_t a, uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}

void PrintStats(const Job& j) {
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

// ---- The suite -----------------------------------------------------------------------------

// Thesis Table 5.8: the best-performing conflict detection per benchmark and contention level.
struct Best {
  const char* bench;
  const char* lc;
  const char* hc;
};
constexpr Best kThesisBest[] = {
    {"HT", "DCD", "sWOsig"},
    {"IT", "sWOsig", "pRWsig"},
    {"VA", "any", "any"},
    {"GC", "sWOsig", "sWOsig"},
    {"GA", "DCD", "DCD"},
    {"KM", "sWOsig", "DCD"},
    {"DB", "sWOsig", "pRWsig, sWOsig"},
    {"QU", "pRWsig", "pRWsig"},
};

struct Agg {
  int n = 0;
  double cycles = 0, commit = 0, fp = 0, tx = 0, wfs = 0, wgs = 0;
  bool ok = true;
  std::string error;
};

void Add(Agg& a, const Job& j) {
  const auto& s = j.r.stats;
  ++a.n;
  a.cycles += static_cast<double>(s.cycles);
  a.commit += Ratio(s.tries_committing, s.tries);
  a.fp += Ratio(s.false_positives, s.positives);
  a.tx += Ratio(s.tries_by_mode[1], s.tries);
  a.wfs += Ratio(s.tries_by_mode[2], s.tries);
  a.wgs += Ratio(s.tries_by_mode[3], s.tries);
  if (!j.r.ok && a.ok) {
    a.ok = false;
    a.error = j.workload + " (" + kModes[j.mode].name + "/" + kSels[j.sel].name + ", seed " +
              std::to_string(j.seed) + "): " + j.r.error;
  }
}
double Mean(double sum, int n) {
  return n == 0 ? 0 : sum / n;
}

int Suite(int seeds, int jobs_n, const std::string& out, const std::vector<std::string>& benches,
          bool progress) {
  using htm::lds::AllWorkloads;
  using htm::lds::Version;
  std::vector<Job> jobs;
  for (const auto& info : AllWorkloads()) {
    if (!benches.empty() &&
        std::find(benches.begin(), benches.end(), info.bench) == benches.end()) {
      continue;
    }
    for (int s = 1; s <= seeds; ++s) {
      if (info.version == Version::kTm) {
        for (int m = 0; m < 4; ++m) {
          for (int sel = 0; sel < 4; ++sel) {
            jobs.push_back(Job{info.name, m, sel, static_cast<uint64_t>(s), {}, 0});
          }
        }
      } else {
        jobs.push_back(Job{info.name, 3, 0, static_cast<uint64_t>(s), {}, 0});
      }
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  RunAll(jobs, jobs_n, progress);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Aggregate per (workload, mode, sel).
  std::map<std::string, Agg> agg;
  double sim_cycles = 0, cpu = 0;
  int failed = 0;
  for (const Job& j : jobs) {
    Add(agg[j.workload + "|" + std::to_string(j.mode) + "|" + std::to_string(j.sel)], j);
    sim_cycles += static_cast<double>(j.r.stats.cycles + j.r.stats.init_cycles);
    cpu += j.seconds;
    failed += j.r.ok ? 0 : 1;
  }
  auto get = [&](const std::string& w, int m, int s) -> const Agg* {
    auto it = agg.find(w + "|" + std::to_string(m) + "|" + std::to_string(s));
    return it == agg.end() ? nullptr : &it->second;
  };

  std::ostringstream md, csv;
  csv << "workload,mode,selection,seeds,cycles,speedup_vs_serial,commit_ratio,false_positive_ratio,"
         "share_tx,share_wfs,share_wgs,check\n";
  for (const auto& [key, a] : agg) {
    std::string w = key.substr(0, key.find('|'));
    const int m = key[key.find('|') + 1] - '0';
    const int s = key.back() - '0';
    const std::string bc = w.substr(0, w.find('/'));
    const Agg* ser = get(bc + "/serial", 3, 0);
    csv << w << "," << kModes[m].name << "," << kSels[s].name << "," << a.n << ","
        << Mean(a.cycles, a.n) << ","
        << (ser ? Mean(ser->cycles, ser->n) / std::max(1.0, Mean(a.cycles, a.n)) : 0) << ","
        << Mean(a.commit, a.n) << "," << Mean(a.fp, a.n) << "," << Mean(a.tx, a.n) << ","
        << Mean(a.wfs, a.n) << "," << Mean(a.wgs, a.n) << "," << (a.ok ? "ok" : "FAILED") << "\n";
  }

  char buf[256];
  md << "# GPU-LocalTM workloads on the compute-unit model\n\n"
     << "Generated by `htm_lds suite --seeds " << seeds << "` (" << jobs.size()
     << " runs). Every run's final LDS state was checked by its workload ("
     << (failed ? std::to_string(failed) + " FAILED" : std::string("all passed"))
     << "). Cycles are means over seeds " << (seeds > 1 ? "1.." + std::to_string(seeds) : "1")
     << "; speed-up = serialized cycles / cycles.\n\n";
  md << "## Speed-up over the serialized version (Figure 5.6), single-ascending selection\n\n"
     << "| benchmark | serial cycles | DCD | SMDCD | pRWsig | sWOsig | atomics/FGL | best (ours) "
        "| best (thesis Table 5.8) |\n|---|---|---|---|---|---|---|---|---|\n";
  std::ostringstream modes_tbl, sel_tbl;
  modes_tbl << "## Commit ratio, false positives, execution modes (Figures 5.9-5.11)\n\n"
            << "Per conflict-detection mode, single-ascending: commit ratio (tries committing "
               "at least one work-item / tries, per wavefront, mean), false-positive ratio "
               "(conflicts without a true data conflict / conflicts), share of tries in Tx / WfS "
               "/ WgS.\n\n"
            << "| benchmark | mode | commit ratio | false positives | Tx | WfS | WgS |\n"
            << "|---|---|---|---|---|---|---|\n";
  sel_tbl << "## Work-item selection policies (Figures 5.14, 5.16), DCD + pRWsig\n\n"
          << "Speed-up over DCD + pRWsig with single-ascending selection, and the share of "
             "tries in WfS / WgS.\n\n"
          << "| benchmark | single-asc | single-desc | multiple-asc | multiple-desc | WfS "
             "(s-asc / m-asc) | WgS (s-asc / m-asc) |\n|---|---|---|---|---|---|---|\n";
  std::printf("%-7s %10s %8s %8s %8s %8s %10s  %-8s %s\n", "bench", "serial", "DCD", "SMDCD",
              "pRWsig", "sWOsig", "atom/FGL", "best", "thesis");
  for (const auto& bname : htm::lds::BenchmarkNames()) {
    for (const char* c : {"LC", "HC"}) {
      const std::string bc = bname + "-" + c;
      const Agg* ser = get(bc + "/serial", 3, 0);
      if (ser == nullptr) {
        continue;
      }
      const double sc = Mean(ser->cycles, ser->n);
      const Agg* alt = get(bc + "/atomic", 3, 0);
      if (alt == nullptr) {
        alt = get(bc + "/fgl", 3, 0);
      }
      double sp[4] = {0, 0, 0, 0};
      int best = 0;
      for (int m = 0; m < 4; ++m) {
        const Agg* a = get(bc + "/tm", m, 0);
        sp[m] = a ? sc / std::max(1.0, Mean(a->cycles, a->n)) : 0;
        if (sp[m] > sp[best]) {
          best = m;
        }
        if (a) {
          std::snprintf(buf, sizeof buf, "| %s | %s | %.3f | %.3f | %.2f | %.2f | %.2f |\n",
                        bc.c_str(), kModes[m].label, Mean(a->commit, a->n), Mean(a->fp, a->n),
                        Mean(a->tx, a->n), Mean(a->wfs, a->n), Mean(a->wgs, a->n));
          modes_tbl << buf;
        }
      }
      const double alt_sp = alt ? sc / std::max(1.0, Mean(alt->cycles, alt->n)) : 0;
      const char* thesis = "";
      for (const Best& b : kThesisBest) {
        if (bname == b.bench) {
          thesis = std::string(c) == "LC" ? b.lc : b.hc;
        }
      }
      std::snprintf(buf, sizeof buf, "| %s | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %s | %s |\n",
                    bc.c_str(), sc, sp[0], sp[1], sp[2], sp[3], alt_sp, kModes[best].label, thesis);
      md << buf;
      std::printf("%-7s %10.0f %8.2f %8.2f %8.2f %8.2f %10.2f  %-8s %s\n", bc.c_str(), sc, sp[0],
                  sp[1], sp[2], sp[3], alt_sp, kModes[best].label, thesis);
      // Selection policies with DCD + pRWsig.
      const Agg* base = get(bc + "/tm", 2, 0);
      if (base) {
        const double bcyc = Mean(base->cycles, base->n);
        double ss[4];
        for (int s = 0; s < 4; ++s) {
          const Agg* a = get(bc + "/tm", 2, s);
          ss[s] = a ? bcyc / std::max(1.0, Mean(a->cycles, a->n)) : 0;
        }
        const Agg* ma = get(bc + "/tm", 2, 2);
        std::snprintf(
            buf, sizeof buf, "| %s | %.2f | %.2f | %.2f | %.2f | %.2f / %.2f | %.2f / %.2f |\n",
            bc.c_str(), ss[0], ss[1], ss[2], ss[3], Mean(base->wfs, base->n),
            ma ? Mean(ma->wfs, ma->n) : 0, Mean(base->wgs, base->n), ma ? Mean(ma->wgs, ma->n) : 0);
        sel_tbl << buf;
      }
    }
  }
  md << "\n" << modes_tbl.str() << "\n" << sel_tbl.str();
  std::vector<std::string> errors;
  for (const auto& [key, a] : agg) {
    if (!a.ok) {
      errors.push_back(a.error);
    }
  }
  if (!errors.empty()) {
    md << "\n## Failed runs\n\n";
    for (const auto& e : errors) {
      md << "* " << e << "\n";
    }
  }
  md << "\nModel speed: " << static_cast<long long>(sim_cycles) << " simulated cycles in "
     << static_cast<long long>(cpu) << " CPU-seconds ("
     << static_cast<long long>(cpu > 0 ? sim_cycles / cpu : 0) << " cycles per second per run).\n";
  std::printf(
      "\n%zu runs, %d failed; %.0f simulated cycles in %.1f s (%.0f cycles/s per run, "
      "%.1f s wall)\n",
      jobs.size(), failed, sim_cycles, cpu, cpu > 0 ? sim_cycles / cpu : 0, wall);
  for (const auto& e : errors) {
    std::printf("FAILED: %s\n", e.c_str());
  }
  if (!out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    const std::string mdp = out + "/lds_results.md", csvp = out + "/lds_results.csv";
    // Written to temporary names and renamed: no half-written report.
    if (ec || !htm::sim::WriteFileAtomically(mdp, md.str()) ||
        !htm::sim::WriteFileAtomically(csvp, csv.str())) {
      std::fprintf(stderr, "htm_lds: cannot write %s%s%s\n", out.c_str(), ec ? ": " : "",
                   ec ? ec.message().c_str() : "");
      return 2;
    }
    std::printf("wrote %s and %s\n", mdp.c_str(), csvp.c_str());
  }
  return failed ? 1 : 0;
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

int Rates(bool rtl) {
  using htm::golden::LdsTmIn;
  using htm::golden::LdsTmModel;
  using htm::golden::LdsTmOut;
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
      "htm_lds rates: htm_lds_tm/default (32 banks, wavefronts of 64, DCD + pRWsig + "
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
    LdsTmModel m(p);
    auto mcycle = [&](const LdsTmIn& in) {
      const LdsTmOut o = m.Eval(in);
      m.Tick(in);
      return o;
    };
    const uint64_t cyc = Measure(mcycle, pat, kN);
    const double accesses = pat.kind == 2 ? kN * 1.0 : kN * 64.0;  // a broadcast: one access
    const int banks = pat.kind == 0 ? 32 : 1;
    std::printf("%-50s %8llu %12.3f", pat.name, static_cast<unsigned long long>(cyc),
                accesses / (static_cast<double>(cyc) * banks));
    if (rtl) {
      VerilatedContext ctx;
      Vhtm_lds_tm__default top(&ctx, "TOP");
      auto half = [&](int clk) {
        top.clk_i = clk;
        top.eval();
      };
      LdsTmPorts::Drive(p, top, LdsTmIn{});
      top.rst_ni = 0;
      for (int i = 0; i < 2; ++i) {
        half(0);
        half(1);
      }
      top.rst_ni = 1;
      auto rcycle = [&](const LdsTmIn& in) {
        LdsTmPorts::Drive(p, top, in);
        half(0);
        const LdsTmOut o = LdsTmPorts::Sample(p, top);
        half(1);
        return o;
      };
      const uint64_t rc = Measure(rcycle, pat, kN);
      std::printf(" %11llu%s", static_cast<unsigned long long>(rc), rc == cyc ? "" : " DIFFERS");
      bad += rc == cyc ? 0 : 1;
      top.final();
    }
    std::printf("\n");
  }
  std::printf(
      "\nThe target is one access per bank per cycle when no shadow access is needed "
      "(the first four\npatterns; the figures include the pipeline's fill and drain).\n");
  return bad ? 1 : 0;
}

int Usage(const po::options_description& desc) {
  std::cout << "Usage: htm_lds <list|run|suite|rates> [options]\n\n"
               "GPU-LocalTM workloads (thesis Table 5.7) on the golden compute-unit model, and "
               "the LDS\nthroughput benchmark.\n\n"
            << desc << "\nModes: dcd, smdcd, prw (DCD + pRWsig), swo (DCD + pRWsig + sWOsig). "
            << "Selections: sasc, sdesc, masc, mdesc.\nExit status: 0 success, 1 a run failed "
               "its check, 2 bad usage.\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string cmd, workload, mode = "swo", sel = "sasc", out, bench;
  uint64_t seed = 1;
  int seeds = 1, jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
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
  po::options_description all;
  all.add(desc).add_options()("command", po::value(&cmd));
  po::positional_options_description pos;
  pos.add("command", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "htm_lds: " << e.what() << " (try --help)\n";
    return 2;
  }
  if (vm.count("help")) {
    return Usage(desc);
  }
  const Named* m = Find(std::begin(kModes), std::end(kModes), mode);
  const Named* s = Find(std::begin(kSels), std::end(kSels), sel);
  if (m == nullptr) {
    std::cerr << "htm_lds: unknown mode '" << mode << "' (dcd, smdcd, prw, swo)\n";
    return 2;
  }
  if (s == nullptr) {
    std::cerr << "htm_lds: unknown selection '" << sel << "' (sasc, sdesc, masc, mdesc)\n";
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
      std::cerr << "htm_lds: run needs --workload (see htm_lds list)\n";
      return 2;
    }
    try {
      htm::lds::FindWorkload(workload);
    } catch (const std::exception& e) {
      std::cerr << "htm_lds: " << e.what() << "\n";
      return 2;
    }
    Job j{workload, m->value, s->value, seed, {}, 0};
    RunJob(j);
    PrintStats(j);
    return j.r.ok ? 0 : 1;
  }
  if (cmd == "suite") {
    if (seeds < 1 || seeds > 100) {
      std::cerr << "htm_lds: --seeds must be in 1..100\n";
      return 2;
    }
    if (jobs < 1 || jobs > 256) {
      std::cerr << "htm_lds: --jobs must be in 1..256\n";
      return 2;
    }
    std::vector<std::string> benches;
    std::stringstream ss(bench);
    for (std::string b; std::getline(ss, b, ',');) {
      const auto& names = htm::lds::BenchmarkNames();
      if (std::find(names.begin(), names.end(), b) == names.end()) {
        std::cerr << "htm_lds: unknown benchmark '" << b << "' (HT, IT, VA, GC, GA, KM, DB, QU)\n";
        return 2;
      }
      benches.push_back(b);
    }
    return Suite(seeds, jobs, out, benches, isatty(2));
  }
  if (cmd == "rates") {
    return Rates(rtl);
  }
  std::cerr << "htm_lds: " << (cmd.empty() ? "no command" : "unknown command '" + cmd + "'")
            << " (list, run, suite, rates; try --help)\n";
  return 2;
}
