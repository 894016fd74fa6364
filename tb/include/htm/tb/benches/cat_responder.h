// SPDX-License-Identifier: Apache-2.0
//
// The core's CAT as the stimulus of a block that looks lanes up in it (htm_intra_warp_cd,
// htm_pag_check): it takes a request when it feels like it, answers after a random delay with
// random hits among the requested lanes (sometimes all of them), and, if asked, now and then
// answers with no request outstanding.
#pragma once

#include <cstdint>

#include "htm/tb/stimulus.h"

namespace htm::tb {

class CatResponder {
 public:
  struct Options {
    int warp_size = 32;
    uint32_t max_delay = 9;   // an answer 1..max_delay cycles after the request is taken
    uint32_t all_hit_in = 0;  // 1 in all_hit_in answers hits every requested lane (0: never)
    uint32_t stray_in = 0;    // 1 in stray_in idle cycles answers with nothing asked (0: never)
  };
  explicit CatResponder(const Options& o) : o_(o) {}

  void Reset() {
    wait_ = -1;
    mask_ = 0;
  }

  // Sets the block's CAT inputs for this cycle.
  template <class In>
  void Drive(Rng& rng, In& in) const {
    in.cat_req_ready = wait_ < 0 && rng.Chance(2, 3);
    const bool stray = wait_ < 0 && o_.stray_in != 0 && rng.Chance(1, o_.stray_in);
    in.cat_rsp_valid = wait_ == 0 || stray;
    in.cat_rsp_hit = 0;
    if (wait_ == 0) {
      const bool all = o_.all_hit_in != 0 && rng.Chance(1, o_.all_hit_in);
      in.cat_rsp_hit = all ? mask_ : rng.Bits(o_.warp_size) & mask_;
    } else if (stray) {
      in.cat_rsp_hit = rng.Bits(o_.warp_size);
    }
  }

  // Follows the block's request after the cycle.
  template <class In, class Out>
  void Observe(Rng& rng, const In& in, const Out& out) {
    if (wait_ == 0) {
      wait_ = -1;
    } else if (wait_ > 0) {
      --wait_;
    }
    if (out.cat_req_valid && in.cat_req_ready) {
      wait_ = static_cast<int>(rng.Below(o_.max_delay));
      mask_ = out.cat_req_mask;
    }
  }

 private:
  Options o_;
  int wait_ = -1;
  uint64_t mask_ = 0;
};

}  // namespace htm::tb
