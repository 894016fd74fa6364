// SPDX-License-Identifier: Apache-2.0
//
// Bank transfers, ATM (KILO TM; Chen & Peng, HPCA 2016, Table 2: ATM25K and ATM10K, 23 040 threads,
// read/write set 3 / 2): every thread moves an amount between two distinct accounts. Its
// transaction reads the amount from a read-only table and both balances, and writes both balances.
// The fewer accounts, the more conflicts.
//
// Memory: balance[accounts], then amount[16] (never written), then a lock per account (the
// fine-grained-lock kernel's; 0 free).
// Check: every account ends at its initial balance plus what the threads moved in minus what they
// moved out (modulo 2^32). The result does not depend on the order of the transfers, so a lost, a
// duplicated or a torn transfer shows as a wrong balance; money is conserved as a consequence.
#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "htm/workloads/common.h"
#include "workloads.h"

namespace htm::gpu::detail {
namespace {

class Atm : public Workload {
 public:
  explicit Atm(AtmSpec spec)
      : threads_(static_cast<int>(spec.transfers.size())),
        accounts_(static_cast<uint32_t>(spec.initial.size())),
        initial_(std::move(spec.initial)),
        amounts_(std::move(spec.amounts)),
        transfers_(std::move(spec.transfers)) {}

  int threads() const override { return threads_; }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem = initial_;
    mem.insert(mem.end(), amounts_.begin(), amounts_.end());
    mem.resize(mem.size() + accounts_, 0);
    return mem;
  }

  Task Kernel(Lane& l) override {
    const Transfer x = transfers_[l.tid()];
    co_await l.Compute(4);
    co_await l.Transaction([this, x](Lane& t) -> Task {
      const uint32_t amount = co_await t.Load(accounts_ + x.amount);
      const uint32_t from = co_await t.Load(x.from);
      const uint32_t to = co_await t.Load(x.to);
      co_await t.Compute(2);
      co_await t.Store(x.from, from - amount);
      co_await t.Store(x.to, to + amount);
    });
  }

  // The FGL baseline: the two accounts' locks, the lower account first; when the second is
  // held, the first is released and the thread tries again.
  bool HasLocks() const override { return true; }
  Task LockKernel(Lane& l) override {
    const Transfer x = transfers_[l.tid()];
    const uint32_t first = Lock(std::min(x.from, x.to)), second = Lock(std::max(x.from, x.to));
    co_await l.Compute(4);
    for (;;) {
      if (co_await l.Cas(first, 0, 1) == 0) {
        if (co_await l.Cas(second, 0, 1) == 0) {
          const uint32_t amount = co_await l.Load(accounts_ + x.amount);
          const uint32_t from = co_await l.Load(x.from);
          const uint32_t to = co_await l.Load(x.to);
          co_await l.Compute(2);
          co_await l.Store(x.from, from - amount);
          co_await l.Store(x.to, to + amount);
          co_await l.Fence();
          co_await l.Store(second, 0);
          co_await l.Store(first, 0);
          break;
        }
        co_await l.Store(first, 0);
      }
      co_await l.Latch();
    }
  }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    std::vector<uint32_t> want = initial_;
    for (const Transfer& x : transfers_) {
      want[x.from] -= amounts_[x.amount];
      want[x.to] += amounts_[x.amount];
    }
    for (uint32_t a = 0; a < accounts_; ++a) {
      if (mem[a] != want[a]) {
        p.Add("account ", a, " holds ", mem[a], ", the transfers leave ", want[a], " (off by ",
              static_cast<int32_t>(mem[a] - want[a]), ")");
      }
    }
    for (uint32_t i = 0; i < AtmSpec::kAmounts; ++i) {
      if (mem[accounts_ + i] != amounts_[i]) {
        p.Add("the read-only amount ", i, " changed to ", mem[accounts_ + i]);
      }
    }
    for (uint32_t a = 0; a < accounts_; ++a) {
      if (mem[Lock(a)] != 0) {
        p.Add("the lock of account ", a, " is still held");
      }
    }
    return p.str();
  }

  std::string Describe() const override {
    std::ostringstream os;
    os << threads_ << " threads move money between two of " << accounts_
       << " accounts; a transaction reads 3 words and writes 2";
    return os.str();
  }

 private:
  uint32_t Lock(uint32_t account) const { return accounts_ + AtmSpec::kAmounts + account; }
  using Transfer = AtmSpec::Transfer;
  const int threads_;
  const uint32_t accounts_;
  std::vector<uint32_t> initial_, amounts_;
  std::vector<Transfer> transfers_;
};

}  // namespace

std::unique_ptr<Workload> MakeAtm(int threads, uint32_t accounts, uint64_t seed) {
  AtmSpec spec;
  Rng rng(seed);
  for (uint32_t a = 0; a < accounts; ++a) {
    spec.initial.push_back(rng.Range(1000, 100000));
  }
  for (uint32_t i = 0; i < AtmSpec::kAmounts; ++i) {
    spec.amounts.push_back(rng.Range(1, 500));
  }
  for (int t = 0; t < threads; ++t) {
    const uint32_t from = rng.Below(accounts);
    uint32_t to = rng.Below(accounts - 1);
    to += to >= from ? 1 : 0;
    spec.transfers.push_back({from, to, rng.Below(AtmSpec::kAmounts)});
  }
  return MakeAtm(std::move(spec));
}

std::unique_ptr<Workload> MakeAtm(AtmSpec spec) {
  if (spec.initial.size() < 2 || spec.amounts.size() != AtmSpec::kAmounts) {
    throw std::invalid_argument("ATM: at least two accounts and 16 amounts");
  }
  for (const AtmSpec::Transfer& x : spec.transfers) {
    if (x.from >= spec.initial.size() || x.to >= spec.initial.size() || x.from == x.to ||
        x.amount >= AtmSpec::kAmounts) {
      throw std::invalid_argument("ATM: a transfer names a bad account or amount");
    }
  }
  return std::make_unique<Atm>(std::move(spec));
}

}  // namespace htm::gpu::detail
