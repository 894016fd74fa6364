// SPDX-License-Identifier: Apache-2.0
//
// Reactive stimulus for htm_reader_list: transactions reading words, leaving them, and writers
// asking for their readers.
//
// A few addresses (so that each gathers many readers: sharers turn into bit vectors and back),
// in a large table also groups that share a set, plus a few random ones; transaction ids from a
// pool, most of them in one leaf. The mix of inserts and removes swings every couple of
// thousand operations, so that reader lists grow past three and shrink back. Removes mostly
// name a reader the bench saw inserted. A few operations have an unknown kind. An operation is
// held until taken; sometimes there is none. A mid-run reset waits until the table has taken
// kOpsBeforeReset operations since the last one: the paper-size table clears its 21 964 sets
// after a reset, longer than the harness's mean interval between resets, and without the wait
// its bench never left the sweep (docs/coverage.md).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/reader_list_model.h"
#include "htm/golden/sig_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class ReaderListBench {
 public:
  using Ports = golden::ReaderListPorts;
  using Model = golden::ReaderListModel;
  using In = golden::ReaderListIn;
  using Out = golden::ReaderListOut;

  ReaderListBench(const golden::ReaderListParams& p, uint64_t seed) : p_(p), rng_(seed) {
    // A small table gets few addresses, so that conversions find room as often as not.
    const int entries = p.sets * p.ways;
    const int pool = entries >= 64 ? 8 : std::max(2, entries / 3);
    for (int i = 0; i < pool; ++i) {
      pool_.push_back(rng_.Bits(p.addr_w));
    }
    // Ids: two thirds in one leaf (a single leaf shrinking back to sharers), the rest anywhere.
    for (int i = 0; i < 24; ++i) {
      txs_.push_back(i % 3 == 0 ? rng_.Bits(p.tx_w) : rng_.Below(static_cast<uint64_t>(p.leaf_w)));
    }
    // A large table never fills from a few addresses: add Ways + 1 addresses that share a
    // primary set s and Ways + 1 that share s + 1, where the first leaves of s's addresses go,
    // so that inserts find sets full and conversions find no room for their leaves.
    if (entries >= 64) {
      const uint64_t s0 = golden::SigFoldedSet(p.addr_w, p.sets, rng_.Bits(p.addr_w));
      for (const uint64_t set : {s0, (s0 + 1) % static_cast<uint64_t>(p.sets)}) {
        for (int n = 0; n < p.ways + 1;) {
          const uint64_t a = rng_.Bits(p.addr_w);
          if (golden::SigFoldedSet(p.addr_w, p.sets, a) == set &&
              std::find(pool_.begin(), pool_.end(), a) == pool_.end()) {
            pool_.push_back(a);
            ++n;
          }
        }
      }
    }
    OnReset();
  }

  static constexpr uint64_t kOpsBeforeReset = 500;

  void OnReset() {
    cur_ = In{};
    live_.clear();
    taken_ = 0;
  }
  bool MayReset() const { return taken_ >= kOpsBeforeReset; }

  In Next() {
    if (!cur_.op_valid && !rng_.Chance(1, 6)) {
      cur_ = NewOp();
    }
    return cur_;
  }

  void Observe(const In& in, const Out& out) {
    if (in.op_valid && out.op_ready) {
      cur_ = In{};
      ++ops_;
      ++taken_;
    }
    if (out.res_valid && out.res_inserted) {
      live_.emplace_back(out.res_addr, out.res_tx);
    }
    if (out.res_valid && out.res_kind == static_cast<uint64_t>(RlOp::kRemove) && out.res_found) {
      for (size_t i = 0; i < live_.size(); ++i) {
        if (live_[i].first == out.res_addr && live_[i].second == out.res_tx) {
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
    const bool growing = (ops_ / 2000) % 2 == 0;
    r.op_addr = rng_.Chance(15, 16) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w);
    r.op_tx = rng_.Chance(7, 8) ? rng_.Pick(txs_) : rng_.Bits(p_.tx_w);
    if (k < (growing ? 55u : 25u)) {
      r.op_kind = static_cast<uint64_t>(RlOp::kInsert);
    } else if (k < 85) {
      r.op_kind = static_cast<uint64_t>(RlOp::kRemove);
      if (!live_.empty() && !rng_.Chance(1, 8)) {
        const auto& [addr, tx] = live_[rng_.Below(live_.size())];
        r.op_addr = addr;
        r.op_tx = tx;
      }
    } else {
      r.op_kind = static_cast<uint64_t>(RlOp::kEnumerate);
    }
    if (rng_.Chance(1, 100)) {
      r.op_kind = 3;  // not an operation
    }
    return r;
  }

  golden::ReaderListParams p_;
  Rng rng_;
  std::vector<uint64_t> pool_, txs_;
  std::vector<std::pair<uint64_t, uint64_t>> live_;
  uint64_t ops_ = 0;
  uint64_t taken_ = 0;  // operations taken since the last reset
  In cur_;
};

}  // namespace htm::tb
