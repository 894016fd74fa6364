// SPDX-License-Identifier: Apache-2.0
//
// KM, k-means (thesis Table 5.7, after Rodinia's kmeans; paper 004 §5.1.2): one 3-D point per
// work-item, K clusters in the LDS (LC 64, HC 8), a fixed number of iterations. Each iteration:
// every work-item finds the closest centre (reading all of them), and in the critical section
// adds its point to that cluster's sums and count (each iteration has its own sums); after a
// barrier, work-item k computes centre k = sums / count; a barrier.
// Integer coordinates make the result independent of the order of the additions, so Check()
// compares with the exact result. Layout: docs/lds_workloads.md.
#include <array>
#include <string>
#include <vector>

#include "common.h"

namespace htm::lds::detail {

namespace {

constexpr int kIters = 2;
constexpr uint32_t kCoordRange = 1024;  // coordinates in [0, 1024)
constexpr int kDistOps = 10;            // ALU instructions per centre (distance, compare)
constexpr int kDivOps = 12;             // ALU instructions of a centre's update (3 divisions)

using Point = std::array<uint32_t, 3>;

uint32_t Dist2(const Point& a, const Point& b) {
  uint32_t d = 0;
  for (int i = 0; i < 3; ++i) {
    const uint32_t diff = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
    d += diff * diff;
  }
  return d;
}

class KMeans final : public BenchBase {
 public:
  KMeans(const Geometry& geo, uint64_t seed, Contention c, Version v) : BenchBase("KM", geo, c, v) {
    clusters_ = lc() ? 64 : 8;
    Rng rng(VariantSeed(seed, "KM", c));
    points_.resize(wg());
    for (Point& p : points_) {
      for (uint32_t& x : p) {
        x = rng.Below(kCoordRange);
      }
    }
    centres0_.resize(clusters_);
    for (Point& p : centres0_) {
      for (uint32_t& x : p) {
        x = rng.Below(kCoordRange);
      }
    }
    acc_ = 3 * clusters_;
    locks_ = acc_ + kIters * 4 * clusters_;
    turn_ = locks_ + clusters_;
    RequireFits(turn_ + 1);
    Reference();
  }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> lds(turn_ + 1, 0);
    for (uint32_t k = 0; k < clusters_; ++k) {
      for (int i = 0; i < 3; ++i) {
        lds[3 * k + i] = centres0_[k][i];
      }
    }
    return lds;
  }
  Task Kernel(Lane& l) override;
  std::string Check(const std::vector<uint32_t>& lds) const override;

 private:
  /// The final centres and sums, computed sequentially.
  void Reference();
  Task Accumulate(Lane& l, uint32_t sums, Point p);

  uint32_t clusters_ = 0;
  std::vector<Point> points_;    // work-item w's point
  std::vector<Point> centres0_;  // initial centres
  // Layout: centres (x, y, z) at 0, then per iteration the sums (x, y, z, count) per cluster,
  // the locks (FGL), the turn (serialized).
  uint32_t acc_ = 0, locks_ = 0, turn_ = 0;
  std::vector<uint32_t> expected_;  // the final centres, then every iteration's sums
};

void KMeans::Reference() {
  std::vector<Point> centres = centres0_;
  std::vector<uint32_t> all_sums;
  for (int it = 0; it < kIters; ++it) {
    std::vector<std::array<uint32_t, 4>> sums(clusters_, {0, 0, 0, 0});
    for (const Point& p : points_) {
      uint32_t best = 0;
      for (uint32_t k = 1; k < clusters_; ++k) {
        if (Dist2(p, centres[k]) < Dist2(p, centres[best])) {
          best = k;
        }
      }
      for (int i = 0; i < 3; ++i) {
        sums[best][i] += p[i];
      }
      sums[best][3] += 1;
    }
    for (uint32_t k = 0; k < clusters_; ++k) {
      if (sums[k][3] > 0) {
        for (int i = 0; i < 3; ++i) {
          centres[k][i] = sums[k][i] / sums[k][3];
        }
      }
      all_sums.insert(all_sums.end(), sums[k].begin(), sums[k].end());
    }
  }
  expected_.clear();
  for (const Point& c : centres) {
    expected_.insert(expected_.end(), c.begin(), c.end());
  }
  expected_.insert(expected_.end(), all_sums.begin(), all_sums.end());
}

// The critical section: add the point to a cluster's sums and count.
Task KMeans::Accumulate(Lane& l, uint32_t sums, Point p) {
  for (uint32_t i = 0; i < 3; ++i) {
    const uint32_t s = co_await l.Load(sums + i);
    co_await l.Store(sums + i, s + p[i]);
  }
  const uint32_t n = co_await l.Load(sums + 3);
  co_await l.Store(sums + 3, n + 1);
}

Task KMeans::Kernel(Lane& l) {
  const int wi = l.wi();
  const Point p = points_[wi];
  for (int it = 0; it < kIters; ++it) {
    // The closest centre (ties: the lowest index).
    uint32_t best = 0, best_d = UINT32_MAX;
    for (uint32_t k = 0; k < clusters_; ++k) {
      Point c;
      for (uint32_t i = 0; i < 3; ++i) {
        c[i] = co_await l.Load(3 * k + i);
      }
      co_await l.Compute(kDistOps);
      const uint32_t d = Dist2(p, c);
      if (d < best_d) {
        best_d = d;
        best = k;
      }
    }
    const uint32_t sums = acc_ + 4 * (it * clusters_ + best);
    if (version_ == Version::kTm) {
      co_await l.Transaction([this, sums, p](Lane& t) { return Accumulate(t, sums, p); });
    } else if (version_ == Version::kSerial) {
      const uint32_t ticket = static_cast<uint32_t>(it * wg() + wi);
      for (bool done = false; !done;) {
        if (co_await l.Load(turn_) == ticket) {
          co_await Accumulate(l, sums, p);
          co_await l.Store(turn_, ticket + 1);
          done = true;
        }
        co_await l.Latch();
      }
    } else {
      const uint32_t lock = locks_ + best;
      for (bool done = false; !done;) {
        if (co_await l.Cas(lock, 0, 1) == 0) {
          co_await Accumulate(l, sums, p);
          co_await l.Store(lock, 0);
          done = true;
        }
        co_await l.Latch();
      }
    }
    co_await l.Barrier();
    // The new centres.
    for (uint32_t k = static_cast<uint32_t>(wi); k < clusters_; k += static_cast<uint32_t>(wg())) {
      const uint32_t a = acc_ + 4 * (it * clusters_ + k);
      std::array<uint32_t, 4> s;
      for (uint32_t i = 0; i < 4; ++i) {
        s[i] = co_await l.Load(a + i);
      }
      co_await l.Compute(kDivOps);
      if (s[3] > 0) {
        for (uint32_t i = 0; i < 3; ++i) {
          co_await l.Store(3 * k + i, s[i] / s[3]);
        }
      }
      co_await l.Latch();
    }
    co_await l.Barrier();
  }
}

std::string KMeans::Check(const std::vector<uint32_t>& lds) const {
  Problems p;
  if (lds.size() <= turn_) {
    p.Add("the LDS has ", lds.size(), " words, the clusters need ", turn_ + 1);
    return p.str();
  }
  static const char* const kField[] = {"x", "y", "z", "count"};
  for (uint32_t k = 0; k < clusters_; ++k) {
    for (uint32_t it = 0; it < kIters; ++it) {
      for (uint32_t i = 0; i < 4; ++i) {
        const uint32_t at = 4 * (it * clusters_ + k) + i;
        const uint32_t got = lds[acc_ + at], want = expected_[3 * clusters_ + at];
        if (got != want) {
          p.Add("iteration ", it, " cluster ", k, " sum of ", kField[i], " is ", got,
                ", the points add up to ", want,
                got < want ? " (lost update)" : " (duplicated update)");
        }
      }
    }
    for (uint32_t i = 0; i < 3; ++i) {
      if (lds[3 * k + i] != expected_[3 * k + i]) {
        p.Add("centre ", k, " ", kField[i], " is ", lds[3 * k + i], ", expected ",
              expected_[3 * k + i]);
      }
    }
    if (lds[locks_ + k] != 0) {
      p.Add("the lock of cluster ", k, " is still held");
    }
  }
  if (version_ == Version::kSerial && lds[turn_] != static_cast<uint32_t>(kIters * wg())) {
    p.Add("the turn word is ", lds[turn_], ", expected ", kIters * wg());
  }
  return p.str();
}

}  // namespace

std::unique_ptr<Workload> MakeKMeans(const Geometry& geo, uint64_t seed, Contention c, Version v) {
  return std::make_unique<KMeans>(geo, seed, c, v);
}

}  // namespace htm::lds::detail
