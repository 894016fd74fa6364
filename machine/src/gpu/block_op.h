// SPDX-License-Identifier: Apache-2.0
//
// One operation through a block instance's ports, run to its result within the machine's cycle:
// the way the snapshot-isolation tables (Writer Table, Reader List, post-dating unit, Version
// Index Table) are driven (docs/htmsim.md, "SITM_TS").
#pragma once

#include <optional>

#include "htm/golden/instance.h"

namespace htm::gpu {

/// Offers `in` (op_valid set) until the block takes it, then clocks until res_valid. `each` sees
/// every cycle's outputs (a block that streams values beside its result). With `tick_result` the
/// result's cycle is clocked too; without it the next operation is offered in that cycle.
/// nullopt when no result comes within 2^20 cycles.
template <class Ports, class Each>
std::optional<typename Ports::Out> RunToResult(golden::Instance<Ports>& inst, typename Ports::In in,
                                               bool tick_result, Each each) {
  for (int cycle = 0; cycle < 1 << 20; ++cycle) {
    const typename Ports::Out out = inst.Eval(in);
    each(out);
    if (out.res_valid != 0 && in.op_valid == 0) {
      if (tick_result) {
        inst.Tick(in);
      }
      return out;
    }
    const bool taken = in.op_valid != 0 && out.op_ready != 0;
    inst.Tick(in);
    if (taken) {
      in.op_valid = 0;
    }
  }
  return std::nullopt;
}

template <class Ports>
std::optional<typename Ports::Out> RunToResult(golden::Instance<Ports>& inst,
                                               const typename Ports::In& in, bool tick_result) {
  return RunToResult(inst, in, tick_result, [](const typename Ports::Out&) {});
}

}  // namespace htm::gpu
