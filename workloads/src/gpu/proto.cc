// SPDX-License-Identifier: Apache-2.0
//
// The FPGA prototype's workloads (htm/workloads/gpu/proto.h, docs/proto.md): ATM-P and HT-P are
// ATM and HashTable with their choices drawn by the prototype's hash; EB-P is an EigenBench-like
// synthetic transaction over a hot array and private words.
#include "htm/workloads/gpu/proto.h"

#include <sstream>
#include <stdexcept>
#include <utility>

#include "htm/workloads/common.h"
#include "workloads.h"

namespace htm::gpu::proto {
namespace {

constexpr int kMaxThreads = (1 << 24) / 3;
constexpr int kMaxObjectsLog2 = 20;
constexpr int kMaxEbWords = 16;

// EB-P (EigenBench-like): thread t's transaction reads `reads` consecutive hot words from a drawn
// start, then updates (reads, adds one, writes) `writes` consecutive hot words from another drawn
// start, then `cold` words of its own. The updated hot words are distinct (writes <= hot), and
// every read comes before the writes, so no load reads the transaction's own write.
//
// Memory: hot[2^objects_log2] (drawn initial values), then cold[cold][threads] (zero).
// Check: every word ends at its initial value plus the updates the threads make to it.
class Eigen : public Workload {
 public:
  explicit Eigen(const Params& p)
      : threads_(p.threads),
        hot_(1u << p.objects_log2),
        reads_(p.reads),
        writes_(p.writes),
        cold_(p.cold),
        seed_hash_(SeedHash(p.seed)) {}

  int threads() const override { return threads_; }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem(hot_ + static_cast<size_t>(threads_) * cold_, 0);
    for (uint32_t i = 0; i < hot_; ++i) {
      mem[i] = Draw(seed_hash_, kEbHot, i);
    }
    return mem;
  }

  Task Kernel(Lane& l) override {
    const int t = l.tid();
    co_await l.Transaction([this, t](Lane& x) -> Task {
      for (int k = 0; k < reads_; ++k) {
        co_await x.Load(HotRead(t, k));
      }
      for (int k = 0; k < writes_; ++k) {
        const uint32_t v = co_await x.Load(HotWrite(t, k));
        co_await x.Store(HotWrite(t, k), v + 1);
      }
      for (int k = 0; k < cold_; ++k) {
        const uint32_t v = co_await x.Load(Cold(t, k));
        co_await x.Store(Cold(t, k), v + 1);
      }
    });
  }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    std::vector<uint32_t> want(mem.size(), 0);
    for (uint32_t i = 0; i < hot_; ++i) {
      want[i] = Draw(seed_hash_, kEbHot, i);
    }
    for (int t = 0; t < threads_; ++t) {
      for (int k = 0; k < writes_; ++k) {
        ++want[HotWrite(t, k)];
      }
      for (int k = 0; k < cold_; ++k) {
        ++want[Cold(t, k)];
      }
    }
    for (size_t a = 0; a < mem.size(); ++a) {
      if (mem[a] != want[a]) {
        p.Add(a < hot_ ? "hot" : "cold", " word ", a, " holds ", mem[a], ", the updates leave ",
              want[a], " (off by ", static_cast<int32_t>(mem[a] - want[a]), ")");
      }
    }
    return p.str();
  }

  std::string Describe() const override {
    std::ostringstream os;
    os << threads_ << " threads; a transaction reads " << reads_ << " of " << hot_
       << " hot words, updates " << writes_ << " of them and " << cold_ << " private words";
    return os.str();
  }

 private:
  uint32_t HotRead(int t, int k) const {
    return (Draw(seed_hash_, kEbRead, static_cast<uint32_t>(t)) + static_cast<uint32_t>(k)) &
           (hot_ - 1);
  }
  uint32_t HotWrite(int t, int k) const {
    return (Draw(seed_hash_, kEbWrite, static_cast<uint32_t>(t)) + static_cast<uint32_t>(k)) &
           (hot_ - 1);
  }
  // Column-major: private word k of every thread together (the engines step k with an adder).
  uint32_t Cold(int t, int k) const { return hot_ + static_cast<uint32_t>(k * threads_ + t); }

  const int threads_;
  const uint32_t hot_;
  const int reads_, writes_, cold_;
  const uint32_t seed_hash_;
};

std::unique_ptr<Workload> MakeAtmP(const Params& p) {
  const uint32_t h = SeedHash(p.seed);
  const uint32_t accounts = 1u << p.objects_log2;
  detail::AtmSpec spec;
  for (uint32_t a = 0; a < accounts; ++a) {
    spec.initial.push_back(1000 + (Draw(h, kAtmBalance, a) & 0xFFFFu));
  }
  for (uint32_t i = 0; i < detail::AtmSpec::kAmounts; ++i) {
    spec.amounts.push_back(1 + (Draw(h, kAtmAmounts, i) & 0xFFu));
  }
  for (uint32_t t = 0; t < static_cast<uint32_t>(p.threads); ++t) {
    const uint32_t from = Draw(h, kAtmFrom, t) & (accounts - 1);
    uint32_t offset = Draw(h, kAtmTo, t) & (accounts - 1);
    offset = offset == 0 ? 1 : offset;  // another account
    spec.transfers.push_back({from, from ^ offset, Draw(h, kAtmAmount, t) & 0xFu});
  }
  return detail::MakeAtm(std::move(spec));
}

std::unique_ptr<Workload> MakeHtP(const Params& p) {
  const uint32_t h = SeedHash(p.seed);
  std::vector<uint32_t> keys;
  for (uint32_t t = 0; t < static_cast<uint32_t>(p.threads); ++t) {
    keys.push_back(Draw(h, kHtKey, t));  // distinct: a bijection of t
  }
  // The bucket is a draw of the key (the engines' draw unit computes it), not HT's multiplicative
  // hash.
  return detail::MakeHashTable(1u << p.objects_log2, std::move(keys),
                               [](uint32_t key) { return LowBias32(key ^ kHtBucketSalt); });
}

WorkloadInfo Info(const char* name, Kind k, std::string summary) {
  return {name, Paper::kProto, "the FPGA prototype's hardware workload engines", std::move(summary),
          [k](Scale s, uint64_t seed) { return Make(ParamsAt(k, s, seed)); }};
}

}  // namespace

const char* ToString(Kind k) {
  switch (k) {
    case Kind::kAtm:
      return "ATM-P";
    case Kind::kHt:
      return "HT-P";
    case Kind::kEb:
      return "EB-P";
  }
  return "?";
}

std::string CheckParams(const Params& p) {
  std::ostringstream os;
  if (p.threads < 1 || p.threads > kMaxThreads) {
    os << "threads " << p.threads << " is not in 1.." << kMaxThreads;
  } else if (p.objects_log2 < 1 || p.objects_log2 > kMaxObjectsLog2) {
    os << "objects_log2 " << p.objects_log2 << " is not in 1.." << kMaxObjectsLog2;
  } else if (p.kind == Kind::kEb &&
             (p.reads < 0 || p.reads > kMaxEbWords || p.writes < 0 || p.writes > kMaxEbWords ||
              p.cold < 0 || p.cold > kMaxEbWords)) {
    os << "EB-P reads, writes and cold words must each be in 0.." << kMaxEbWords;
  } else if (p.kind == Kind::kEb && p.writes > (1 << p.objects_log2)) {
    os << "EB-P updates " << p.writes << " hot words of " << (1 << p.objects_log2);
  } else if (p.kind == Kind::kEb && p.reads + p.writes + p.cold == 0) {
    os << "EB-P transactions access no word";
  } else if (p.kind != Kind::kEb && (p.reads != 0 || p.writes != 0 || p.cold != 0)) {
    os << ToString(p.kind) << " has no reads, writes or cold parameters";
  }
  return os.str();
}

std::unique_ptr<Workload> Make(const Params& p) {
  if (const std::string why = CheckParams(p); !why.empty()) {
    throw std::invalid_argument(std::string(ToString(p.kind)) + ": " + why);
  }
  switch (p.kind) {
    case Kind::kAtm:
      return MakeAtmP(p);
    case Kind::kHt:
      return MakeHtP(p);
    case Kind::kEb:
      return std::make_unique<Eigen>(p);
  }
  throw std::invalid_argument("unknown prototype workload");
}

Params ParamsAt(Kind k, Scale s, uint64_t seed) {
  // No paper gives these sizes: the paper scale is the default one. The small scale keeps the
  // default's threads per shared object.
  const bool small = s == Scale::kSmall;
  Params p;
  p.kind = k;
  p.seed = static_cast<uint32_t>(seed);
  p.threads = small ? 256 : 2048;
  switch (k) {
    case Kind::kAtm:  // two threads per account
      p.objects_log2 = small ? 7 : 10;
      break;
    case Kind::kHt:  // sixteen threads per bucket
      p.objects_log2 = small ? 4 : 7;
      break;
    case Kind::kEb:  // four hot reads and two hot updates per transaction, two private updates
      p.objects_log2 = small ? 6 : 9;
      p.reads = 4;
      p.writes = 2;
      p.cold = 2;
      break;
  }
  return p;
}

const std::vector<WorkloadInfo>& ProtoWorkloads() {
  static const std::vector<WorkloadInfo> all = {
      Info("ATM-P", Kind::kAtm,
           "ATM with the prototype's draws: one transfer per thread, two threads per account"),
      Info("HT-P", Kind::kHt,
           "HashTable with the prototype's draws: one key per thread, 16 threads per bucket"),
      Info("EB-P", Kind::kEb,
           "EigenBench-like: 4 hot reads, 2 hot and 2 private updates per transaction"),
  };
  return all;
}

}  // namespace htm::gpu::proto
