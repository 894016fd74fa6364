// SPDX-License-Identifier: Apache-2.0
//
// The GPU-LocalTM benchmarks (Villegas, PhD thesis, 2018, Table 5.7): HT, IT, VA, GC, GA, KM, DB,
// QU, each in a low- (LC) and a high-contention (HC) variant, and each in the versions of Table
// 5.7: the critical sections as transactions (TM), serialized, and with atomics (HT, IT, DB, QU) or
// fine-grained locks (GC, GA, VA, KM).
//
// A workload is one work-group running one kernel on the LDS: Init() gives the LDS contents
// before the kernel starts (written by the executor, not timed), Kernel() is the code of one
// work-item (htm/lds/kernel.h), Check() inspects the LDS after every work-item has finished and
// says what is wrong (a lost or duplicated update, a broken structure), or nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "htm/workloads/lds/kernel.h"

namespace htm::lds {

/// How the critical sections run.
enum class Version : uint8_t {
  kTm,      // as transactions
  kSerial,  // serialized (one work-item at a time, without transactions)
  kAtomic,  // with LDS atomics (HT, IT, DB, QU)
  kFgl,     // with fine-grained locks (GC, GA, VA, KM)
};
const char* ToString(Version v);

enum class Contention : uint8_t { kLow, kHigh };

/// The shape of the work-group a workload runs on.
struct Geometry {
  int wg_size = 256;     // work-items
  int wf_size = 64;      // per wavefront
  int lds_words = 4096;  // user words of the LDS (NumBanks x BankWords of htm_lds_tm)
};

class Workload {
 public:
  virtual ~Workload() = default;
  /// The initial LDS contents; size = the words the workload uses (<= Geometry::lds_words).
  virtual std::vector<uint32_t> Init() = 0;
  /// The code of one work-item.
  virtual Task Kernel(Lane& l) = 0;
  /// Empty when the final LDS contents are right; else a message saying what is wrong.
  virtual std::string Check(const std::vector<uint32_t>& lds) const = 0;
};

/// One runnable benchmark variant.
struct WorkloadInfo {
  std::string bench;      // "HT", "IT", "VA", "GC", "GA", "KM", "DB", "QU"
  Contention contention;  // LC or HC
  Version version;
  std::string name;         // e.g. "HT-HC/tm"
  std::string description;  // one line: sizes and what the critical section does
  /// A fresh instance for the geometry; `seed` fixes every random choice of the workload.
  std::function<std::unique_ptr<Workload>(const Geometry&, uint64_t seed)> make;
};

/// Every benchmark x contention x version of thesis Table 5.7, in the thesis's order.
const std::vector<WorkloadInfo>& AllWorkloads();

}  // namespace htm::lds
