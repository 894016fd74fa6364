// SPDX-License-Identifier: Apache-2.0
//
// GA, genetic algorithm for the knapsack problem (thesis Table 5.7; paper 004 §5.1.3). A set of S
// solutions (LC 64, HC 8) in the LDS, each an 8-bit mask of the objects in the bag. In every
// round each work-item picks two random solutions, and in the critical section reads both,
// crosses the fitter (total weight closer to the capacity) into the other, mutates the child and
// writes both back. Every solution word also counts its updates (a version), so Check() can
// rebuild the serial order of the picks and replay it. Layout: docs/lds_workloads.md.
#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common.h"

namespace htm::lds::detail {
namespace {

constexpr int kRounds = 2;      // picks per work-item
constexpr int kObjects = 8;     // objects of the knapsack (paper 004: 8)
constexpr int kPickOps = 6;     // ALU instructions choosing the pick
constexpr int kEvolveOps = 48;  // ALU instructions of two fitnesses, crossover and mutation
constexpr uint32_t kUnset = 0xFFFFFFFF;

uint32_t Mask(uint32_t word) {
  return word & 0xFF;
}
uint32_t Ver(uint32_t word) {
  return word >> 8;
}

class Genetic final : public BenchBase {
 public:
  Genetic(const Geometry& geo, uint64_t seed, Contention c, Version v)
      : BenchBase("GA", geo, c, v) {
    solutions_ = lc() ? 64 : 8;
    Rng rng(VariantSeed(seed, "GA", c));
    uint32_t total = 0;
    for (uint32_t& w : weight_) {
      w = rng.Range(1, 31);
      total += w;
    }
    capacity_ = total / 2;
    masks0_.resize(solutions_);
    for (uint32_t& m : masks0_) {
      m = rng.Below(256);
    }
    picks_.resize(static_cast<size_t>(wg()) * kRounds);
    for (Pick& p : picks_) {
      const std::vector<uint32_t> two = rng.Distinct(2, solutions_);
      p.i = two[0];
      p.j = two[1];
      p.cross = rng.Range(1, kObjects - 1);
      p.mutate = rng.Below(2 * kObjects);  // >= kObjects: no mutation
    }
    locks_ = solutions_;
    results_ = locks_ + solutions_;
    turn_ = results_ + static_cast<uint32_t>(picks_.size());
    RequireFits(turn_ + 1);
  }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> lds(turn_ + 1, 0);
    std::copy(masks0_.begin(), masks0_.end(), lds.begin());
    std::fill(lds.begin() + results_, lds.begin() + turn_, kUnset);
    return lds;
  }
  Task Kernel(Lane& l) override;
  std::string Check(const std::vector<uint32_t>& lds) const override;

 private:
  struct Pick {
    uint32_t i = 0, j = 0;  // the two solutions
    uint32_t cross = 1;     // the child takes the fitter's objects below this one
    uint32_t mutate = 0;    // the object the mutation flips (none when >= kObjects)
  };

  int Fitness(uint32_t mask) const {
    int w = 0;
    for (int o = 0; o < kObjects; ++o) {
      w += (mask >> o & 1) ? static_cast<int>(weight_[o]) : 0;
    }
    const int cap = static_cast<int>(capacity_);
    return w <= cap ? w : 2 * cap - w;
  }
  /// The new masks of solutions i and j.
  std::pair<uint32_t, uint32_t> Evolve(const Pick& p, uint32_t mi, uint32_t mj) const {
    const bool i_fitter = Fitness(mi) >= Fitness(mj);
    const uint32_t hi = i_fitter ? mi : mj, lo = i_fitter ? mj : mi;
    const uint32_t low = (1u << p.cross) - 1;
    uint32_t child = ((hi & low) | (lo & ~low)) & 0xFF;
    if (p.mutate < kObjects) {
      child ^= 1u << p.mutate;
    }
    return i_fitter ? std::pair(hi, child) : std::pair(child, hi);
  }
  Task Breed(Lane& l, uint32_t pick, uint32_t* record);

  uint32_t solutions_ = 0;
  uint32_t weight_[kObjects] = {};
  uint32_t capacity_ = 0;
  std::vector<uint32_t> masks0_;  // initial solutions
  std::vector<Pick> picks_;       // work-item w's round r at w * kRounds + r
  // Layout: the solutions (mask | version << 8) at 0, then a lock per solution (FGL), the
  // results (per pick: the versions read, i | j << 16), the turn (serialized).
  uint32_t locks_ = 0, results_ = 0, turn_ = 0;
};

// The critical section: read both solutions, breed, write both back (one version more each).
Task Genetic::Breed(Lane& l, uint32_t pick, uint32_t* record) {
  const Pick& p = picks_[pick];
  const uint32_t a = co_await l.Load(p.i);
  const uint32_t b = co_await l.Load(p.j);
  co_await l.Compute(kEvolveOps);
  const auto [mi, mj] = Evolve(p, Mask(a), Mask(b));
  co_await l.Store(p.i, mi | (Ver(a) + 1) << 8);
  co_await l.Store(p.j, mj | (Ver(b) + 1) << 8);
  *record = Ver(a) | Ver(b) << 16;
}

Task Genetic::Kernel(Lane& l) {
  const int wi = l.wi();
  for (int r = 0; r < kRounds; ++r) {
    const uint32_t pick = static_cast<uint32_t>(wi * kRounds + r);
    co_await l.Compute(kPickOps);
    uint32_t record = 0;
    if (version_ == Version::kTm) {
      co_await l.Transaction([this, pick, &record](Lane& t) { return Breed(t, pick, &record); });
    } else if (version_ == Version::kSerial) {
      const uint32_t ticket = static_cast<uint32_t>(r * wg() + wi);
      for (bool done = false; !done;) {
        if (co_await l.Load(turn_) == ticket) {
          co_await Breed(l, pick, &record);
          co_await l.Store(turn_, ticket + 1);
          done = true;
        }
        co_await l.Latch();
      }
    } else {
      // A lock per solution, the lower index first; a failed second CAS releases the first.
      const uint32_t first = locks_ + std::min(picks_[pick].i, picks_[pick].j);
      const uint32_t second = locks_ + std::max(picks_[pick].i, picks_[pick].j);
      for (bool done = false; !done;) {
        if (co_await l.Cas(first, 0, 1) == 0) {
          if (co_await l.Cas(second, 0, 1) == 0) {
            co_await Breed(l, pick, &record);
            co_await l.Store(second, 0);
            co_await l.Store(first, 0);
            done = true;
          } else {
            co_await l.Store(first, 0);
          }
        }
        co_await l.Latch();
      }
    }
    co_await l.Store(results_ + pick, record);
    co_await l.Latch();
  }
}

std::string Genetic::Check(const std::vector<uint32_t>& lds) const {
  Problems p;
  if (lds.size() <= turn_) {
    p.Add("the LDS has ", lds.size(), " words, the solutions need ", turn_ + 1);
    return p.str();
  }
  std::vector<uint32_t> final_versions(solutions_);
  for (uint32_t s = 0; s < solutions_; ++s) {
    final_versions[s] = Ver(lds[s]);
    if (lds[locks_ + s] != 0) {
      p.Add("the lock of solution ", s, " is still held");
    }
  }
  // Each pick read a version of its two solutions and wrote the next ones.
  std::vector<VersionedRecord> records(picks_.size());
  for (size_t k = 0; k < picks_.size(); ++k) {
    const uint32_t rec = lds[results_ + k];
    records[k].wi = static_cast<int>(k) / kRounds;
    records[k].round = static_cast<int>(k) % kRounds;
    records[k].access = {{picks_[k].i, rec & 0xFFFF, true}, {picks_[k].j, rec >> 16, true}};
  }
  const std::vector<size_t> order = SerialOrder(records, final_versions, &p);
  if (!p.empty()) {
    return p.str();
  }
  // Replaying the picks in that order must give the final solutions.
  std::vector<uint32_t> masks = masks0_;
  for (const size_t k : order) {
    const Pick& pk = picks_[k];
    std::tie(masks[pk.i], masks[pk.j]) = Evolve(pk, masks[pk.i], masks[pk.j]);
  }
  for (uint32_t s = 0; s < solutions_; ++s) {
    if (Mask(lds[s]) != masks[s]) {
      p.Add("solution ", s, " is ", Mask(lds[s]), ", replaying the picks gives ", masks[s],
            " (torn update)");
    }
  }
  if (version_ == Version::kSerial && lds[turn_] != picks_.size()) {
    p.Add("the turn word is ", lds[turn_], ", expected ", picks_.size());
  }
  return p.str();
}

}  // namespace

std::unique_ptr<Workload> MakeGenetic(const Geometry& geo, uint64_t seed, Contention c, Version v) {
  return std::make_unique<Genetic>(geo, seed, c, v);
}

}  // namespace htm::lds::detail
