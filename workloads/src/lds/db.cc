// SPDX-License-Identifier: Apache-2.0
//
// DB, database (thesis Table 5.7): T indexed tables (LC 16, HC 8); every work-item inserts two
// values in two different tables. The critical section increments the two tables' indices; the
// values are then stored at the old indices outside it. Layout and checks: docs/lds_workloads.md.
#include <algorithm>
#include <string>
#include <vector>

#include "common.h"

namespace htm::lds::detail {
namespace {

constexpr int kPickOps = 4;              // ALU instructions choosing the tables
constexpr uint32_t kUnset = 0xFFFFFFFE;  // result word before the work-item writes it

class Database final : public BenchBase {
 public:
  Database(const Geometry& geo, uint64_t seed, Contention c, Version v)
      : BenchBase("DB", geo, c, v) {
    tables_ = lc() ? 16 : 8;
    Rng rng(VariantSeed(seed, "DB", c));
    load_.assign(tables_, 0);
    for (int wi = 0; wi < wg(); ++wi) {
      const std::vector<uint32_t> two = rng.Distinct(2, tables_);
      pick_.push_back(two[0]);
      pick_.push_back(two[1]);
      ++load_[two[0]];
      ++load_[two[1]];
    }
    cap_ = *std::max_element(load_.begin(), load_.end());
    slots_ = tables_;
    results_ = slots_ + tables_ * cap_;
    turn_ = results_ + 2 * static_cast<uint32_t>(wg());
    RequireFits(turn_ + 1);
  }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> lds(turn_ + 1, 0);
    std::fill(lds.begin() + results_, lds.begin() + turn_, kUnset);
    return lds;
  }
  Task Kernel(Lane& l) override;
  std::string Check(const std::vector<uint32_t>& lds) const override;

 private:
  /// The value work-item `wi` inserts in its `j`-th table.
  static uint32_t Value(int wi, int j) { return static_cast<uint32_t>(2 * wi + j + 1); }

  uint32_t tables_ = 0;
  uint32_t cap_ = 0;            // slots per table: the most values one table gets
  std::vector<uint32_t> pick_;  // work-item w's two tables at 2w, 2w + 1
  std::vector<uint32_t> load_;  // values per table
  // Layout: the indices at 0, then the slots, the results (per value, the index it got), the
  // turn.
  uint32_t slots_ = 0, results_ = 0, turn_ = 0;
};

Task Database::Kernel(Lane& l) {
  const int wi = l.wi();
  const uint32_t t0 = pick_[2 * wi], t1 = pick_[2 * wi + 1];
  co_await l.Compute(kPickOps);
  uint32_t at0 = 0, at1 = 0;
  if (version_ == Version::kAtomic) {
    at0 = co_await l.AtomAdd(t0, 1);
    at1 = co_await l.AtomAdd(t1, 1);
  } else if (version_ == Version::kTm) {
    co_await l.Transaction([t0, t1, &at0, &at1](Lane& t) -> Task {
      at0 = co_await t.Load(t0);
      co_await t.Store(t0, at0 + 1);
      at1 = co_await t.Load(t1);
      co_await t.Store(t1, at1 + 1);
    });
  } else {
    const uint32_t ticket = static_cast<uint32_t>(wi);
    for (bool done = false; !done;) {
      if (co_await l.Load(turn_) == ticket) {
        at0 = co_await l.Load(t0);
        co_await l.Store(t0, at0 + 1);
        at1 = co_await l.Load(t1);
        co_await l.Store(t1, at1 + 1);
        co_await l.Store(turn_, ticket + 1);
        done = true;
      }
      co_await l.Latch();
    }
  }
  if (at0 < cap_) {
    co_await l.Store(slots_ + t0 * cap_ + at0, Value(wi, 0));
  }
  if (at1 < cap_) {
    co_await l.Store(slots_ + t1 * cap_ + at1, Value(wi, 1));
  }
  co_await l.Store(results_ + 2 * wi, at0);
  co_await l.Store(results_ + 2 * wi + 1, at1);
}

std::string Database::Check(const std::vector<uint32_t>& lds) const {
  Problems p;
  if (lds.size() <= turn_) {
    p.Add("the LDS has ", lds.size(), " words, the tables need ", turn_ + 1);
    return p.str();
  }
  for (uint32_t t = 0; t < tables_; ++t) {
    if (lds[t] != load_[t]) {
      p.Add("the index of table ", t, " is ", lds[t], ", ", load_[t], " values were inserted",
            lds[t] < load_[t] ? " (lost update)" : " (duplicated update)");
    }
  }
  std::vector<std::vector<int>> owner(tables_, std::vector<int>(cap_, -1));
  for (int wi = 0; wi < wg(); ++wi) {
    for (int j = 0; j < 2; ++j) {
      const uint32_t t = pick_[2 * wi + j];
      const uint32_t at = lds[results_ + 2 * wi + j];
      if (at >= cap_) {
        p.Add("work-item ", wi, " got index ", at, " of table ", t, " (", load_[t], " values)");
        continue;
      }
      if (owner[t][at] >= 0) {
        p.Add("work-items ", owner[t][at], " and ", wi, " both got index ", at, " of table ", t,
              " (lost update)");
      }
      owner[t][at] = wi;
      if (lds[slots_ + t * cap_ + at] != Value(wi, j)) {
        p.Add("slot ", at, " of table ", t, " holds ", lds[slots_ + t * cap_ + at], ", work-item ",
              wi, " stored ", Value(wi, j), " there");
      }
    }
  }
  for (uint32_t t = 0; t < tables_; ++t) {
    for (uint32_t s = 0; s < cap_; ++s) {
      if ((s < load_[t]) != (lds[slots_ + t * cap_ + s] != 0)) {
        p.Add("slot ", s, " of table ", t, (s < load_[t] ? " is empty" : " is not empty"), " (",
              load_[t], " values in the table)");
      }
    }
  }
  if (version_ == Version::kSerial && lds[turn_] != static_cast<uint32_t>(wg())) {
    p.Add("the turn word is ", lds[turn_], ", expected ", wg());
  }
  return p.str();
}

}  // namespace

std::unique_ptr<Workload> MakeDatabase(const Geometry& geo, uint64_t seed, Contention c,
                                       Version v) {
  return std::make_unique<Database>(geo, seed, c, v);
}

}  // namespace htm::lds::detail
