// SPDX-License-Identifier: Apache-2.0
//
// A SIMT core's early-conflict-resolution blocks wired together, for the system model and the
// tests that drive a whole core (docs/early_cr.md): the intra-warp conflict detection
// (htm_intra_warp_cd), and optionally the Conflict Address Table (htm_cat) and the Pause-and-Go
// check (htm_pag_check). The CAT has one lookup port; the Pause-and-Go check has priority over
// the intra-warp detection, and the CAT's answers, which come back in order, go to the client
// whose lookup it was. The RCTs' messages come from outside (golden::CatChannel).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "htm/golden/cat_model.h"
#include "htm/golden/instance.h"
#include "htm/golden/intra_warp_cd_model.h"
#include "htm/golden/pag_check_model.h"

namespace htm::gpu {

class EcrCore {
 public:
  enum Client : int { kNone = -1, kPag = 0, kIntraWarp = 1 };
  /// What happened in one cycle: each block's outputs under the cycle's final inputs.
  struct Step {
    golden::PagCheckOut pag;    // default when there is no Pause-and-Go check
    golden::IntraWarpCdOut iw;  // the intra-warp detection
    golden::CatIn cat_in;       // the CAT's inputs (default when there is no CAT)
    golden::CatOut cat;
    bool msg_taken = false;   // the CAT took the message offered
    Client lookup = kNone;    // the client whose lookup the CAT took
    Client answered = kNone;  // the client the CAT answered
  };
  using IwInstance = golden::Instance<golden::IntraWarpCdPorts>;
  using CatInstance = golden::Instance<golden::CatPorts>;
  using PagInstance = golden::Instance<golden::PagCheckPorts>;

  /// The golden models; `cat` and `pag` are optional (nullptr: absent); a Pause-and-Go check
  /// needs a CAT. Throws std::invalid_argument on parameters the blocks do not accept or that do
  /// not fit together.
  EcrCore(const golden::IntraWarpCdParams& iw, const golden::CatParams* cat,
          const golden::PagCheckParams* pag);
  /// Given instances (`cat` and `pag` may be null), with the parameters they were built with.
  EcrCore(const golden::IntraWarpCdParams& iwp, std::unique_ptr<IwInstance> iw,
          const golden::CatParams* catp, std::unique_ptr<CatInstance> cat,
          const golden::PagCheckParams* pagp, std::unique_ptr<PagInstance> pag);

  void Reset();
  /// One clock cycle. The clients' CAT inputs are set here (whatever `pi` and `wi` hold in them
  /// is ignored); `msg` is the RCT message offered to the CAT (nullptr: none).
  Step Cycle(golden::PagCheckIn pi, golden::IntraWarpCdIn wi, const std::vector<uint64_t>* msg);

  bool has_cat() const { return cat_ != nullptr; }
  bool has_pag() const { return pag_ != nullptr; }
  /// Entries the CAT holds (its `used` output with idle inputs).
  uint64_t CatUsed() const { return cat_ ? cat_->Eval(golden::CatIn{}).used : 0; }
  /// Lookups the CAT has taken and not answered.
  size_t lookups_in_flight() const { return owners_.size(); }

 private:
  static void CheckFit(const golden::IntraWarpCdParams& iw, const golden::CatParams* cat,
                       const golden::PagCheckParams* pag);

  std::unique_ptr<IwInstance> iw_;
  std::unique_ptr<CatInstance> cat_;
  std::unique_ptr<PagInstance> pag_;
  std::deque<Client> owners_;  // the client of each lookup in flight, oldest first
};

}  // namespace htm::gpu
