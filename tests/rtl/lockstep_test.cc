// SPDX-License-Identifier: Apache-2.0
//
// Random lockstep of every (block, configuration) in the registry: the RTL (suite Rtl, label
// lockstep) and its Yosys netlist (suite Netlist, label netlist), against the golden model.
// Seeds (docs/verification.md, "Seeds"): without HTM_SEED a test runs the fixed seed (1) for
// three quarters of its cycles, then a fresh random seed for the last quarter, and prints each
// seed with the command that replays it; HTM_SEED=<n> runs that seed alone for the whole length.
// HTM_CYCLES overrides the cycle count (HTM_CYCLES_SCALE multiplies the test's own count: make
// regress uses 40), HTM_WAVES=<file.fst> dumps waves (with <file.fst>.gtkw, a GTKWave view with
// the ports grouped). In the coverage tree (docs/verification.md, "Coverage") each run also
// writes its golden model's coverage events to $HTM_COVERAGE_DIR/functional/.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/tb/registry.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {
namespace {

std::vector<const Entry*> Entries(bool netlist) {
  std::vector<const Entry*> v;
  for (const Entry& e : Registry()) {
    if (e.netlist == netlist) {
      v.push_back(&e);
    }
  }
  return v;
}

std::string Name(const testing::TestParamInfo<const Entry*>& info) {
  return info.param->block + "_" + info.param->config;
}

class LockstepTest : public testing::TestWithParam<const Entry*> {};

std::string JsonString(const std::string& s) {
  std::string o = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
    }
    if (static_cast<unsigned char>(c) >= 0x20) {
      o += c;
    }
  }
  return o + "\"";
}

/// Where the coverage tree's tests put their data ($HTM_COVERAGE_DIR, else the tree's own
/// coverage/); empty in a tree without coverage.
std::string CoverageDir() {
  if (const char* d = std::getenv("HTM_COVERAGE_DIR"); d != nullptr && *d != '\0') {
    return d;
  }
#ifdef HTM_COVERAGE_DEFAULT_DIR
  return HTM_COVERAGE_DEFAULT_DIR;
#else
  return "";
#endif
}

/// The golden model's coverage events of one run (tools/coverage_report.py's functional column).
void WriteFunctionalCoverage(const RunOptions& o, bool fresh, const RunResult& r) {
  const std::string dir = CoverageDir();
  if (dir.empty() || o.netlist) {
    return;
  }
  std::filesystem::create_directories(dir + "/functional");
  std::ofstream f(dir + "/functional/" + o.block + "__" + o.config + "__" + std::to_string(o.seed) +
                  ".json");
  f << "{\"block\": " << JsonString(o.block) << ", \"config\": " << JsonString(o.config)
    << ", \"seed\": " << o.seed << ", \"fresh\": " << (fresh ? "true" : "false")
    << ", \"cycles\": " << r.cycles << ", \"passed\": " << (r.passed ? "true" : "false")
    << ", \"events\": [";
  for (size_t i = 0; i < r.coverage.size(); ++i) {
    const auto& e = r.coverage[i];
    f << (i ? ", " : "") << "{\"name\": " << JsonString(e.name)
      << ", \"description\": " << JsonString(e.description) << ", \"count\": " << e.count << "}";
  }
  f << "]}\n";
}

TEST_P(LockstepTest, Random) {
  const Entry& e = *GetParam();
  uint64_t cycles = e.default_cycles;
  if (const char* c = std::getenv("HTM_CYCLES_SCALE")) {
    cycles *= std::stoull(c);
  }
  if (const char* c = std::getenv("HTM_CYCLES")) {
    cycles = std::stoull(c);
  }
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  const std::string filter = std::string(info->test_suite_name()) + "." + info->name();
  // The fixed seed, then a fresh one (or HTM_SEED alone): tb::SeedRuns.
  for (const SeedRun& run : SeedRuns(cycles)) {
    RunOptions o;
    o.block = e.block;
    o.config = e.config;
    o.netlist = e.netlist;
    o.seed = run.seed;
    o.cycles = run.cycles;
    if (const char* w = std::getenv("HTM_WAVES")) {
      o.waves = w;
    }
    o.repro = "HTM_SEED=" + std::to_string(o.seed) + " HTM_CYCLES=" + std::to_string(o.cycles) +
              " " + testing::internal::GetArgvs()[0] + " --gtest_filter='" + filter + "'";
    std::printf("HTM_SEED=%llu (%s/%s%s, %llu cycles, %s)\n  replay: %s\n",
                static_cast<unsigned long long>(o.seed), e.block.c_str(), e.config.c_str(),
                e.netlist ? " netlist" : "", static_cast<unsigned long long>(o.cycles),
                run.fresh ? "fresh random seed"
                          : (std::getenv("HTM_SEED") ? "seed from HTM_SEED" : "fixed seed"),
                o.repro.c_str());
    std::fflush(stdout);
    const RunResult r = e.run(o);
    WriteFunctionalCoverage(o, run.fresh, r);
    ASSERT_TRUE(r.passed) << (run.fresh ? "fresh random seed " : "seed ") << o.seed
                          << " failed; replay: " << o.repro << "\n"
                          << r.error;
    // Every stimulus cycle was compared (mid-run resets add cycles of their own).
    EXPECT_GE(r.cycles, o.cycles);
  }
}

INSTANTIATE_TEST_SUITE_P(Rtl, LockstepTest, testing::ValuesIn(Entries(false)), Name);
INSTANTIATE_TEST_SUITE_P(Netlist, LockstepTest, testing::ValuesIn(Entries(true)), Name);

}  // namespace
}  // namespace htm::tb
