// SPDX-License-Identifier: Apache-2.0
//
// The GPU-LocalTM suite (sim/lds_suite.h).
#include "lds_suite.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>

#include "htm/configs/htm_lds_tm.h"
#include "htm/workloads/lds/workloads.h"
#include "parallel.h"

namespace htm::sim {

using htm::LdsCd;
using htm::LdsSel;

// ---- Configurations ------------------------------------------------------------------------

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

void RunJob(LdsJob& j) {
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

std::string LdsBenchNames() {
  std::string s;
  for (const std::string& b : htm::lds::BenchmarkNames()) {
    s += (s.empty() ? "" : ", ") + b;
  }
  return s;
}

double Ratio(uint64_t a, uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}

// ---- The suite -----------------------------------------------------------------------------

// Thesis Table 5.8: the best-performing conflict detection per benchmark and contention level.
namespace {

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

void Add(Agg& a, const LdsJob& j) {
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

}  // namespace

LdsSuite RunLdsSuite(int seeds, int jobs_n, const std::vector<std::string>& benches, bool progress,
                     const std::string& command) {
  using htm::lds::AllWorkloads;
  using htm::lds::Version;
  std::vector<LdsJob> jobs;
  for (const auto& info : AllWorkloads()) {
    if (!benches.empty() &&
        std::find(benches.begin(), benches.end(), info.bench) == benches.end()) {
      continue;
    }
    for (int s = 1; s <= seeds; ++s) {
      if (info.version == Version::kTm) {
        for (int m = 0; m < 4; ++m) {
          for (int sel = 0; sel < 4; ++sel) {
            jobs.push_back(LdsJob{info.name, m, sel, static_cast<uint64_t>(s), {}, 0});
          }
        }
      } else {
        jobs.push_back(LdsJob{info.name, 3, 0, static_cast<uint64_t>(s), {}, 0});
      }
    }
  }
  LdsSuite res;
  std::ostringstream table;
  const auto t0 = std::chrono::steady_clock::now();
  {
    Progress line(progress);
    ParallelFor(
        jobs.size(), jobs_n, [&](size_t i) { RunJob(jobs[i]); },
        [&](size_t, size_t done) {
          line.Show(std::to_string(done) + "/" + std::to_string(jobs.size()) + " runs");
        });
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Aggregate per (workload, mode, sel).
  std::map<std::string, Agg> agg;
  double sim_cycles = 0, cpu = 0;
  int failed = 0;
  for (const LdsJob& j : jobs) {
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
     << "Generated by `" << command << "` (" << jobs.size()
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
  std::snprintf(buf, sizeof buf, "%-7s %10s %8s %8s %8s %8s %10s  %-8s %s\n", "bench", "serial",
                "DCD", "SMDCD", "pRWsig", "sWOsig", "atom/FGL", "best", "thesis");
  table << buf;
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
      std::snprintf(buf, sizeof buf, "%-7s %10.0f %8.2f %8.2f %8.2f %8.2f %10.2f  %-8s %s\n",
                    bc.c_str(), sc, sp[0], sp[1], sp[2], sp[3], alt_sp, kModes[best].label, thesis);
      table << buf;
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
  res.markdown = md.str();
  res.csv = csv.str();
  res.table = table.str();
  res.runs = jobs.size();
  res.failed = failed;
  res.sim_cycles = sim_cycles;
  res.cpu_seconds = cpu;
  res.wall_seconds = wall;
  res.errors = errors;
  return res;
}

}  // namespace htm::sim
