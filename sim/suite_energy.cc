// SPDX-License-Identifier: Apache-2.0
//
// The energy section of htmsim suite's report: see suite_energy.h.
#include "suite_energy.h"

#include <cmath>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report_text.h"

namespace htm::sim {

namespace {

using gpu::EnergyPart;
using gpu::TmMode;

// Chen & Peng (HPCA 2016), §7.1: EA + PG's energy "on average ... 0.8x compared to the baseline
// Warp TM", at "an average of 0.71x running time" (the geometric mean of Figure 8).
constexpr double kPaperEnergy = 0.80;
constexpr double kPaperTime = 0.71;
constexpr double kWithin = 0.1;  // how close to the paper's average counts as reproduced
constexpr double kTie = 0.03;    // ratios within 3 % count as equal (as the speed-ups above)

/// A configuration's energy and time over another's on one workload.
struct Ratio {
  double energy = 0, time = 0;
};

struct Mean {
  double geometric = 0, arithmetic = 0;
  int n = 0;
  void Add(double v) {
    geometric += std::log(v);
    arithmetic += v;
    ++n;
  }
  std::optional<double> Gm() const {
    return n > 0 ? std::optional<double>(std::exp(geometric / n)) : std::nullopt;
  }
  std::optional<double> Am() const {
    return n > 0 ? std::optional<double>(arithmetic / n) : std::nullopt;
  }
};

/// A chart of energies over WarpTM's, in the metric of `figure`.
BarChart EnergyChart(const std::string& figure, std::vector<std::string> series) {
  BarChart c;
  c.title = "Energy over WarpTM's (the metric of " + figure + ")";
  c.y_label = "energy / WarpTM's energy";
  c.series = std::move(series);
  c.lines = {{1.0, "WarpTM"}};
  return c;
}

/// The chart's last group: the three series' geometric means.
void AddMeans(const Mean (&mean)[3], BarChart* chart) {
  if (mean[0].n + mean[1].n + mean[2].n > 0) {
    chart->groups.push_back("GM");
    chart->values.push_back(
        {{mean[0].Gm().value_or(0)}, {mean[1].Gm().value_or(0)}, {mean[2].Gm().value_or(0)}});
  }
}

std::string X(std::optional<double> v) {
  return v ? Fixed(*v, 2) + "x" : "–";
}

std::string Mj(double pj) {
  return Fixed(pj * 1e-9, 2);
}

class Table {
 public:
  Table(const gpu::MachineConfig& m, const EnergyRuns& runs) : m_(m), runs_(runs) {}
  const EnergyRun* Find(const std::string& w, TmMode t) const {
    const auto it = runs_.find({w, t});
    return it == runs_.end() ? nullptr : &it->second;
  }
  /// t's energy (with the constant power scaled by k) and cycles over WarpTM's.
  std::optional<Ratio> Over(const std::string& w, TmMode t, double k = 1) const {
    const EnergyRun* base = Find(w, TmMode::kWarpTm);
    const EnergyRun* x = Find(w, t);
    if (base == nullptr || x == nullptr || base->stats.cycles == 0) {
      return std::nullopt;
    }
    return Ratio{Scaled(*x, k) / Scaled(*base, k),
                 static_cast<double>(x->stats.cycles) / static_cast<double>(base->stats.cycles)};
  }
  /// The TM structures' energy (dynamic and leakage, or with `leakage` only their leakage) of
  /// the terms whose cost key starts with one of `prefixes`.
  double Structures(const std::string& w, TmMode t, std::initializer_list<const char*> prefixes,
                    bool leakage = false) const {
    const EnergyRun* r = Find(w, t);
    double pj = 0;
    for (const gpu::EnergyTerm& term : gpu::EnergyTerms(r->stats, m_, t)) {
      for (const char* p : prefixes) {
        const bool part = !leakage || term.part == EnergyPart::kTmLeakage;
        pj += part && std::string(term.cost).rfind(p, 0) == 0 ? term.pj : 0;
      }
    }
    return pj;
  }
  double Seconds(const EnergyRun& r) const {
    return static_cast<double>(r.stats.cycles) / (gpu::DefaultEnergyCosts().core_clock_mhz * 1e6);
  }

 private:
  static double Scaled(const EnergyRun& r, double k) {
    const double s = r.energy.pj(EnergyPart::kBaselineStatic);
    return r.energy.total_pj() - s + k * s;
  }
  const gpu::MachineConfig& m_;
  const EnergyRuns& runs_;
};

const std::initializer_list<const char*> kEcrStructures = {"rct_", "cat_", "pag_"};
const std::initializer_list<const char*> kSiTables = {"wt_", "rl_", "pd_", "vit_"};

/// WarpTM's energy of a run, by part: "constant 91 %, ...".
std::string Parts(const EnergyRun& r) {
  const gpu::Energy& e = r.energy;
  const double t = e.total_pj();
  return Mj(t) + ": " + Percent(e.pj(EnergyPart::kBaselineStatic), t) + ", " +
         Percent(e.pj(EnergyPart::kBaselineDynamic), t) + ", " +
         Percent(e.pj(EnergyPart::kTmDynamic) + e.pj(EnergyPart::kTmLeakage), t) + ", " +
         Percent(e.pj(EnergyPart::kInterconnect), t);
}

void WriteEcrEnergy(const std::vector<const gpu::WorkloadInfo*>& workloads, const Table& tab,
                    std::ostream& md, BarChart* chart) {
  const TmMode ecr[] = {TmMode::kWarpTmEa, TmMode::kWarpTmPg, TmMode::kWarpTmEaPg};
  md << "### Early conflict resolution (Chen & Peng, HPCA 2016, Figure 9)\n\n"
     << "Energy over WarpTM's (lower is better), and EA + PG's time over WarpTM's (its cycles "
        "over WarpTM's) beside it. The paper gives its per-workload energies only as a plot; its "
        "text: \"On average the energy consumption is 0.8x compared to the baseline Warp TM\", "
        "at 0.71x of its running time (§7.1). WarpTM's energy in mJ, and its shares: the baseline "
        "GPU's constant power, its dynamic energy, the TM structures (dynamic and leakage), the "
        "interconnect. The last column: the RCTs', CATs' and Pause-and-Go checks' share of EA + "
        "PG's energy.\n\n"
     << "| workload | EA | PG | EA + PG | EA + PG's time | WarpTM: mJ: constant, dynamic, TM, "
        "interconnect | EA + PG: RCT, CAT, PG check |\n"
     << "|---|---:|---:|---:|---:|---|---:|\n";
  *chart = EnergyChart("Chen & Peng, HPCA 2016, Figure 9", {"EA", "PG", "EA + PG"});
  chart->lines.emplace_back(kPaperEnergy, "paper average, EA + PG");
  Mean mean[3], time, constant, ecr_share, ecr_leak, none, half, twice;
  for (const auto* w : workloads) {
    if (w->paper != gpu::Paper::kEcr || tab.Find(w->name, TmMode::kWarpTm) == nullptr) {
      continue;
    }
    std::optional<double> e[3];
    for (int i = 0; i < 3; ++i) {
      if (const std::optional<Ratio> r = tab.Over(w->name, ecr[i])) {
        e[i] = r->energy;
        mean[i].Add(r->energy);
      }
    }
    const EnergyRun& base = *tab.Find(w->name, TmMode::kWarpTm);
    constant.Add(base.energy.pj(EnergyPart::kBaselineStatic) / base.energy.total_pj());
    const std::optional<Ratio> both = tab.Over(w->name, TmMode::kWarpTmEaPg);
    std::string share = "–";
    if (both) {
      time.Add(both->time);
      none.Add(tab.Over(w->name, TmMode::kWarpTmEaPg, 0)->energy);
      half.Add(tab.Over(w->name, TmMode::kWarpTmEaPg, 0.5)->energy);
      twice.Add(tab.Over(w->name, TmMode::kWarpTmEaPg, 2)->energy);
      const double total = tab.Find(w->name, TmMode::kWarpTmEaPg)->energy.total_pj();
      const double s = tab.Structures(w->name, TmMode::kWarpTmEaPg, kEcrStructures) / total;
      ecr_share.Add(s);
      ecr_leak.Add(tab.Structures(w->name, TmMode::kWarpTmEaPg, kEcrStructures, true) / total);
      share = Fixed(100 * s, 1) + " %";
    }
    md << "| " << w->name << " | " << X(e[0]) << " | " << X(e[1]) << " | " << X(e[2]) << " | "
       << X(both ? std::optional<double>(both->time) : std::nullopt) << " | " << Parts(base)
       << " | " << share << " |\n";
    chart->groups.push_back(w->name);
    chart->values.push_back({{e[0].value_or(0)}, {e[1].value_or(0)}, {e[2].value_or(0)}});
  }
  md << "| **geometric mean** | " << X(mean[0].Gm()) << " | " << X(mean[1].Gm()) << " | "
     << X(mean[2].Gm()) << " | " << X(time.Gm()) << " | the paper: EA + PG "
     << Fixed(kPaperEnergy, 2) << "x at " << Fixed(kPaperTime, 2) << "x of the time | |\n"
     << "| arithmetic mean | " << X(mean[0].Am()) << " | " << X(mean[1].Am()) << " | "
     << X(mean[2].Am()) << " | " << X(time.Am()) << " | | |\n\n";
  AddMeans(mean, chart);
  md << "![Energy over WarpTM's](fig9_energy.svg)\n\n";
  const std::optional<double> gm = mean[2].Gm();
  if (!gm) {
    return;
  }
  const bool within = std::abs(*gm - kPaperEnergy) <= kWithin;
  // The paper's dynamic share: with the same dynamic energy D in both runs and a constant power
  // P, E'/E = (P T' + D) / (P T + D); 0.80 at T'/T = 0.71 needs D / (P T) = (0.80 - 0.71) / (1 -
  // 0.80), a share D / (P T + D) of WarpTM's energy.
  const double d = (kPaperEnergy - kPaperTime) / (1 - kPaperEnergy);
  md << "EA + PG's energy, geometric mean: **" << Fixed(*gm, 2) << "x** of WarpTM's, against the "
     << "paper's " << Fixed(kPaperEnergy, 2) << "x: " << (within ? "within" : "**not** within")
     << " " << Fixed(kWithin, 1) << " of it. Why the figures differ:\n\n"
     << "* Energy follows time here. The baseline GPU's constant power is "
     << Fixed(100 * *constant.Am(), 0) << " % of WarpTM's energy (mean over the workloads), so "
     << "a configuration's energy ratio stays close to its time ratio: EA + PG " << Fixed(*gm, 2)
     << "x of the energy at " << Fixed(*time.Gm(), 2) << "x of the time. With "
     << "the same energy of work D in both runs and a constant power P, E'/E = (P T' + D) / (P T "
     << "+ D) lies between T'/T and 1; the paper's " << Fixed(kPaperEnergy, 2) << "x at "
     << Fixed(kPaperTime, 2) << "x of the time means that about " << Fixed(100 * d / (1 + d), 0)
     << " % of WarpTM's energy in GPUWattch did not shrink with the time, against "
     << Fixed(100 * (1 - *constant.Am()), 0) << " % here.\n"
     << "* The time ratios " << (std::abs(*time.Gm() - kPaperTime) <= kTie ? "agree" : "differ")
     << ": EA + PG takes " << Fixed(*time.Gm(), 2) << "x of WarpTM's cycles here (geometric "
     << "mean), " << Fixed(kPaperTime, 2) << "x in the paper; the speed-up comparison above "
     << "(Figure 8) has them workload by workload.\n"
     << "* The early-conflict-resolution structures cost " << Fixed(100 * *ecr_share.Am(), 1)
     << " % of EA + PG's energy (mean over the workloads), " << Fixed(100 * *ecr_leak.Am(), 1)
     << " % as the RCTs' and CATs' leakage (CACTI at 40 nm; their RCT -> CAT messages are in the "
        "interconnect's part): too little to move the ratio.\n"
     << "* The constant power is the model's largest assumption (a quarter of the GTX 480's TDP, "
        "docs/energy.md). Halved, EA + PG's geometric mean would be "
     << Fixed(*half.Gm(), 2) << "x; doubled, " << Fixed(*twice.Gm(), 2)
     << "x; without it, the dynamic energy alone (the paper multiplies GPUWattch's average "
        "dynamic power by the time), "
     << Fixed(*none.Gm(), 2) << "x.\n\n";
}

void WriteSiEnergy(const std::vector<const gpu::WorkloadInfo*>& workloads, const Table& tab,
                   std::ostream& md, BarChart* chart) {
  const TmMode cfg[] = {TmMode::kKiloTm, TmMode::kSitm, TmMode::kSitmOracle};
  md << "### Snapshot isolation (Chen, Peng & Irving, ISCA 2017, Figure 14)\n\n"
     << "Energy over WarpTM's on the paper's Table 3 workloads, and the time over WarpTM's. The "
        "paper gives no number; its text (§7): the energy \"is largely affected by the "
        "execution time\"; SITM_TS adds power in the Writer Table, Timestamp Table, Scalable "
        "Reader List and Version Index Table, \"the overall energy consumption is still less "
        "than WarpTM due to decreased running time\", and can be \"significantly lower than "
        "KiloTM when the running time difference is large enough, such as in Linked List\". "
        "The SI tables' column: their share of SITM_TS's energy and their mean power (dynamic "
        "and leakage; the paper's Table 1 gives 2 330 mW for the Scalable Reader List and 31.5, "
        "37.8 and 3.2 mW for the others). The last column tests the paper's finding that "
        "SITM_TS costs less than WarpTM (ratios within 3 % count as equal).\n\n"
     << "| workload | KILO TM | SITM_TS | SITM_Oracle | time: KILO TM; SITM_TS; SITM_Oracle | "
        "SITM_TS: SI tables | SITM_TS below WarpTM |\n"
     << "|---|---:|---:|---:|---|---:|---|\n";
  *chart = EnergyChart("Chen, Peng & Irving, ISCA 2017, Figure 14",
                       {"KILO TM", "SITM_TS", "SITM_Oracle"});
  Mean mean[3], time[3];
  std::vector<std::string> above, lists;
  for (const auto* w : workloads) {
    if (w->paper != gpu::Paper::kSi || tab.Find(w->name, TmMode::kWarpTm) == nullptr) {
      continue;
    }
    std::optional<Ratio> r[3];
    std::string times;
    for (int i = 0; i < 3; ++i) {
      r[i] = tab.Over(w->name, cfg[i]);
      if (r[i]) {
        mean[i].Add(r[i]->energy);
        time[i].Add(r[i]->time);
      }
      times += (i ? "; " : "") + (r[i] ? Fixed(r[i]->time, 2) : std::string("–"));
    }
    std::string tables = "–", verdict = "–";
    if (r[1]) {
      const EnergyRun& ts = *tab.Find(w->name, TmMode::kSitm);
      const double pj = tab.Structures(w->name, TmMode::kSitm, kSiTables);
      tables = Fixed(100 * pj / ts.energy.total_pj(), 1) + " %, " +
               Fixed(pj * 1e-12 / tab.Seconds(ts), 2) + " W";
      verdict = r[1]->energy <= 1 + kTie ? "yes" : "**no**";
      if (r[1]->energy > 1 + kTie) {
        above.push_back(w->name + " (" + Fixed(r[1]->energy, 2) + "x of the energy at " +
                        Fixed(r[1]->time, 2) + "x of the time)");
      }
    }
    if (w->name.rfind("LinkedList", 0) == 0 && r[0] && r[1]) {
      lists.push_back(w->name + ": SITM_TS " + Fixed(r[1]->energy, 2) + "x, KILO TM " +
                      Fixed(r[0]->energy, 2) + "x");
    }
    md << "| " << w->name << " | " << X(r[0] ? std::optional<double>(r[0]->energy) : std::nullopt)
       << " | " << X(r[1] ? std::optional<double>(r[1]->energy) : std::nullopt) << " | "
       << X(r[2] ? std::optional<double>(r[2]->energy) : std::nullopt) << " | " << times << " | "
       << tables << " | " << verdict << " |\n";
    chart->groups.push_back(w->name);
    chart->values.push_back(
        {{r[0] ? r[0]->energy : 0}, {r[1] ? r[1]->energy : 0}, {r[2] ? r[2]->energy : 0}});
  }
  md << "| **geometric mean** | " << X(mean[0].Gm()) << " | " << X(mean[1].Gm()) << " | "
     << X(mean[2].Gm()) << " | " << X(time[0].Gm()) << "; " << X(time[1].Gm()) << "; "
     << X(time[2].Gm()) << " | | |\n\n";
  AddMeans(mean, chart);
  md << "![Energy over WarpTM's, Table 3](fig14_energy.svg)\n\n";
  if (mean[1].n == 0) {
    return;
  }
  md << "Energy follows time here too (the geometric means: KILO TM " << X(mean[0].Gm()) << " of "
     << "WarpTM's energy at " << X(time[0].Gm()) << " of its time, SITM_TS " << X(mean[1].Gm())
     << " at " << X(time[1].Gm()) << ", SITM_Oracle " << X(mean[2].Gm()) << " at "
     << X(time[2].Gm())
     << "): the baseline GPU's constant power dominates, and the SI tables "
        "add a little (above all the Scalable Reader List's leakage, CACTI at 40 nm).";
  if (!above.empty()) {
    std::string list;
    for (const std::string& a : above) {
      list += (list.empty() ? "" : ", ") + a;
    }
    md << " Where SITM_TS costs more than WarpTM it also takes longer, unlike in the paper, "
          "where it is faster everywhere (the speed-up comparison above, Figure 13, gives the "
          "reasons): "
       << list << ".";
  }
  if (!lists.empty()) {
    std::string list;
    for (const std::string& l : lists) {
      list += (list.empty() ? "" : "; ") + l;
    }
    md << " The linked lists, where the paper finds SITM_TS far below KILO TM: " << list << ".";
  }
  md << "\n\n";
}

}  // namespace

void WriteEnergy(const std::vector<const gpu::WorkloadInfo*>& workloads,
                 const gpu::MachineConfig& m, const EnergyRuns& runs, std::ostream& md,
                 BarChart* fig9, BarChart* fig14) {
  const gpu::EnergyCosts& c = gpu::DefaultEnergyCosts();
  md << "## Energy (Chen & Peng, HPCA 2016, Figure 9; Chen, Peng & Irving, ISCA 2017, Figure "
        "14)\n\n"
     << "Each run's energy (docs/energy.md): its events times an energy per event (the TM "
        "structures' from CACTI at 40 nm on the blocks' arrays at the papers' sizes; the baseline "
        "GPU's per warp instruction, memory access and interconnect flit), plus the TM "
        "structures' leakage and the baseline GPU's constant power, "
     << Fixed(c.chip_constant_mw * 1e-3, 1) << " W (an assumption), over its cycles at "
     << Fixed(c.core_clock_mhz, 0)
     << " MHz. The figures are the papers' machine's; on another machine (`small`) the same "
        "costs apply. Every run's energy and its parts are in results.csv and results.jsonl "
        "(`energy_*_uj`).\n\n";
  const Table tab(m, runs);
  WriteEcrEnergy(workloads, tab, md, fig9);
  WriteSiEnergy(workloads, tab, md, fig14);
}

}  // namespace htm::sim
