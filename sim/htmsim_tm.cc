// SPDX-License-Identifier: Apache-2.0
//
// htmsim's workload commands: run a benchmark workload on the GPU-TM system model (run), list the
// workloads, TM configurations and machines (list), check an exported commit log (check). See
// docs/htmsim.md.
#include "htmsim_tm.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

#include <boost/program_options.hpp>

#include "cli_util.h"
#include "commands.h"
#include "coverage.h"
#include "htm/machine/gpu/commit_log.h"
#include "htm/machine/gpu/stats.h"
#include "htm/machine/gpu/system.h"
#include "htm/workloads/gpu/proto.h"
#include "parallel.h"
#include "rtl_options.h"

namespace po = boost::program_options;

namespace htm::sim {

namespace {

using gpu::RunResult;
using gpu::Scale;
using gpu::TmMode;

const char* TmSummary(gpu::TmMode t) {
  switch (t) {
    case gpu::TmMode::kSerial:
      return "one transaction at a time in the whole GPU";
    case gpu::TmMode::kKiloTm:
      return "KILO TM: value-based validation in the commit units";
    case gpu::TmMode::kWarpTm:
      return "WarpTM: KILO TM with intra-warp and temporal conflict detection";
    case gpu::TmMode::kWarpTmEa:
      return "WarpTM with Early-Abort (RCTs and CATs)";
    case gpu::TmMode::kWarpTmPg:
      return "WarpTM with Pause-and-Go (RCTs, CATs and the Pause-and-Go check)";
    case gpu::TmMode::kWarpTmEaPg:
      return "WarpTM with Early-Abort and Pause-and-Go";
    case gpu::TmMode::kSitm:
      return "SITM_TS: snapshot isolation, write-write commit, post-dating with the Writer Table "
             "and the Reader List";
    case gpu::TmMode::kSitmOracle:
      return "SITM_Oracle: snapshot isolation, write-write commit, exact dependency-loop aborts";
    case gpu::TmMode::kFgl:
      return "not TM: the workload's fine-grained-lock kernel (CAS spin locks), where it has one: "
             "KILO TM's baseline";
  }
  return "?";
}

int List() {
  std::cout << "Workloads (--workload):\n";
  for (const auto& w : gpu::AllWorkloads()) {
    std::cout << "  " << std::left << std::setw(8) << w.name << " " << w.summary << "  ["
              << gpu::Source(w) << "]\n";
  }
  std::cout << "The FPGA prototype's workloads (--workload; docs/proto.md, no paper size):\n";
  for (const auto& w : gpu::proto::ProtoWorkloads()) {
    std::cout << "  " << std::left << std::setw(8) << w.name << " " << w.summary << "\n";
  }
  std::cout << "TM configurations (--tm):\n";
  for (const gpu::TmMode t : gpu::AllTmModes()) {
    std::cout << "  " << std::left << std::setw(12) << gpu::ToString(t) << " " << TmSummary(t)
              << "\n";
  }
  std::cout << "Baseline (--tm):\n  " << std::left << std::setw(12)
            << gpu::ToString(gpu::TmMode::kFgl) << " " << TmSummary(gpu::TmMode::kFgl) << " ("
            << LockWorkloadNames() << ")\n";
  std::cout << "Machines (--config):\n";
  for (const auto& m : gpu::AllMachines()) {
    std::cout << "  " << std::left << std::setw(8) << m.name << " " << m.summary << "\n";
  }
  std::cout << "Scales (--scale): small (tests), default (the paper's contention, fewer threads), "
               "paper (the papers' tables; also --paper)\n";
  std::cout << "Papers (authors, titles, venues): docs/references.md\n";
  return 0;
}

void PrintStats(const gpu::SystemStats& s, const gpu::Energy& e, double seconds) {
  s.ForEach([](const char* key, const char* label, uint64_t v) {
    (void)key;
    std::cout << "  " << std::left << std::setw(28) << label << std::right << std::setw(14) << v
              << "\n";
  });
  const double total = e.total_pj() * 1e-6;
  e.ForEach([total](const char* key, const char* label, double uj) {
    (void)key;
    std::cout << "  " << std::left << std::setw(28) << label << std::right << std::fixed
              << std::setprecision(3) << std::setw(14) << uj;
    if (uj != total && total > 0) {
      std::cout << std::setprecision(1) << " (" << 100 * uj / total << " %)";
    }
    std::cout << "\n";
  });
  std::cout << std::fixed << std::setprecision(3)
            << "  model speed: " << (seconds > 0 ? static_cast<double>(s.cycles) / seconds : 0)
            << " cycles/s, " << (seconds > 0 ? static_cast<double>(s.commits) / seconds : 0)
            << " transactions/s (" << seconds << " s)\n";
}

}  // namespace

std::string WorkloadNames() {
  std::string s;
  for (const auto* list : {&gpu::AllWorkloads(), &gpu::proto::ProtoWorkloads()}) {
    for (const auto& w : *list) {
      s += (s.empty() ? "" : ", ") + w.name;
    }
  }
  return s;
}

bool HasLockKernel(const gpu::WorkloadInfo& w) {
  return w.make(Scale::kSmall, 1)->HasLocks();
}

std::string LockWorkloadNames() {
  std::string s;
  for (const auto& w : gpu::AllWorkloads()) {
    if (HasLockKernel(w)) {
      s += (s.empty() ? "" : ", ") + w.name;
    }
  }
  return s;
}

std::string TmNames() {
  std::string s;
  for (const TmMode t : gpu::AllTmModes()) {
    s += (s.empty() ? "" : ", ") + std::string(gpu::ToString(t));
  }
  return s + ", or the baseline " + gpu::ToString(TmMode::kFgl);
}

std::vector<std::pair<const char*, uint64_t>> StatFields(const gpu::SystemStats& s) {
  std::vector<std::pair<const char*, uint64_t>> fields;
  s.ForEach([&](const char* key, const char* label, uint64_t v) {
    (void)label;
    fields.emplace_back(key, v);
  });
  return fields;
}

std::vector<std::pair<const char*, std::string>> EnergyFields(const gpu::Energy& e) {
  std::vector<std::pair<const char*, std::string>> fields;
  e.ForEach([&](const char* key, const char* label, double uj) {
    (void)label;
    std::ostringstream v;
    v << std::fixed << std::setprecision(3) << uj;
    fields.emplace_back(key, v.str());
  });
  return fields;
}

void WriteStatsJson(std::ostream& os, const RunLabel& l, bool ok, const gpu::SystemStats& s,
                    const gpu::Energy& e, double seconds) {
  os << "{\"workload\":\"" << l.workload << "\",\"tm\":\"" << l.tm << "\",\"config\":\"" << l.config
     << "\",\"scale\":\"" << l.scale << "\",\"seed\":" << l.seed
     << ",\"ok\":" << (ok ? "true" : "false");
  for (const auto& [key, value] : StatFields(s)) {
    os << ",\"" << key << "\":" << value;
  }
  for (const auto& [key, value] : EnergyFields(e)) {
    os << ",\"" << key << "\":" << value;
  }
  os << ",\"seconds\":" << seconds << "}\n";
}

namespace {

int Run(int argc, char** argv) {
  std::string workload, tm_name = "kilotm", config = "default", scale_name = "default";
  std::string log_path, stats_path, coverage_path;
  uint64_t seed = 1, max_cycles = 0;
  bool paper = false;
  RtlArgs rtl;
  po::options_description desc("Options of htmsim run");
  desc.add_options()("help,h", "print this help and exit")("workload,w", po::value(&workload),
                                                           "the workload (htmsim list)")(
      "tm,t", po::value(&tm_name)->default_value("kilotm"), "the TM configuration")(
      "config,c", po::value(&config)->default_value("default"), "the machine: default or small")(
      "scale", po::value(&scale_name)->default_value("default"),
      "problem size: small, default or paper")("paper", po::bool_switch(&paper),
                                               "the papers' sizes (same as --scale paper)")(
      "seed,s", Num(&seed), "seed of the workload's random choices")(
      "commit-log", po::value(&log_path), "write the commit log (JSON lines) to this file")(
      "stats-json", po::value(&stats_path), "write the statistics (one JSON object) to this file")(
      "coverage", po::value(&coverage_path),
      "write the blocks' coverage events (JSON, docs/coverage.md) to this file")(
      "max-cycles", Num(&max_cycles), "stop with an error after this many cycles (0: 200 000 000)");
  rtl.Add(desc);
  po::variables_map vm;
  if (!ParseOptions("htmsim run", argc, argv, desc, vm)) {
    return 2;
  }
  if (vm.count("help")) {
    std::cout << "Usage: htmsim run --workload W [--tm T] [--config C] [--scale S] [--seed N]\n"
                 "                  [--commit-log FILE] [--stats-json FILE] [--coverage FILE]\n"
                 "                  [--rtl all|BLOCK,... [--netlist] [--unchecked]\n"
                 "                   [--waves FILE [--waves-instance NAME]]]\n\n"
                 "Runs a benchmark workload on the GPU-TM system model, replays its committed\n"
                 "transactions in serialization order and checks its final state. With --rtl,\n"
                 "the named blocks' instances are Verilated models, each compared with its\n"
                 "golden model every cycle; the first difference stops the run with a report.\n\n"
              << desc
              << "\nExit status: 0 passed, 1 a check failed or an RTL instance departed from its\n"
                 "golden model, 2 bad usage.\n";
    return 0;
  }
  const gpu::WorkloadInfo* info = gpu::FindWorkload(workload);
  if (workload.empty() || info == nullptr) {
    std::cerr << "htmsim run: "
              << (workload.empty() ? "no --workload" : "unknown workload '" + workload + "'")
              << " (one of " << WorkloadNames() << ")\n";
    return 2;
  }
  TmMode tm;
  if (!gpu::ParseTmMode(tm_name, &tm)) {
    std::cerr << "htmsim run: unknown TM configuration '" << tm_name << "' (one of " << TmNames()
              << ")\n";
    return 2;
  }
  const gpu::MachineConfig* machine = gpu::FindMachine(config);
  if (machine == nullptr) {
    std::cerr << "htmsim run: unknown machine '" << config << "' (default or small)\n";
    return 2;
  }
  Scale scale;
  if (!gpu::ParseScale(scale_name, &scale)) {
    std::cerr << "htmsim run: unknown scale '" << scale_name << "' (small, default or paper)\n";
    return 2;
  }
  if (paper) {
    scale = Scale::kPaper;
  }
  if (tm == TmMode::kFgl && !HasLockKernel(*info)) {
    std::cerr << "htmsim run: " << info->name
              << " has no fine-grained-lock version (fgl: " << LockWorkloadNames() << ")\n";
    return 2;
  }
  gpu::RunOptions opt;
  if (std::string err = rtl.Validate(); !err.empty()) {
    std::cerr << "htmsim run: " << err << "\n";
    return 2;
  }
  const std::string repro = "htmsim run --workload " + info->name + " --tm " + tm_name +
                            " --config " + machine->name + " --scale " + gpu::ToString(scale) +
                            " --seed " + std::to_string(seed) + rtl.CommandLine();
  if (std::string err = rtl.Resolve(*machine, tm, repro, /*strict=*/true, &opt.rtl); !err.empty()) {
    std::cerr << "htmsim run: " << err;
    if (err.back() != '\n') {
      std::cerr << "\n";
    }
    return 2;
  }
  auto w = info->make(scale, seed);
  std::unique_ptr<AtomicFile> log_file, stats_file, coverage_file;
  if (!log_path.empty()) {
    log_file = std::make_unique<AtomicFile>(log_path);
    if (!log_file->good()) {
      std::cerr << "htmsim run: cannot write " << log_path << "\n";
      return 2;
    }
  }
  if (!stats_path.empty()) {
    stats_file = std::make_unique<AtomicFile>(stats_path);
    if (!stats_file->good()) {
      std::cerr << "htmsim run: cannot write " << stats_path << "\n";
      return 2;
    }
  }
  if (!coverage_path.empty()) {
    coverage_file = std::make_unique<AtomicFile>(coverage_path);
    if (!coverage_file->good()) {
      std::cerr << "htmsim run: cannot write " << coverage_path << "\n";
      return 2;
    }
  }
  std::cout << "htmsim run: " << info->name << " (" << w->Describe() << ")\n  tm " << tm_name
            << ", machine " << machine->name << ", scale " << gpu::ToString(scale) << ", seed "
            << seed << "\n";
  if (!opt.rtl.blocks.empty()) {
    std::string list;
    for (const std::string& b : opt.rtl.blocks) {
      list += (list.empty() ? "" : ", ") + b;
    }
    std::cout << "  in the loop (" << golden::ToString(opt.rtl.impl) << "): " << list << "\n";
  }
  std::unique_ptr<gpu::JsonLogWriter> writer;
  opt.seed = seed;
  opt.max_cycles = max_cycles;
  if (log_file) {
    writer = std::make_unique<gpu::JsonLogWriter>(
        log_file->os(),
        gpu::JsonLogWriter::Header{info->name, tm_name, machine->name, gpu::ToString(scale), seed});
    opt.log = writer.get();
  }
  Progress progress;
  if (progress.enabled()) {
    opt.progress = [&progress](uint64_t cycle, uint64_t done, uint64_t threads) {
      progress.Show("  cycle " + std::to_string(cycle) + ", threads finished " +
                    std::to_string(done) + " / " + std::to_string(threads));
    };
  }
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult r = gpu::RunSystem(*machine, tm, *w, opt);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  progress.Clear();
  PrintStats(r.stats, r.energy, seconds);
  if (log_file && !log_file->Commit()) {
    std::cerr << "htmsim run: writing " << log_path << " failed\n";
    return 1;
  }
  if (stats_file) {
    WriteStatsJson(stats_file->os(),
                   RunLabel{info->name, tm_name, machine->name, gpu::ToString(scale), seed}, r.ok,
                   r.stats, r.energy, seconds);
    if (!stats_file->Commit()) {
      std::cerr << "htmsim run: writing " << stats_path << " failed\n";
      return 1;
    }
  }
  if (coverage_file) {
    CoverageSum sum;
    sum.AddRun(info->name + "/" + tm_name, *machine, tm, r.coverage);
    coverage_file->os() << sum.Json("workloads", repro);
    if (!coverage_file->Commit()) {
      std::cerr << "htmsim run: writing " << coverage_path << " failed\n";
      return 1;
    }
  }
  if (r.mismatch) {
    std::cout << "\n" << r.error << "(statistics and commit log up to here; both incomplete)\n";
    return 1;
  }
  if (!r.error.empty()) {
    std::cout << "FAILED: " << r.error << "\n";
    return 1;
  }
  if (!r.check.empty()) {
    std::cout << "FAILED: final-state check of " << info->name << ": " << r.check << "\n";
    return 1;
  }
  std::cout << "serialization replay: OK; final state checked: OK\n";
  return 0;
}

int Check(int argc, char** argv) {
  if (argc != 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::cerr << "Usage: htmsim check FILE\n\nChecks a commit log written by htmsim run "
                 "--commit-log: reads consistent, dependency graph acyclic, replay gives the "
                 "final memory.\nExit status: 0 passed, 1 a check failed, 2 bad usage or a file\n"
                 "that is not a complete commit log (unreadable, malformed, cut short, or a run\n"
                 "that stopped before its end).\n";
    return argc == 2 ? 0 : 2;
  }
  std::ifstream is(argv[1]);
  if (!is) {
    std::cerr << "htmsim check: cannot read " << argv[1] << "\n";
    return 2;
  }
  const gpu::LogCheckResult r = gpu::CheckCommitLog(is);
  if (r.malformed) {
    std::cerr << "htmsim check: " << argv[1] << " is not a complete commit log: " << r.error
              << "\n";
    return 2;
  }
  std::cout << "htmsim check: " << argv[1] << ": " << r.transactions << " transactions, "
            << r.writes << " non-transactional writes, " << r.reads << " reads, " << r.edges
            << " dependency edges\n";
  if (!r.ok) {
    std::cout << "FAILED: " << r.error << "\n";
    return 1;
  }
  std::cout << "consistent reads, acyclic dependency graph, replay reproduces the final memory: "
               "OK\n";
  return 0;
}

}  // namespace

int RunCommand(int argc, char** argv) {
  return Run(argc, argv);
}

int ListCommand(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::cout << "Usage: htmsim list\n\nLists the workloads, TM configurations, machines and "
                 "scales of htmsim run and suite.\n";
    return 0;
  }
  if (argc > 1) {
    std::cerr << "htmsim list: takes no options or arguments (got '" << argv[1] << "')\n";
    return 2;
  }
  return List();
}

int CheckCommand(int argc, char** argv) {
  return Check(argc, argv);
}

}  // namespace htm::sim
