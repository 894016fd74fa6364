// SPDX-License-Identifier: Apache-2.0
//
// The global-memory benchmark workloads of the system model (docs/htmsim.md): KILO TM's and the
// early-conflict-resolution paper's (Chen & Peng, HPCA 2016, Table 2), and later the
// snapshot-isolation paper's (Chen, Peng & Irving, ISCA 2017, Table 3; docs/references.md). A
// workload is a grid of threads running one kernel (htm/gpu/kernel.h) on word-addressed global
// memory: Init() gives the memory before the kernel starts, Kernel() is the code of one thread,
// Check() inspects the memory after every thread has finished and says what is wrong (a lost,
// duplicated or torn update, a broken structure), or nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "htm/workloads/kernel.h"

namespace htm::gpu {

/// Problem sizes: the paper's (threads and data of its table), a reduced one that keeps the
/// paper's contention (the same threads per shared object) for `make run`, and a small one for
/// tests.
enum class Scale : uint8_t { kSmall, kDefault, kPaper };
const char* ToString(Scale s);
/// Parses a name ToString gives; false when `name` is none.
bool ParseScale(const std::string& name, Scale* s);

/// Memory words are 32 bits; word addresses run from 0 to Init().size() - 1.
class Workload {
 public:
  virtual ~Workload() = default;
  /// Threads of the grid (a multiple of 32, the warp size).
  virtual int threads() const = 0;
  /// The initial memory; its size is the memory the workload uses.
  virtual std::vector<uint32_t> Init() = 0;
  /// The code of one thread.
  virtual Task Kernel(Lane& l) = 0;
  /// Empty when the final memory is right; else a message saying what is wrong.
  virtual std::string Check(const std::vector<uint32_t>& mem) const = 0;
  /// One line: sizes and what a transaction does.
  virtual std::string Describe() const = 0;
  /// True when every thread commits exactly one transaction (false: a thread loops over
  /// transactions until the work is done, as GraphCut's contractions).
  virtual bool OneTransactionPerThread() const { return true; }
  /// True when the workload also has a kernel with fine-grained locks instead of transactions
  /// (the KILO TM paper's FGL baseline); Check() then holds for it too.
  virtual bool HasLocks() const { return false; }
  /// That kernel (called only when HasLocks()).
  virtual Task LockKernel(Lane& l) { return Kernel(l); }
};

/// The paper whose table a workload comes from (docs/references.md).
enum class Paper : uint8_t {
  kEcr,    // early conflict resolution: Chen & Peng, HPCA 2016, Table 2
  kSi,     // snapshot isolation: Chen, Peng & Irving, ISCA 2017, Table 3
  kProto,  // none: the FPGA prototype's workloads (htm/workloads/gpu/proto.h, docs/proto.md)
};
/// The paper's short citation, authors and venue: "Chen & Peng (HPCA 2016)".
const char* Cite(Paper p);

struct WorkloadInfo {
  std::string name;    // e.g. "HT1K"
  Paper paper;         // the paper it comes from
  std::string source;  // where in that paper, e.g. "Table 2 (KILO TM's HashTable)"
  std::string summary;
  /// A fresh instance; `seed` fixes every random choice of the workload.
  std::function<std::unique_ptr<Workload>(Scale, uint64_t seed)> make;
};

/// The paper and where in it, for people: "Chen & Peng (HPCA 2016), Table 2 (...)".
std::string Source(const WorkloadInfo& w);

/// Every workload, in the papers' order.
const std::vector<WorkloadInfo>& AllWorkloads();
/// The workload called `name` (of AllWorkloads() or the prototype's), or nullptr.
const WorkloadInfo* FindWorkload(const std::string& name);

/// The null pointer of the linked structures.
inline constexpr uint32_t kNil = 0xFFFFFFFFu;

}  // namespace htm::gpu
