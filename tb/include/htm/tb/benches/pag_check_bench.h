// SPDX-License-Identifier: Apache-2.0
//
// Reactive stimulus for htm_pag_check: a warp issuing transactional loads and stores, and the
// core's CAT.
//
// Requests come with random lanes (sometimes all, sometimes none or one), addresses from a
// small pool, Pause-and-Go mostly on, and sometimes back to back. The CAT takes a request when
// it feels like it and answers after 0 to 9 cycles with random hits among the requested lanes
// (often all of them, so that the lowest lane is forced on); now and then it answers with no
// request outstanding (a protocol error the block must flag and ignore).
#pragma once

#include <cstdint>
#include <vector>

#include "htm/golden/pag_check_model.h"
#include "htm/tb/benches/cat_responder.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class PagCheckBench {
 public:
  using Ports = golden::PagCheckPorts;
  using Model = golden::PagCheckModel;
  using In = golden::PagCheckIn;
  using Out = golden::PagCheckOut;

  PagCheckBench(const golden::PagCheckParams& p, uint64_t seed)
      : p_(p), rng_(seed), all_(golden::LowMask(p.warp_size)), cat_({p.warp_size, 10, 3, 200}) {
    for (int i = 0; i < 8; ++i) {
      pool_.push_back(rng_.Bits(p_.addr_w));
    }
    OnReset();
  }

  void OnReset() {
    cur_ = In{};
    cat_.Reset();
  }

  In Next() {
    In in = cur_;
    if (!in.req_valid && !rng_.Chance(1, 4)) {
      in = NewRequest();
    }
    cur_ = in;
    cat_.Drive(rng_, in);
    return in;
  }

  void Observe(const In& in, const Out& out) {
    if (in.req_valid && out.req_ready) {
      cur_ = In{};
    }
    cat_.Observe(rng_, in, out);
  }

 private:
  In NewRequest() {
    In r;
    r.req_valid = 1;
    const uint32_t k = static_cast<uint32_t>(rng_.Below(10));
    r.req_mask = k == 0   ? all_
                 : k == 1 ? 0
                 : k == 2 ? uint64_t{1} << rng_.Below(p_.warp_size)
                          : rng_.Bits(p_.warp_size);
    r.req_write = rng_.Chance(1, 2);
    r.pg_en = !rng_.Chance(1, 8);
    for (int l = 0; l < p_.warp_size; ++l) {
      r.req_addr[l] = rng_.Chance(7, 8) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w);
    }
    return r;
  }

  golden::PagCheckParams p_;
  Rng rng_;
  uint64_t all_;
  std::vector<uint64_t> pool_;
  In cur_;
  CatResponder cat_;
};

}  // namespace htm::tb
