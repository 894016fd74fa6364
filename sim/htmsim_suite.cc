// SPDX-License-Identifier: Apache-2.0
//
// htmsim suite: every workload under the comparison set of TM configurations on the GPU-TM system
// model, each run checked (its final-state invariant, its serialization replay, and its exported
// commit log through the independent checker), and a report placing the figures next to the
// papers' (docs/htmsim.md, "The suite and the report").
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "cli_util.h"
#include "commands.h"
#include "coverage.h"
#include "htm/machine/gpu/commit_log.h"
#include "htm/machine/gpu/system.h"
#include "htm/workloads/lds/workloads.h"
#include "htmsim_tm.h"
#include "lds_suite.h"
#include "parallel.h"
#include "report_text.h"
#include "rtl_options.h"
#include "suite_energy.h"
#include "svg_chart.h"

namespace po = boost::program_options;

namespace htm::sim {

namespace {

using gpu::TmMode;

/// The configurations the papers compare: KILO TM, WarpTM with and without early conflict
/// resolution (Chen & Peng, HPCA 2016, Figure 8), and snapshot isolation (Chen, Peng & Irving,
/// ISCA 2017, Figure 13; by default on that paper's workloads only, as in the paper). The
/// serialized configuration is left out by default: no paper figure uses it and it only measures
/// the workload's length.
const std::vector<TmMode> kSuiteModes = {
    TmMode::kKiloTm,     TmMode::kWarpTm, TmMode::kWarpTmEa,   TmMode::kWarpTmPg,
    TmMode::kWarpTmEaPg, TmMode::kSitm,   TmMode::kSitmOracle, TmMode::kFgl};

struct Job {
  const gpu::WorkloadInfo* workload = nullptr;
  TmMode tm = TmMode::kKiloTm;
  gpu::RtlSelection rtl;  // the run's Verilated instances (--rtl)
};

struct Outcome {
  bool ran = false;
  bool ok = false;
  std::string failure;  // the run's error, its final-state check or its log check
  gpu::SystemStats stats;
  gpu::Energy energy;
  gpu::LogCheckResult log;
  double seconds = 0;
  std::vector<gpu::BlockCoverage> coverage;  // the blocks' coverage events (docs/coverage.md)
};

/// One run: the model with its log written to `log_path`, then the independent log check.
Outcome RunOne(const Job& job, const gpu::MachineConfig& machine, gpu::Scale scale, uint64_t seed,
               uint64_t max_cycles, const gpu::RtlSelection& rtl, const std::string& log_path,
               bool keep_log) {
  Outcome o;
  o.ran = true;
  auto w = job.workload->make(scale, seed);
  const auto t0 = std::chrono::steady_clock::now();
  gpu::RunResult r;
  {
    AtomicFile file(log_path);
    if (!file.good()) {
      o.failure = "cannot write " + log_path;
      return o;
    }
    gpu::JsonLogWriter writer(file.os(),
                              gpu::JsonLogWriter::Header{job.workload->name, gpu::ToString(job.tm),
                                                         machine.name, gpu::ToString(scale), seed});
    gpu::RunOptions opt;
    opt.seed = seed;
    opt.max_cycles = max_cycles;
    opt.log = &writer;
    opt.rtl = rtl;
    r = gpu::RunSystem(machine, job.tm, *w, opt);
    if (!file.Commit()) {
      o.failure = "writing " + log_path + " failed";
      return o;
    }
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  o.stats = r.stats;
  o.energy = r.energy;
  o.coverage = r.coverage;
  if (!r.error.empty()) {
    o.failure = r.error;
  } else if (!r.check.empty()) {
    o.failure = "final-state check: " + r.check;
  } else {
    std::ifstream is(log_path);
    o.log = gpu::CheckCommitLog(is);
    if (!o.log.ok) {
      o.failure = "commit-log check: " + o.log.error;
    }
  }
  o.ok = r.ok && o.failure.empty();
  if (!keep_log) {
    std::remove(log_path.c_str());
  }
  return o;
}

// ---- The report ---------------------------------------------------------------------------

struct Report {
  const gpu::MachineConfig* machine = nullptr;
  gpu::Scale scale = gpu::Scale::kDefault;
  uint64_t seed = 1;
  std::string command;
  std::vector<const gpu::WorkloadInfo*> workloads;
  std::vector<TmMode> modes;
  std::map<std::pair<std::string, TmMode>, Outcome> runs;
  double wall_seconds = 0;
  std::optional<LdsSuite> lds;  // the GPU-LocalTM suite, when it ran

  const Outcome* Find(const std::string& w, TmMode t) const {
    auto it = runs.find({w, t});
    return it != runs.end() && it->second.ok ? &it->second : nullptr;
  }
  /// Cycles under WarpTM over cycles under `t`: the paper's speed-up over WarpTM.
  std::optional<double> SpeedUp(const std::string& w, TmMode t) const {
    const Outcome* base = Find(w, TmMode::kWarpTm);
    const Outcome* x = Find(w, t);
    if (base == nullptr || x == nullptr || x->stats.cycles == 0) {
      return std::nullopt;
    }
    return static_cast<double>(base->stats.cycles) / static_cast<double>(x->stats.cycles);
  }
  bool Has(TmMode t) const { return std::find(modes.begin(), modes.end(), t) != modes.end(); }
};

/// Why this model's early-conflict-resolution figures can differ from the paper's: the model's
/// known departures from the paper's simulator (docs/htmsim.md) that bear on a workload.
enum class Why : uint8_t {
  kCommitUnitBound,
  kCatLookupsPerRow,
  kConservativePauses,
  kKiloTmLogTraffic,
  kSitmAdmission,
  kSiCommitConflicts
};

/// True when the workload comes from paper `p`'s table.
bool FromPaper(const gpu::WorkloadInfo& w, gpu::Paper p) {
  return w.paper == p;
}

std::string Explain(Why why, const gpu::MachineConfig& m) {
  switch (why) {
    case Why::kCommitUnitBound:
      return "This model's commit units take one message per cycle (the RTL's intake, where the "
             "paper's simulator takes a warp's coalesced log in one step) and there is no L1, so "
             "the commit units weigh more here (see their busy share below): anything that "
             "keeps doomed transactions out of them, EA's early aborts and PG's pauses alike, "
             "pays more than in the paper, and which of the two pays most depends on how many "
             "aborts each removes.";
    case Why::kCatLookupsPerRow:
      return "Every log row of a warp's commit is also looked up in the CAT when EA is on (32 "
             "lanes through " +
             std::to_string(m.cat.num_ports) +
             " ports), a cost the paper's simulator does not charge, so long logs make the "
             "intra-warp "
             "detection slower with EA; and EA does abort transactions here, where the paper "
             "saw it never trigger.";
    case Why::kKiloTmLogTraffic:
      return "Under KILO TM every lane's whole log goes to the commit units, one message per "
             "cycle, where WarpTM first removes the lanes that lose an intra-warp conflict and "
             "the paper's simulator takes a warp's coalesced log in one step; with long read "
             "logs this traffic, not the intra-warp aborts, decides here.";
    case Why::kSiCommitConflicts:
      return "Where a workload's conflicts are write-write, or close dependency cycles, snapshot "
             "isolation saves no aborts: the write-write check and the loop check fail a try at "
             "its commit, as late as KILO TM's validation, and reading the snapshot of its "
             "TX_Begin can only add conflicts; its shorter commits (no read log) are then all "
             "it gains.";
    case Why::kSitmAdmission:
      return "SITM_TS aborts a second writer of a word at once (the single-writer rule) and a "
             "try whose word finds its Writer Table set full (one entry per word, " +
             std::to_string(m.wt.ways) +
             "-way sets); after a refusal the model admits warps one at a time until one "
             "commits cleanly (abort and wait, §4.3). Where its cycles in tries (below) are no "
             "more than KILO TM's, the time goes in that waiting (docs/htmsim.md has the "
             "experiments).";
    case Why::kConservativePauses:
      return "Pause-and-Go checks an access when it is issued, and a word stays in the CAT from "
             "its count at the commit unit until the decrement arrives, so against a " +
             std::to_string(m.mem_latency) +
             "-cycle memory a paused access would often have come after the commit anyway; "
             "paused lanes resume only when the groups above them are decided (no pick-up into "
             "a later group, which the paper does not describe).";
  }
  return "";
}

/// The intra-warp detection's cycles per warp commit.
std::string CyclesPerWarp(const gpu::SystemStats& s) {
  return s.iwcd_warps == 0 ? std::string("–") : Thousands(s.iwcd_cycles / s.iwcd_warps);
}

/// The measurements behind an explanation, for one workload.
std::string Measured(const Report& rep, Why why, const std::string& w) {
  if (why == Why::kSiCommitConflicts) {
    const Outcome* orc = rep.Find(w, TmMode::kSitmOracle);
    const Outcome* kilo = rep.Find(w, TmMode::kKiloTm);
    if (orc == nullptr || kilo == nullptr) {
      return "–";
    }
    const gpu::SystemStats &o = orc->stats, &k = kilo->stats;
    return "SITM_Oracle " + Thousands(o.aborts_validation) + " write-write and " +
           Thousands(o.aborts_loop) + " loop aborts against KILO TM's " +
           Thousands(k.aborts_validation) + " validation aborts; cycles in aborted tries " +
           Thousands(o.wasted_cycles) + " against " + Thousands(k.wasted_cycles) +
           "; commit units busy " + Percent(o.cu_busy_cycles, o.cu_cycles) + " against " +
           Percent(k.cu_busy_cycles, k.cu_cycles);
  }
  if (why == Why::kSitmAdmission) {
    const Outcome* ts = rep.Find(w, TmMode::kSitm);
    if (ts == nullptr) {
      return "–";
    }
    const gpu::SystemStats& s = ts->stats;
    const Outcome* kilo = rep.Find(w, TmMode::kKiloTm);
    return Thousands(s.aborts_single_writer) + " single-writer aborts, " +
           Thousands(s.aborts_si_full) + " refusals, " + Thousands(s.tx_limit_stalls) +
           " waits at TX_Begin, at most " + Thousands(s.si_retained_max) +
           " committed transactions kept; cycles in tries " +
           Thousands(s.tx_cycles + s.wasted_cycles) +
           (kilo == nullptr
                ? std::string()
                : " (KILO TM " + Thousands(kilo->stats.tx_cycles + kilo->stats.wasted_cycles) +
                      ")");
  }
  const Outcome* base = rep.Find(w, TmMode::kWarpTm);
  const Outcome* ea = rep.Find(w, TmMode::kWarpTmEa);
  const Outcome* pg = rep.Find(w, TmMode::kWarpTmPg);
  const Outcome* kilo = rep.Find(w, TmMode::kKiloTm);
  if (base == nullptr ||
      (why == Why::kKiloTmLogTraffic ? kilo == nullptr : ea == nullptr || pg == nullptr)) {
    return "–";
  }
  const gpu::SystemStats& b = base->stats;
  const gpu::SystemStats& e = ea != nullptr ? ea->stats : b;
  const gpu::SystemStats& p = pg != nullptr ? pg->stats : b;
  switch (why) {
    case Why::kCommitUnitBound:
      return "commit units busy " + Percent(b.cu_busy_cycles, b.cu_cycles) +
             " under WarpTM; commit-unit aborts " + Thousands(b.aborts_validation) +
             " under WarpTM, " + Thousands(e.aborts_validation) + " with EA, " +
             Thousands(p.aborts_validation) + " with PG";
    case Why::kCatLookupsPerRow:
      return "intra-warp detection " + CyclesPerWarp(b) + " cycles per warp under WarpTM, " +
             CyclesPerWarp(e) + " with EA; " + Thousands(e.aborts_early) + " early aborts";
    case Why::kSitmAdmission:
    case Why::kSiCommitConflicts:
      return "";
    case Why::kKiloTmLogTraffic: {
      return "commit-unit messages " + Thousands(kilo->stats.cu_messages) + " under KILO TM, " +
             Thousands(b.cu_messages) + " under WarpTM; commit units busy " +
             Percent(kilo->stats.cu_busy_cycles, kilo->stats.cu_cycles) + " and " +
             Percent(b.cu_busy_cycles, b.cu_cycles);
    }
    case Why::kConservativePauses:
      return "aborts " + Thousands(b.aborts) + " under WarpTM, " + Thousands(p.aborts) +
             " with PG (" + Thousands(p.pauses) + " lanes paused), " + Thousands(e.aborts) +
             " with EA";
  }
  return "";
}

/// What Chen & Peng (HPCA 2016) §7 say about one workload's three early-conflict-resolution
/// configurations, as a test on our speed-ups over WarpTM.
struct EcrFinding {
  const char* workload;
  const char* paper;  // the paper's finding
  bool (*holds)(double ea, double pg, double both);
  Why why;  // what in this model bears on a difference
};

constexpr double kTie = 0.03;  // speed-ups within 3 % count as equal

bool EaAheadBothBest(double ea, double pg, double both) {
  return ea >= pg * (1 - kTie) && both >= std::max(ea, pg) * (1 - kTie);
}
bool PgAhead(double ea, double pg, double /*both*/) {
  return pg >= ea * (1 - kTie);
}
bool PgAheadAndBest(double ea, double pg, double both) {
  return pg >= ea * (1 - kTie) && pg >= both * (1 - kTie);
}
bool ListFinding(double ea, double pg, double both) {
  return std::abs(ea - 1) <= kTie && std::abs(both - pg) <= kTie * pg;
}

const char* const kEaBest = "EA ahead of PG; EA + PG best (§7.1, §7.4)";
const char* const kPgBest = "PG ahead of EA; PG alone best, EA + PG below it (§7.3, §7.4)";
const EcrFinding kEcrFindings[] = {
    {"HT1K", kEaBest, EaAheadBothBest, Why::kCommitUnitBound},
    {"HT512", kEaBest, EaAheadBothBest, Why::kCommitUnitBound},
    {"ATM25K", kEaBest, EaAheadBothBest, Why::kCommitUnitBound},
    {"ATM10K", kEaBest, EaAheadBothBest, Why::kCommitUnitBound},
    {"SpMV", kEaBest, EaAheadBothBest, Why::kCommitUnitBound},
    {"List", "EA never triggers (no gain); EA + PG equal to PG (§7.4)", ListFinding,
     Why::kCatLookupsPerRow},
    {"BinTree", "PG similar to or ahead of EA (§7.3)", PgAhead, Why::kConservativePauses},
    {"RBT180", kPgBest, PgAheadAndBest, Why::kConservativePauses},
    {"RBT450", kPgBest, PgAheadAndBest, Why::kConservativePauses},
};
constexpr double kPaperEcrGeomean = 1.41;  // Chen & Peng (HPCA 2016) §7.1: EA + PG over WarpTM

std::string Cell(std::optional<double> v) {
  return v ? Fixed(*v, 2) + "x" : "–";
}

/// Where the time goes under WarpTM and with EA: the measurements behind the explanations.
void WriteTimeShares(const Report& rep, std::ostream& md) {
  md << "Where the time goes (WarpTM; EA): the commit units' busy share (cycles with a "
        "transaction in a unit, over all units' cycles), the share of transactional cycles spent "
        "in tries that aborted, and the intra-warp detection's cycles per warp commit.\n\n"
     << "| workload | commit units busy | cycles in aborted tries | intra-warp detection, "
        "cycles per warp |\n|---|---:|---:|---:|\n";
  for (const auto* w : rep.workloads) {
    if (!FromPaper(*w, gpu::Paper::kEcr)) {
      continue;
    }
    const Outcome* base = rep.Find(w->name, TmMode::kWarpTm);
    const Outcome* ea = rep.Find(w->name, TmMode::kWarpTmEa);
    if (base == nullptr) {
      continue;
    }
    const gpu::SystemStats& b = base->stats;
    md << "| " << w->name << " | " << Percent(b.cu_busy_cycles, b.cu_cycles);
    if (ea != nullptr) {
      md << "; " << Percent(ea->stats.cu_busy_cycles, ea->stats.cu_cycles);
    }
    md << " | " << Percent(b.wasted_cycles, b.wasted_cycles + b.tx_cycles);
    if (ea != nullptr) {
      md << "; " << Percent(ea->stats.wasted_cycles, ea->stats.wasted_cycles + ea->stats.tx_cycles);
    }
    md << " | " << CyclesPerWarp(b);
    if (ea != nullptr) {
      md << "; " << CyclesPerWarp(ea->stats);
    }
    md << " |\n";
  }
  md << "\n";
}

/// The comparison of Chen & Peng (HPCA 2016), Figure 8: speed-ups of EA, PG and EA + PG over WarpTM
/// per workload, their geometric means, the paper's finding and whether ours agrees.
void WriteEcr(const Report& rep, std::ostream& md, BarChart* chart) {
  const TmMode ecr[] = {TmMode::kWarpTmEa, TmMode::kWarpTmPg, TmMode::kWarpTmEaPg};
  md << "## Early conflict resolution (Chen & Peng, HPCA 2016, Figure 8)\n\n"
     << "Speed-up over WarpTM (WarpTM's cycles over the configuration's; higher is faster). "
     << "The paper gives its per-workload results as plots; its text gives the geometric mean of "
     << "EA + PG, " << Fixed(kPaperEcrGeomean, 2)
     << "x, and which configuration wins where (§7). The last column tests our figures against "
        "that finding (speed-ups within 3 % count as equal).\n\n"
     << "| workload | KILO TM | EA | PG | EA + PG | the paper (§7) | ours agrees |\n"
     << "|---|---:|---:|---:|---:|---|---|\n";
  chart->title = "Speed-up over WarpTM (the metric of Chen & Peng, HPCA 2016, Figure 8)";
  chart->y_label = "speed-up over WarpTM";
  chart->series = {"EA", "PG", "EA + PG"};
  chart->lines = {{1.0, "WarpTM"}, {kPaperEcrGeomean, "paper GM, EA + PG"}};
  double log_sum[3] = {0, 0, 0};
  int counted[3] = {0, 0, 0};
  std::map<Why, std::vector<std::string>> differing;
  for (const auto* w : rep.workloads) {
    if (!FromPaper(*w, gpu::Paper::kEcr)) {
      continue;
    }
    std::optional<double> s[3];
    for (int i = 0; i < 3; ++i) {
      s[i] = rep.SpeedUp(w->name, ecr[i]);
      if (s[i]) {
        log_sum[i] += std::log(*s[i]);
        ++counted[i];
      }
    }
    const EcrFinding* f = nullptr;
    for (const auto& x : kEcrFindings) {
      if (w->name == x.workload) {
        f = &x;
      }
    }
    std::string verdict = "–";
    if (f != nullptr && s[0] && s[1] && s[2]) {
      const bool ok = f->holds(*s[0], *s[1], *s[2]);
      verdict = ok ? "yes" : "**no**";
      if (!ok) {
        differing[f->why].push_back(w->name);
      }
    }
    md << "| " << w->name << " | " << Cell(rep.SpeedUp(w->name, TmMode::kKiloTm)) << " | "
       << Cell(s[0]) << " | " << Cell(s[1]) << " | " << Cell(s[2]) << " | "
       << (f != nullptr ? f->paper : "–") << " | " << verdict << " |\n";
    if (s[0] || s[1] || s[2]) {
      chart->groups.push_back(w->name);
      chart->values.push_back({{s[0].value_or(0)}, {s[1].value_or(0)}, {s[2].value_or(0)}});
    }
  }
  std::optional<double> gm[3];
  for (int i = 0; i < 3; ++i) {
    if (counted[i] > 0) {
      gm[i] = std::exp(log_sum[i] / counted[i]);
    }
  }
  md << "| **geometric mean** | | " << Cell(gm[0]) << " | " << Cell(gm[1]) << " | " << Cell(gm[2])
     << " | EA + PG " << Fixed(kPaperEcrGeomean, 2) << "x; both together best on average | "
     << (gm[2] ? (*gm[2] >= kPaperEcrGeomean * (1 - kTie) ? "at or above" : "**below**")
               : std::string("–"))
     << " |\n\n";
  if (gm[0] || gm[1] || gm[2]) {
    chart->groups.push_back("GM");
    chart->values.push_back({{gm[0].value_or(0)}, {gm[1].value_or(0)}, {gm[2].value_or(0)}});
  }
  md << "![Speed-up over WarpTM](fig8_speedup.svg)\n\n";
  if (!differing.empty()) {
    md << "### Where ours differ, and why\n\n";
    for (const auto& [why, names] : differing) {
      std::string list;
      for (const std::string& n : names) {
        list += (list.empty() ? "" : ", ") + n + " (" + Measured(rep, why, n) + ")";
      }
      md << "* " << Explain(why, *rep.machine) << " Measured: " << list << ".\n";
    }
    md << "\n";
  }
  WriteTimeShares(rep, md);
}

/// The comparison of Chen & Peng (HPCA 2016), Figure 10: aborts by cause in every configuration,
/// and a chart of them relative to WarpTM's.
void WriteAborts(const Report& rep, std::ostream& md, BarChart* chart) {
  md << "## Aborts by cause (Chen & Peng, HPCA 2016, Figure 10)\n\n"
     << "Aborted tries by cause: commit-unit validation, commit-unit capacity, zombie "
        "(inconsistent reads), intra-warp, early abort (the CAT hit). The chart shows them "
        "relative to WarpTM's total for the workload.\n\n"
     << "| workload | configuration | aborts | validation | capacity | zombie | intra-warp | "
        "early | lanes paused |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
  chart->title = "Aborts by cause, relative to WarpTM's total (Chen & Peng, HPCA 2016, Figure 10)";
  chart->y_label = "aborts / WarpTM's aborts";
  chart->segments = {"validation", "capacity", "zombie", "intra-warp", "early abort"};
  std::vector<TmMode> modes;  // Figure 10 compares WarpTM's variants and KILO TM
  for (const TmMode t : rep.modes) {
    if (!gpu::IsSi(t) && t != TmMode::kFgl) {
      modes.push_back(t);
      chart->series.push_back(gpu::ToString(t));
    }
  }
  for (const auto* w : rep.workloads) {
    if (!FromPaper(*w, gpu::Paper::kEcr)) {
      continue;
    }
    const Outcome* base = rep.Find(w->name, TmMode::kWarpTm);
    const double norm =
        base != nullptr && base->stats.aborts > 0 ? static_cast<double>(base->stats.aborts) : 0;
    std::vector<std::vector<double>> bars;
    for (const TmMode t : modes) {
      const Outcome* o = rep.Find(w->name, t);
      if (o == nullptr) {
        bars.push_back({});
        continue;
      }
      const gpu::SystemStats& s = o->stats;
      md << "| " << w->name << " | " << gpu::ToString(t) << " | " << Thousands(s.aborts) << " | "
         << Thousands(s.aborts_validation) << " | " << Thousands(s.aborts_capacity) << " | "
         << Thousands(s.aborts_zombie) << " | " << Thousands(s.aborts_intra_warp) << " | "
         << Thousands(s.aborts_early) << " | " << Thousands(s.pauses) << " |\n";
      std::vector<double> seg;
      for (const uint64_t v : {s.aborts_validation, s.aborts_capacity, s.aborts_zombie,
                               s.aborts_intra_warp, s.aborts_early}) {
        seg.push_back(norm > 0 ? static_cast<double>(v) / norm : 0);
      }
      bars.push_back(seg);
    }
    if (norm > 0) {
      chart->groups.push_back(w->name);
      chart->values.push_back(bars);
    }
  }
  md << "\n![Aborts by cause](fig10_aborts.svg)\n\n";
}

void WriteRuns(const Report& rep, std::ostream& md) {
  md << "## Every run\n\n"
     << "Each run passed when its final state passed the workload's invariant, its serialization "
        "replay was consistent, and its exported commit log passed `htmsim check` (consistent "
        "reads, acyclic dependency graph, replay reproducing the final memory).\n\n"
     << "| workload | configuration | cycles | commits | aborts | wasted cycles | log edges | "
        "check | seconds | cycles/s | tx/s |\n"
     << "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|\n";
  uint64_t cycles = 0, commits = 0;
  double seconds = 0;
  for (const auto* w : rep.workloads) {
    for (const TmMode t : rep.modes) {
      auto it = rep.runs.find({w->name, t});
      if (it == rep.runs.end() || !it->second.ran) {
        continue;
      }
      const Outcome& o = it->second;
      cycles += o.stats.cycles;
      commits += o.stats.commits;
      seconds += o.seconds;
      const double sec = std::max(o.seconds, 1e-9);
      md << "| " << w->name << " | " << gpu::ToString(t) << " | " << Thousands(o.stats.cycles)
         << " | " << Thousands(o.stats.commits) << " | " << Thousands(o.stats.aborts) << " | "
         << Thousands(o.stats.wasted_cycles) << " | " << Thousands(o.log.edges) << " | "
         << (o.ok ? "passed" : "**FAILED**: " + o.failure) << " | " << Fixed(o.seconds, 1) << " | "
         << Thousands(static_cast<uint64_t>(static_cast<double>(o.stats.cycles) / sec)) << " | "
         << Thousands(static_cast<uint64_t>(static_cast<double>(o.stats.commits) / sec)) << " |\n";
    }
  }
  const double sec = std::max(seconds, 1e-9);
  md << "\nModel speed over the suite: " << Thousands(cycles) << " simulated cycles and "
     << Thousands(commits) << " transactions in " << Fixed(seconds, 1) << " s of run time ("
     << Thousands(static_cast<uint64_t>(static_cast<double>(cycles) / sec)) << " cycles/s, "
     << Thousands(static_cast<uint64_t>(static_cast<double>(commits) / sec)) << " transactions/s); "
     << Fixed(rep.wall_seconds, 1) << " s wall.\n\n";
}

/// The comparison of Chen, Peng & Irving (ISCA 2017), Figures 13, 15 and 16, on the Table 3
/// workloads: speed-ups over WarpTM, wasted work and aborts relative to WarpTM's, and the paper's
/// order of the configurations.
void WriteSi(const Report& rep, std::ostream& md, BarChart* chart) {
  const TmMode cfg[] = {TmMode::kKiloTm, TmMode::kSitm, TmMode::kSitmOracle};
  md << "## Snapshot isolation (Chen, Peng & Irving, ISCA 2017, Figures 13, 15, 16)\n\n"
     << "The paper's Table 3 workloads, relative to WarpTM: speed-ups of KILO TM, SITM_TS and "
        "SITM_Oracle (Figure 13), cycles in aborted tries (Figure 15's wasted work) and aborts "
        "(Figure 16). The paper finds WarpTM the slowest configuration on every workload, slower "
        "than KILO TM because its intra-warp detection aborts on every intra-warp read-write "
        "conflict, and both SITM configurations faster than KILO TM, up to 4.5x over WarpTM "
        "(§7). The last column tests that order (speed-ups within 3 % count as equal). SITM_TS's "
        "aborts are by cause: a loop post-dating reported, the single-writer rule, a full table "
        "(or no free transaction id); \"missed\" counts the commits that would have closed a "
        "cycle post-dating did not report, which the model aborts with its exact graph "
        "(docs/htmsim.md).\n\n"
     << "| workload | KILO TM | SITM_TS | SITM_Oracle | wasted work (/ WarpTM) | aborts (/ "
        "WarpTM) | WarpTM's intra-warp aborts | SITM_TS: loop, single writer, full; missed | "
        "SITM_Oracle's loop aborts | WarpTM <= KILO TM <= SITM, as in the paper |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
  chart->title = "Speed-up over WarpTM (the metric of Chen, Peng & Irving, ISCA 2017, Figure 13)";
  chart->y_label = "speed-up over WarpTM";
  chart->series = {"KILO TM", "SITM_TS", "SITM_Oracle"};
  chart->lines = {{1.0, "WarpTM"}};
  std::vector<std::string> kilo_behind, ts_behind, oracle_behind;
  for (const auto* w : rep.workloads) {
    if (!FromPaper(*w, gpu::Paper::kSi)) {
      continue;
    }
    const Outcome* warp = rep.Find(w->name, TmMode::kWarpTm);
    auto ratios = [&](uint64_t gpu::SystemStats::*f) {
      std::string cell;
      for (const TmMode t : cfg) {
        const Outcome* o = rep.Find(w->name, t);
        cell += cell.empty() ? "" : "; ";
        cell +=
            warp == nullptr || o == nullptr || warp->stats.*f == 0
                ? "–"
                : Fixed(static_cast<double>(o->stats.*f) / static_cast<double>(warp->stats.*f), 2);
      }
      return cell;
    };
    std::optional<double> up[3];
    for (size_t i = 0; i < 3; ++i) {
      up[i] = rep.SpeedUp(w->name, cfg[i]);
    }
    std::vector<std::string> wrong;
    if (up[0] && *up[0] < 1 - kTie) {
      wrong.push_back("KILO TM behind WarpTM");
      kilo_behind.push_back(w->name);
    }
    for (size_t i = 1; i < 3; ++i) {
      if (up[0] && up[i] && *up[i] < *up[0] * (1 - kTie)) {
        wrong.push_back(std::string(i == 1 ? "SITM_TS" : "SITM_Oracle") + " behind KILO TM");
        (i == 1 ? ts_behind : oracle_behind).push_back(w->name);
      }
    }
    std::string verdict = up[0] && (up[1] || up[2]) ? "yes" : "–";
    for (size_t i = 0; i < wrong.size(); ++i) {
      verdict = (i == 0 ? "**no**: " : verdict + ", ") + wrong[i];
    }
    const Outcome* ts = rep.Find(w->name, TmMode::kSitm);
    const Outcome* orc = rep.Find(w->name, TmMode::kSitmOracle);
    md << "| " << w->name << " | " << Cell(up[0]) << " | " << Cell(up[1]) << " | " << Cell(up[2])
       << " | " << ratios(&gpu::SystemStats::wasted_cycles) << " | "
       << ratios(&gpu::SystemStats::aborts) << " | "
       << (warp ? Percent(warp->stats.aborts_intra_warp, warp->stats.aborts) : "–") << " | "
       << (ts ? Thousands(ts->stats.aborts_loop - ts->stats.si_loops_missed) + ", " +
                    Thousands(ts->stats.aborts_single_writer) + ", " +
                    Thousands(ts->stats.aborts_si_full) + "; " +
                    Thousands(ts->stats.si_loops_missed)
              : "–")
       << " | " << (orc ? Thousands(orc->stats.aborts_loop) : "–") << " | " << verdict << " |\n";
    if (up[0] || up[1] || up[2]) {
      chart->groups.push_back(w->name);
      chart->values.push_back({{up[0].value_or(0)}, {up[1].value_or(0)}, {up[2].value_or(0)}});
    }
  }
  md << "\n![Speed-up over WarpTM, Table 3](fig13_speedup.svg)\n\n";
  if (!kilo_behind.empty()) {
    std::string list;
    for (const std::string& n : kilo_behind) {
      list +=
          (list.empty() ? "" : ", ") + n + " (" + Measured(rep, Why::kKiloTmLogTraffic, n) + ")";
    }
    md << "Where ours differ: " << Explain(Why::kKiloTmLogTraffic, *rep.machine)
       << " Measured: " << list << ".\n\n";
  }
  if (!oracle_behind.empty()) {
    std::string list;
    for (const std::string& n : oracle_behind) {
      list += (list.empty() ? "" : "; ") + n + ": " + Measured(rep, Why::kSiCommitConflicts, n);
    }
    md << "Where SITM_Oracle falls behind KILO TM: "
       << Explain(Why::kSiCommitConflicts, *rep.machine) << " Measured: " << list << ".\n\n";
  }
  if (!ts_behind.empty()) {
    std::string list;
    for (const std::string& n : ts_behind) {
      list += (list.empty() ? "" : "; ") + n + ": " + Measured(rep, Why::kSitmAdmission, n);
    }
    md << "Where SITM_TS falls behind KILO TM: " << Explain(Why::kSitmAdmission, *rep.machine)
       << " Measured: " << list << ".\n\n";
  }
}

/// The GPU-LocalTM section: the LDS suite's own report (lds_results.md), one heading level down.
void WriteLds(const Report& rep, std::ostream& md) {
  md << "## GPU-LocalTM (Villegas, PhD thesis, 2018, chapter 5; "
        "Villegas et al., TRANSACT 2015)\n\n";
  if (!rep.lds) {
    md << "Not run (`--no-lds`, or a subset of workloads or configurations was asked for; "
          "`--lds-benches` runs it).\n\n";
    return;
  }
  md << "The thesis's LDS workloads (Table 5.7) on the compute-unit model, in both contention "
        "levels, each run's final LDS state checked by its workload; also in lds_results.md "
        "and lds_results.csv.\n\n";
  std::istringstream in(rep.lds->markdown);
  bool title = true;
  for (std::string line; std::getline(in, line);) {
    if (title && line.rfind("# ", 0) == 0) {
      title = false;  // the LDS report's own title
      continue;
    }
    md << (line.rfind("#", 0) == 0 ? "#" : "") << line << "\n";
  }
  md << "\n";
}

/// KILO TM's baseline (Fung et al., MICRO 2011, the talk's slides: KILO TM "captures 59 % of FG
/// lock performance"): each TM configuration's performance as a share of the fine-grained-lock
/// kernel's.
void WriteFgl(const Report& rep, std::ostream& md) {
  const TmMode tms[] = {TmMode::kKiloTm, TmMode::kWarpTm, TmMode::kWarpTmEaPg};
  std::ostringstream rows;
  for (const auto* w : rep.workloads) {
    const Outcome* fgl = rep.Find(w->name, TmMode::kFgl);
    if (fgl == nullptr) {
      continue;
    }
    rows << "| " << w->name << " | " << Thousands(fgl->stats.cycles);
    for (const TmMode t : tms) {
      const Outcome* o = rep.Find(w->name, t);
      rows << " | "
           << (o == nullptr || o->stats.cycles == 0
                   ? std::string("–")
                   : Thousands(o->stats.cycles) + " (" +
                         Percent(fgl->stats.cycles, o->stats.cycles) + ")");
    }
    rows << " |\n";
  }
  if (rows.str().empty()) {
    return;
  }
  md << "## Against fine-grained locks (KILO TM: Fung et al., MICRO 2011)\n\n"
     << "The KILO TM paper's baseline: the same work written with a compare-and-swap spin lock "
        "per bucket (HashTable) or per account (ATM: both accounts, the lower first, the first "
        "released when the second is held), a fence before each release, no transactions. "
        "Cycles, and in brackets the configuration's performance as a share of the locks' (the "
        "locks' cycles over the configuration's). The paper: KILO TM captures 59 % of the "
        "fine-grained locks' performance (its slides' average over its workloads).\n\n"
     << "| workload | fine-grained locks | KILO TM | WarpTM | WarpTM + EA + PG |\n"
        "|---|---:|---:|---:|---:|\n"
     << rows.str() << "\n";
  // Where KILO TM falls far behind, the measurement behind it.
  for (const auto* w : rep.workloads) {
    const Outcome* fgl = rep.Find(w->name, TmMode::kFgl);
    const Outcome* kilo = rep.Find(w->name, TmMode::kKiloTm);
    if (fgl == nullptr || kilo == nullptr || 3 * fgl->stats.cycles >= kilo->stats.cycles) {
      continue;
    }
    md << "- " << w->name << ": KILO TM below a third of the locks' performance. Its commit units "
       << "were busy " << Percent(kilo->stats.cu_busy_cycles, kilo->stats.cu_cycles)
       << " of their cycles and "
       << Percent(kilo->stats.wasted_cycles, kilo->stats.wasted_cycles + kilo->stats.tx_cycles)
       << " of its transactional cycles were in tries that aborted: every try sends its whole "
          "log through units that take one message a cycle at half the core clock, while a "
          "lock's critical section costs a few memory accesses (docs/htmsim.md).\n";
  }
  md << "\n";
}

/// WarpTM's temporal conflict detection: what became of the read-only transactions it was
/// offered, per workload and WarpTM configuration that had any.
void WriteTcd(const Report& rep, std::ostream& md) {
  std::ostringstream rows;
  for (const auto* w : rep.workloads) {
    for (const TmMode t :
         {TmMode::kWarpTm, TmMode::kWarpTmEa, TmMode::kWarpTmPg, TmMode::kWarpTmEaPg}) {
      const Outcome* o = rep.Find(w->name, t);
      if (o == nullptr || o->stats.tcd_lanes == 0) {
        continue;
      }
      const gpu::SystemStats& s = o->stats;
      rows << "| " << w->name << " | " << gpu::ToString(t) << " | " << Thousands(s.tcd_lanes)
           << " | " << Thousands(s.tcd_commits) << " | " << Thousands(s.tcd_conflicts) << " | "
           << Thousands(s.tcd_stale) << " | " << Thousands(s.tcd_wait_cycles) << " | "
           << Thousands(s.tcd_checks) << " |\n";
    }
  }
  if (rows.str().empty()) {
    return;
  }
  md << "## WarpTM's temporal conflict detection\n\n"
     << "Read-only transactions under WarpTM: lanes offered to the core's last-written-time "
        "table, committed there, sent to the commit units because a chunk they read was written "
        "since their first read, or because their first read became stale while they waited "
        "for the older commit ids to retire (the condition that keeps them serializable, "
        "docs/htmsim.md); the cycles warps waited for it, summed; the table lookups.\n\n"
     << "| workload | configuration | lanes | committed at the core | written since | stale | "
        "wait cycles | lookups |\n|---|---|---:|---:|---:|---:|---:|---:|\n"
     << rows.str() << "\n";
}

/// The passed runs' statistics and energy, for the energy section.
EnergyRuns PassedRuns(const Report& rep) {
  EnergyRuns runs;
  for (const auto& [key, o] : rep.runs) {
    if (o.ok) {
      runs[key] = EnergyRun{o.stats, o.energy};
    }
  }
  return runs;
}

std::string ReportMarkdown(const Report& rep, BarChart* fig8, BarChart* fig10, BarChart* fig13,
                           BarChart* fig9, BarChart* fig14) {
  std::ostringstream md;
  md << "# htmsim suite report\n\n"
     << "Machine `" << rep.machine->name << "` (" << rep.machine->summary << "), scale `"
     << gpu::ToString(rep.scale) << "`, seed " << rep.seed << ". Produced by `" << rep.command
     << "`; the figures are this model's, measured by that command. What the model is and "
        "where it departs from the papers' simulators: docs/htmsim.md; the papers: "
        "docs/references.md.\n\n";
  WriteEcr(rep, md, fig8);
  WriteAborts(rep, md, fig10);
  WriteSi(rep, md, fig13);
  WriteEnergy(rep.workloads, *rep.machine, PassedRuns(rep), md, fig9, fig14);
  WriteTcd(rep, md);
  WriteFgl(rep, md);
  WriteLds(rep, md);
  WriteRuns(rep, md);
  return md.str();
}

}  // namespace

int SuiteCommand(int argc, char** argv) {
  std::string config = "default", scale_name = "default", out = "htmsim-report";
  std::string workload_list, tm_list, coverage_path;
  uint64_t seed = 1, max_cycles = 0;
  int jobs = DefaultJobs();
  bool paper = false, keep_logs = false, no_lds = false, quiet = false;
  std::string lds_list;
  RtlArgs rtl;
  po::options_description desc("Options of htmsim suite");
  desc.add_options()("help,h", "print this help and exit")(
      "config,c", po::value(&config)->default_value(config), "the machine: default or small")(
      "scale", po::value(&scale_name)->default_value(scale_name),
      "problem size: small, default or paper")("paper", po::bool_switch(&paper),
                                               "the papers' sizes (same as --scale paper)")(
      "seed,s", Num(&seed), "seed of the workloads' random choices")(
      "workloads,w", po::value(&workload_list), "comma-separated workloads (default: all)")(
      "tm,t", po::value(&tm_list),
      "comma-separated TM configurations (default: kilotm,warptm,warptm-ea,warptm-pg,"
      "warptm-eapg)")("jobs,j", Num(&jobs), "runs at once")(
      "out,o", po::value(&out)->default_value(out),
      "directory for report.md, the SVG plots, results.jsonl and results.csv")(
      "keep-logs", po::bool_switch(&keep_logs), "keep every run's commit log in OUT/logs")(
      "coverage", po::value(&coverage_path),
      "write the blocks' coverage events summed over the runs (JSON, docs/coverage.md) to this "
      "file")("max-cycles", Num(&max_cycles),
              "stop a run with an error after this many cycles (0: 200 000 000)")(
      "lds-benches", po::value(&lds_list),
      "GPU-LocalTM benchmarks to run on the compute-unit model, e.g. HT,IT (default: all of "
      "them when no --workloads or --tm is given, else none)")("no-lds", po::bool_switch(&no_lds),
                                                               "leave the GPU-LocalTM suite out");
  desc.add_options()("quiet,q", po::bool_switch(&quiet),
                     "print only the failures and the summary: no line per run, no tables, no "
                     "report (they are in OUT); the progress stays on a terminal");
  rtl.Add(desc);
  po::variables_map vm;
  if (!ParseOptions("htmsim suite", argc, argv, desc, vm)) {
    return 2;
  }
  if (vm.count("help")) {
    std::cout << "Usage: htmsim suite [--config C] [--scale S | --paper] [--workloads W,...]\n"
                 "                    [--tm T,...] [--jobs N] [--out DIR] [--lds-benches B,...]\n"
                 "                    [--coverage FILE]\n\n"
                 "Runs every workload under the papers' TM configurations, checks each run (its\n"
                 "invariant, its serialization replay, its commit log through the independent\n"
                 "checker) and writes a report with the papers' figures beside ours.\n\n"
              << desc << "\nExit status: 0 every run passed, 1 a run failed, 2 bad usage.\n";
    return 0;
  }
  Report rep;
  rep.seed = seed;
  rep.machine = gpu::FindMachine(config);
  if (rep.machine == nullptr) {
    std::cerr << "htmsim suite: unknown machine '" << config << "' (default or small)\n";
    return 2;
  }
  if (!gpu::ParseScale(scale_name, &rep.scale)) {
    std::cerr << "htmsim suite: unknown scale '" << scale_name << "' (small, default or paper)\n";
    return 2;
  }
  if (paper) {
    rep.scale = gpu::Scale::kPaper;
  }
  if (std::string err = CheckJobs(jobs); !err.empty()) {
    std::cerr << "htmsim suite: " << err << "\n";
    return 2;
  }
  if (vm.count("workloads")) {
    for (const std::string& name : SplitList(workload_list)) {
      const gpu::WorkloadInfo* w = gpu::FindWorkload(name);
      if (w == nullptr) {
        std::cerr << "htmsim suite: unknown workload '" << name << "' (one of " << WorkloadNames()
                  << ")\n";
        return 2;
      }
      rep.workloads.push_back(w);
    }
  } else {
    for (const auto& w : gpu::AllWorkloads()) {
      rep.workloads.push_back(&w);
    }
  }
  if (vm.count("tm")) {
    for (const std::string& name : SplitList(tm_list)) {
      TmMode t;
      if (!gpu::ParseTmMode(name, &t)) {
        std::cerr << "htmsim suite: unknown TM configuration '" << name << "' (one of " << TmNames()
                  << ")\n";
        return 2;
      }
      rep.modes.push_back(t);
    }
  } else {
    rep.modes = kSuiteModes;
  }
  std::vector<std::string> lds_benches;
  for (const std::string& b : SplitList(lds_list)) {
    const auto& names = htm::lds::BenchmarkNames();
    if (std::find(names.begin(), names.end(), b) == names.end()) {
      std::cerr << "htmsim suite: unknown GPU-LocalTM benchmark '" << b << "' (" << LdsBenchNames()
                << ")\n";
      return 2;
    }
    lds_benches.push_back(b);
  }
  const bool run_lds =
      !no_lds && (vm.count("lds-benches") != 0 || (vm.count("workloads") + vm.count("tm")) == 0);
  if (rep.workloads.empty() || rep.modes.empty()) {
    std::cerr << "htmsim suite: no workload or no TM configuration to run\n";
    return 2;
  }
  if (std::string err = rtl.Validate(); !err.empty()) {
    std::cerr << "htmsim suite: " << err << "\n";
    return 2;
  }
  rep.command = "htmsim suite --config " + rep.machine->name + " --scale " +
                gpu::ToString(rep.scale) + " --seed " + std::to_string(seed) +
                (vm.count("workloads") ? " --workloads " + workload_list : "") +
                (vm.count("tm") ? " --tm " + tm_list : "") +
                (vm.count("lds-benches") ? " --lds-benches " + lds_list : "") +
                (no_lds ? " --no-lds" : "") + rtl.CommandLine();

  std::vector<Job> queue;
  for (const auto* w : rep.workloads) {
    for (const TmMode t : rep.modes) {
      if (gpu::IsSi(t) && vm.count("tm") == 0 && !FromPaper(*w, gpu::Paper::kSi)) {
        continue;  // by default, snapshot isolation runs on its paper's workloads
      }
      if (t == TmMode::kFgl && !HasLockKernel(*w)) {
        continue;  // the baseline runs where the workload has a lock kernel
      }
      Job job{w, t, {}};
      const std::string repro = "htmsim run --workload " + w->name + " --tm " + gpu::ToString(t) +
                                " --config " + rep.machine->name + " --scale " +
                                gpu::ToString(rep.scale) + " --seed " + std::to_string(seed) +
                                rtl.CommandLine();
      if (std::string err = rtl.Resolve(*rep.machine, t, repro, /*strict=*/false, &job.rtl);
          !err.empty()) {
        std::cerr << "htmsim suite: " << w->name << " under " << gpu::ToString(t) << ": " << err;
        return 2;
      }
      queue.push_back(std::move(job));
    }
  }
  if (rtl.any() && rtl.rtl != "all") {
    for (const std::string& b : SplitList(rtl.rtl)) {
      if (std::none_of(queue.begin(), queue.end(),
                       [&](const Job& j) { return j.rtl.Selects(b); })) {
        std::cerr << "htmsim suite: no run of the suite has " << b
                  << " (its blocks depend on the TM configuration: htmsim run --rtl shows them)\n";
        return 2;
      }
    }
  }
  if (queue.empty()) {
    std::cerr << "htmsim suite: nothing to run (the fgl baseline runs only where a workload has a "
                 "fine-grained-lock version: "
              << LockWorkloadNames() << ")\n";
    return 2;
  }
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(out) / "logs", ec);
  if (ec) {
    std::cerr << "htmsim suite: cannot create " << out << "/logs: " << ec.message() << "\n";
    return 2;
  }
  std::cout << "htmsim suite: " << queue.size() << " runs (" << rep.workloads.size()
            << " workloads, " << rep.modes.size() << " TM configurations) on machine "
            << rep.machine->name << ", scale " << gpu::ToString(rep.scale) << ", seed " << seed
            << ", " << jobs << " at once" << std::endl;
  std::vector<Outcome> outcomes(queue.size());
  Progress progress(Progress::kTerminal, quiet ? Progress::kTenths : Progress::kNothing);
  const auto t0 = std::chrono::steady_clock::now();
  ParallelFor(
      queue.size(), jobs,
      [&](size_t i) {
        const Job& j = queue[i];
        const std::string log_path = (std::filesystem::path(out) / "logs" /
                                      (j.workload->name + "." + gpu::ToString(j.tm) + ".jsonl"))
                                         .string();
        outcomes[i] =
            RunOne(j, *rep.machine, rep.scale, seed, max_cycles, j.rtl, log_path, keep_logs);
      },
      [&](size_t i, size_t done) {
        const Job& j = queue[i];
        const Outcome& o = outcomes[i];
        if (!quiet || !o.ok) {
          progress.Clear();
          std::cout << "  " << std::left << std::setw(8) << j.workload->name << " " << std::setw(12)
                    << gpu::ToString(j.tm) << std::right << std::setw(12) << o.stats.cycles
                    << " cycles " << std::setw(8) << o.stats.commits << " commits " << std::setw(8)
                    << o.stats.aborts << " aborts " << std::setw(7) << Fixed(o.seconds, 1) << " s  "
                    << (o.ok ? "passed" : "FAILED: " + o.failure) << std::endl;
        }
        progress.Count("  runs done", done, queue.size());
      });
  progress.Clear();
  rep.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (run_lds) {
    std::cout << "htmsim suite: the GPU-LocalTM suite on the compute-unit model" << std::endl;
    rep.lds = RunLdsSuite(1, jobs, lds_benches, progress.enabled(), rep.command);
    if (!quiet) {
      std::cout << rep.lds->table << "  " << rep.lds->runs << " runs, " << rep.lds->failed
                << " failed, " << Fixed(rep.lds->wall_seconds, 1) << " s wall\n";
    }
    for (const std::string& e : rep.lds->errors) {
      std::cout << "  FAILED: " << e << "\n";
    }
  }
  size_t failed = 0;
  std::ostringstream jsonl, csv;
  csv << "workload,tm,config,scale,seed,ok";
  for (const auto& [key, value] : StatFields(gpu::SystemStats{})) {
    csv << "," << key;
  }
  for (const auto& [key, value] : EnergyFields(gpu::Energy{})) {
    csv << "," << key;
  }
  csv << ",seconds\n";
  for (size_t i = 0; i < queue.size(); ++i) {
    const Job& j = queue[i];
    const Outcome& o = outcomes[i];
    failed += o.ok ? 0 : 1;
    rep.runs[{j.workload->name, j.tm}] = o;
    const RunLabel label{j.workload->name, gpu::ToString(j.tm), rep.machine->name,
                         gpu::ToString(rep.scale), seed};
    WriteStatsJson(jsonl, label, o.ok, o.stats, o.energy, o.seconds);
    csv << label.workload << "," << label.tm << "," << label.config << "," << label.scale << ","
        << seed << "," << (o.ok ? 1 : 0);
    for (const auto& [key, value] : StatFields(o.stats)) {
      csv << "," << value;
    }
    for (const auto& [key, value] : EnergyFields(o.energy)) {
      csv << "," << value;
    }
    csv << "," << o.seconds << "\n";
  }
  if (!coverage_path.empty()) {
    CoverageSum sum;
    for (size_t i = 0; i < queue.size(); ++i) {
      sum.AddRun(queue[i].workload->name + "/" + gpu::ToString(queue[i].tm), *rep.machine,
                 queue[i].tm, outcomes[i].coverage);
    }
    if (!WriteFileAtomically(coverage_path,
                             sum.Json("workloads", rep.command + " --coverage " + coverage_path))) {
      std::cerr << "htmsim suite: writing " << coverage_path << " failed\n";
      return 1;
    }
  }
  BarChart fig8, fig10, fig13, fig9, fig14;
  const std::string md = ReportMarkdown(rep, &fig8, &fig10, &fig13, &fig9, &fig14);
  const std::filesystem::path dir(out);
  const bool written =
      WriteFileAtomically((dir / "results.jsonl").string(), jsonl.str()) &&
      WriteFileAtomically((dir / "results.csv").string(), csv.str()) &&
      WriteFileAtomically((dir / "fig8_speedup.svg").string(), RenderSvg(fig8)) &&
      WriteFileAtomically((dir / "fig10_aborts.svg").string(), RenderSvg(fig10)) &&
      WriteFileAtomically((dir / "fig13_speedup.svg").string(), RenderSvg(fig13)) &&
      WriteFileAtomically((dir / "fig9_energy.svg").string(), RenderSvg(fig9)) &&
      WriteFileAtomically((dir / "fig14_energy.svg").string(), RenderSvg(fig14)) &&
      (!rep.lds || (WriteFileAtomically((dir / "lds_results.md").string(), rep.lds->markdown) &&
                    WriteFileAtomically((dir / "lds_results.csv").string(), rep.lds->csv))) &&
      WriteFileAtomically((dir / "report.md").string(), md);
  if (!quiet) {
    std::cout << "\n" << md;
  }
  if (!written) {
    std::cerr << "htmsim suite: writing the report in " << out << " failed\n";
    return 1;
  }
  std::cout << "htmsim suite: " << queue.size() - failed << " of " << queue.size()
            << " runs passed";
  if (rep.lds) {
    std::cout << "; GPU-LocalTM: " << rep.lds->runs - static_cast<size_t>(rep.lds->failed) << " of "
              << rep.lds->runs << " runs passed";
  }
  std::cout << "; report in " << (dir / "report.md").string() << "\n";
  if (quiet) {
    std::cout << "  every run in " << (dir / "results.csv").string() << ", the plots in "
              << (dir / "fig*.svg").string() << "; " << Fixed(rep.wall_seconds, 0)
              << " s of system-model runs"
              << (rep.lds ? ", " + Fixed(rep.lds->wall_seconds, 0) + " s of GPU-LocalTM runs"
                          : std::string())
              << "\n";
  }
  return failed == 0 && (!rep.lds || rep.lds->failed == 0) ? 0 : 1;
}

}  // namespace htm::sim
