// SPDX-License-Identifier: Apache-2.0
//
// The GPU-LocalTM suite (Villegas, PhD thesis, 2018, chapter 5, Table 5.7): every benchmark in
// both contention levels, the serialized version, the atomics or fine-grained-lock version, and
// the TM version under every conflict-detection mode and work-item selection policy, on the golden
// compute-unit model (htm/lds/cu_model.h), every run's final state checked. Run by `htm_lds suite`
// and by `htmsim suite` (its report's GPU-LocalTM section).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/golden/lds_tm_model.h"
#include "htm/machine/lds/cu_model.h"

namespace htm::sim {

struct Named {
  const char* name;
  const char* label;  // as in the thesis's figures
  int value;
};
inline constexpr Named kModes[] = {
    {"dcd", "DCD", 0}, {"smdcd", "SMDCD", 1}, {"prw", "pRWsig", 2}, {"swo", "sWOsig", 3}};
inline constexpr Named kSels[] = {{"sasc", "single-asc", 0},
                                  {"sdesc", "single-desc", 1},
                                  {"masc", "multiple-asc", 2},
                                  {"mdesc", "multiple-desc", 3}};
/// The entry of [b, e) called `n`, or nullptr.
const Named* Find(const Named* b, const Named* e, const std::string& n);
/// The compute unit's TM parameters for a conflict-detection mode and a selection policy.
htm::golden::LdsTmParams Params(int mode, int sel);

/// One run: a workload (htm::lds::WorkloadInfo::name) under a mode and selection, and its result.
struct LdsJob {
  std::string workload;
  int mode = 3, sel = 0;
  uint64_t seed = 1;
  htm::lds::CuResult r;
  double seconds = 0;
};
void RunJob(LdsJob& j);
double Ratio(uint64_t a, uint64_t b);

struct LdsSuite {
  std::string markdown;  // lds_results.md
  std::string csv;       // lds_results.csv
  std::string table;     // the speed-up table as plain text
  size_t runs = 0;
  int failed = 0;
  double sim_cycles = 0, cpu_seconds = 0, wall_seconds = 0;
  std::vector<std::string> errors;  // one per failed configuration
};
/// The benchmarks' names for messages: "HT, IT, VA, ...".
std::string LdsBenchNames();
/// Runs the suite: seeds 1..`seeds`, `jobs` at once, only `benches` when not empty (HT, IT, ...);
/// `command` is the command line the report names.
LdsSuite RunLdsSuite(int seeds, int jobs, const std::vector<std::string>& benches, bool progress,
                     const std::string& command);

}  // namespace htm::sim
