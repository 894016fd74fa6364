// SPDX-License-Identifier: Apache-2.0
//
// Reactive stimulus for htm_version_index: regions added, accesses translated, versions taken
// through their life cycle (Figure 4), reference counts going up and down, and the timestamp
// running into its overflow.
//
// Region candidates are aligned to a run of versions (some are refused: overlaps, lengths above
// the stride, spans off the end of the address space). Accesses hit a region, one of its
// versions' spaces or nowhere, versioned or not, at timestamps a little behind the bench's
// clock. The bench keeps the versions it began copying and the references it acquired, so that
// CopyDone, Publish and Release mostly name real ones; Publish advances the clock, and once it
// no longer fits TsW bits the table overflows and the clock starts again. A few operations have
// an unknown kind. An operation is held until taken; sometimes there is none.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/version_index_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class VersionIndexBench {
 public:
  using Ports = golden::VersionIndexPorts;
  using Model = golden::VersionIndexModel;
  using In = golden::VersionIndexIn;
  using Out = golden::VersionIndexOut;

  VersionIndexBench(const golden::VersionIndexParams& p, uint64_t seed) : p_(p), rng_(seed) {
    int vbits = 0;
    while ((1 << vbits) < p.versions) {
      ++vbits;
    }
    block_log2_ = p.stride_log2 + vbits;  // an aligned run of Versions strides
    OnReset();
  }

  void OnReset() {
    cur_ = In{};
    regions_.clear();
    starts_.clear();
    copying_.clear();
    refs_.clear();
    now_ = 1;
  }

  In Next() {
    if (!cur_.op_valid && !rng_.Chance(1, 5)) {
      cur_ = NewOp();
    }
    return cur_;
  }

  void Observe(const In& in, const Out& out) {
    if (in.op_valid && out.op_ready) {
      if (in.op_kind == static_cast<uint64_t>(VtOp::kAddRegion)) {
        adding_ = in.op_addr;  // its result is the next one
      }
      cur_ = In{};
    }
    if (!out.res_valid || !out.res_ok) {
      if (out.res_valid && out.res_overflow) {
        now_ = 1;  // every transaction aborts, timestamps restart (4.3)
        copying_.clear();
        refs_.clear();
      }
      return;
    }
    switch (static_cast<VtOp>(out.res_kind)) {
      case VtOp::kAddRegion:
        regions_.push_back(out.res_region);
        starts_.push_back(adding_);
        break;
      case VtOp::kBeginCopy:
      case VtOp::kCopyDone:
        copying_.emplace_back(out.res_region, out.res_version);
        break;
      case VtOp::kAcquire:
        refs_.emplace_back(out.res_region, out.res_version);
        break;
      case VtOp::kRelease:
        for (size_t i = 0; i < refs_.size(); ++i) {
          if (refs_[i] == std::make_pair(out.res_region, out.res_version)) {
            refs_[i] = refs_.back();
            refs_.pop_back();
            break;
          }
        }
        break;
      default:
        break;
    }
  }

 private:
  uint64_t Ts() {
    const uint64_t back = rng_.Below(8);
    return now_ > back ? now_ - back : 0;
  }

  In NewOp() {
    In r;
    r.op_valid = 1;
    // Sometimes an index past the regions or versions (when they are not a power of two).
    r.op_region = rng_.Chance(1, 20) ? rng_.Bits(golden::IdxWidth(p_.regions))
                                     : rng_.Below(static_cast<uint64_t>(p_.regions));
    r.op_version = rng_.Chance(1, 20) ? rng_.Bits(golden::IdxWidth(p_.versions))
                                      : rng_.Below(static_cast<uint64_t>(p_.versions));
    r.op_ts = Ts();
    const uint32_t k = static_cast<uint32_t>(rng_.Below(100));
    if (k < 3 || regions_.empty()) {  // refused too once the table is full
      r.op_kind = static_cast<uint64_t>(VtOp::kAddRegion);
      const int free_bits = p_.addr_w - block_log2_;
      r.op_addr = rng_.Bits(free_bits > 0 ? free_bits : 0) << block_log2_;
      r.op_reloc = rng_.Bits(free_bits > 0 ? free_bits : 0) << block_log2_;
      r.op_code =
          rng_.Chance(7, 8) ? rng_.Below(static_cast<uint64_t>(p_.stride_log2) + 1) : rng_.Bits(5);
      if (rng_.Chance(1, 10)) {
        r.op_addr = rng_.Bits(p_.addr_w);
      }
    } else if (k < 50) {
      r.op_kind = static_cast<uint64_t>(VtOp::kTranslate);
      r.op_versioned = rng_.Chance(2, 3);
      r.op_addr = rng_.Bits(p_.addr_w);
      if (!regions_.empty() && !rng_.Chance(1, 8)) {
        // An address near a region's start: inside it, in a version's space or just past.
        const uint64_t base = rng_.Pick(starts_);
        const uint64_t ver = rng_.Below(static_cast<uint64_t>(p_.versions) + 1);
        r.op_addr = (base + (ver << p_.stride_log2) + rng_.Below(uint64_t{1} << 3)) &
                    golden::LowMask(p_.addr_w);
      }
    } else if (k < 60) {
      r.op_kind = static_cast<uint64_t>(VtOp::kBeginCopy);
      if (!regions_.empty()) {
        r.op_region = rng_.Pick(regions_);
      }
    } else if (k < 70) {
      r.op_kind = static_cast<uint64_t>(rng_.Chance(1, 2) ? VtOp::kCopyDone : VtOp::kPublish);
      if (!copying_.empty() && !rng_.Chance(1, 10)) {
        const size_t i = rng_.Below(copying_.size());
        r.op_region = copying_[i].first;
        r.op_version = copying_[i].second;
        if (r.op_kind == static_cast<uint64_t>(VtOp::kPublish)) {
          // The clock runs up to the first value past TsW bits (the overflow) and stops there
          // until an overflow restarts it.
          now_ = std::min(now_ + 1 + rng_.Below(3), golden::LowMask(p_.ts_w) + 1);
          r.op_ts = now_;
          copying_[i] = copying_.back();
          copying_.pop_back();
        }
      }
    } else if (k < 85) {
      r.op_kind = static_cast<uint64_t>(VtOp::kAcquire);
      if (!regions_.empty()) {
        r.op_region = rng_.Pick(regions_);
      }
    } else {
      r.op_kind = static_cast<uint64_t>(VtOp::kRelease);
      if (!refs_.empty() && !rng_.Chance(1, 10)) {
        const auto& [reg, ver] = refs_[rng_.Below(refs_.size())];
        r.op_region = reg;
        r.op_version = ver;
      }
    }
    if (rng_.Chance(1, 100)) {
      r.op_kind = 7;  // not an operation
    }
    return r;
  }

  golden::VersionIndexParams p_;
  Rng rng_;
  int block_log2_ = 0;
  std::vector<uint64_t> regions_, starts_;
  uint64_t adding_ = 0;
  std::vector<std::pair<uint64_t, uint64_t>> copying_, refs_;
  uint64_t now_ = 1;
  In cur_;
};

}  // namespace htm::tb
