// SPDX-License-Identifier: Apache-2.0
//
// Reactive stimulus for htm_writer_table: transactions writing, reading and leaving words.
//
// Addresses come from a pool about twice the table's size (so sets fill up and writes find
// them full) plus a few random ones; a table too large for that (the pool has 64 addresses)
// also gets two sets' worth of addresses that share a set (Ways + 2 each), so that its writes
// find a set full too; a handful of transaction ids, so that second writers are
// common. Removes mostly name an entry the bench saw inserted (by its writer), sometimes a
// random address or the wrong transaction. A few operations have an unknown kind. An operation
// is held until taken; sometimes there is none.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/writer_table_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class WriterTableBench {
 public:
  using Ports = golden::WriterTablePorts;
  using Model = golden::WriterTableModel;
  using In = golden::WriterTableIn;
  using Out = golden::WriterTableOut;

  WriterTableBench(const golden::WriterTableParams& p, uint64_t seed) : p_(p), rng_(seed) {
    const int entries = p.sets * p.ways;
    const int pool = entries * 2 < 64 ? entries * 2 : 64;
    for (int i = 0; i < pool; ++i) {
      pool_.push_back(rng_.Bits(p.addr_w));
    }
    if (entries * 2 > pool) {
      for (int k = 0; k < 2; ++k) {
        const uint64_t set = golden::WriterTableSet(p, rng_.Bits(p.addr_w));
        for (int n = 0; n < p.ways + 2;) {
          const uint64_t a = rng_.Bits(p.addr_w);
          if (golden::WriterTableSet(p, a) == set &&
              std::find(pool_.begin(), pool_.end(), a) == pool_.end()) {
            pool_.push_back(a);
            ++n;
          }
        }
      }
    }
    for (int i = 0; i < 5; ++i) {
      txs_.push_back(rng_.Bits(p.tx_w));
    }
    OnReset();
  }

  void OnReset() {
    cur_ = In{};
    live_.clear();
  }

  In Next() {
    if (!cur_.op_valid && !rng_.Chance(1, 6)) {
      cur_ = NewOp();
    }
    return cur_;
  }

  void Observe(const In& in, const Out& out) {
    if (in.op_valid && out.op_ready) {
      cur_ = In{};
    }
    if (out.res_valid && out.res_inserted) {
      live_.emplace_back(out.res_addr, out.res_tx);
    }
    if (out.res_valid && out.res_removed) {
      for (size_t i = 0; i < live_.size(); ++i) {
        if (live_[i].first == out.res_addr) {
          live_[i] = live_.back();
          live_.pop_back();
          break;
        }
      }
    }
  }

 private:
  In NewOp() {
    In r;
    r.op_valid = 1;
    const uint32_t k = static_cast<uint32_t>(rng_.Below(100));
    r.op_addr = rng_.Chance(15, 16) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w);
    r.op_tx = rng_.Pick(txs_);
    if (k < 45) {
      r.op_kind = static_cast<uint64_t>(WtOp::kWrite);
    } else if (k < 70) {
      r.op_kind = static_cast<uint64_t>(WtOp::kRead);
    } else {
      r.op_kind = static_cast<uint64_t>(WtOp::kRemove);
      if (!live_.empty() && !rng_.Chance(1, 5)) {
        const auto& [addr, tx] = live_[rng_.Below(live_.size())];
        r.op_addr = addr;
        r.op_tx = rng_.Chance(9, 10) ? tx : rng_.Pick(txs_);
      }
    }
    if (rng_.Chance(1, 100)) {
      r.op_kind = 3;  // not an operation
    }
    return r;
  }

  golden::WriterTableParams p_;
  Rng rng_;
  std::vector<uint64_t> pool_, txs_;
  std::vector<std::pair<uint64_t, uint64_t>> live_;
  In cur_;
};

}  // namespace htm::tb
