// SPDX-License-Identifier: Apache-2.0
//
// The statistics of a system-model run, generated from stats.def (one declaration for the struct,
// the printed table, the JSON and the CSV).
#pragma once

#include <cstdint>

namespace htm::gpu {

struct SystemStats {
#define HTM_STAT(name, label, what) uint64_t name = 0;
#include "htm/machine/gpu/stats.def"
#undef HTM_STAT

  /// f(key, label, value) for every statistic, in the order of stats.def.
  template <class F>
  void ForEach(F&& f) const {
#define HTM_STAT(name, label, what) f(#name, label, name);
#include "htm/machine/gpu/stats.def"
#undef HTM_STAT
  }
  /// f(key, value&) for every statistic.
  template <class F>
  void ForEachMut(F&& f) {
#define HTM_STAT(name, label, what) f(#name, name);
#include "htm/machine/gpu/stats.def"
#undef HTM_STAT
  }
};

/// f(key, label, description) for every statistic, in order.
template <class F>
void ForEachStatInfo(F&& f) {
#define HTM_STAT(name, label, what) f(#name, label, what);
#include "htm/machine/gpu/stats.def"
#undef HTM_STAT
}

}  // namespace htm::gpu
