// SPDX-License-Identifier: Apache-2.0
//
// The two columns of docs/coverage.md: the golden models' coverage events summed per block under
// the random lockstep benches (`htmsim coverage`) and under the workloads (`htmsim run
// --coverage`, `htmsim suite --coverage`), written as JSON; tools/coverage_table.py puts them
// side by side.
//
// The JSON (one object):
//   {"source": "benches" | "workloads", "command": "...",
//    "blocks": [{"block": "htm_cat", "instances": N, "without": N,
//                "events": [{"name": "...", "description": "...", "count": N}, ...]}, ...],
//    "parts": [{"part": "default" | "HT1K/warptm-ea", "block": "htm_cat", "config": "default",
//               "instances": N, "counts": {"<event>": N, ...}}, ...]}
// `blocks` sums every part; a part is one bench configuration or one run's instances of a block
// (its counts list the events it reached), `config` the named configuration of the block it ran
// ("" when none has the machine's parameters). `without` counts instances that had no golden
// model (--rtl --unchecked): they counted nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/golden/coverage.h"
#include "htm/machine/gpu/system.h"

namespace htm::sim {

class CoverageSum {
 public:
  /// Adds one part: `instances` instances of `block` (of which `without` counted nothing),
  /// with their events `c`.
  void Add(const std::string& part, const std::string& block, const std::string& config,
           int instances, int without, const golden::Coverage& c);
  /// Adds every block of a system-model run on machine `m` under `tm` as the part `part`.
  void AddRun(const std::string& part, const gpu::MachineConfig& m, gpu::TmMode tm,
              const std::vector<gpu::BlockCoverage>& blocks);
  bool empty() const { return blocks_.empty(); }
  std::string Json(const std::string& source, const std::string& command) const;
  /// Every block's events and counts, a line each, those never reached marked; `unit` names
  /// what a part counts ("instance", "configuration").
  std::string Text(const std::string& unit) const;

 private:
  struct Block {
    std::string block;
    uint64_t instances = 0, without = 0;
    golden::Coverage events;
  };
  struct Part {
    std::string part, block, config;
    int instances = 0;
    golden::Coverage events;
  };
  std::vector<Block> blocks_;
  std::vector<Part> parts_;
};

/// The named configuration of `block` whose parameters are the machine's ("" none).
std::string ConfigName(const gpu::MachineConfig& m, gpu::TmMode tm, const std::string& block);

}  // namespace htm::sim
