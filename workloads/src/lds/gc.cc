// SPDX-License-Identifier: Apache-2.0
//
// GC, graph colouring (thesis Table 5.7): decentralized repair of a random colouring (1, 2, 3)
// of a graph whose nodes all have two neighbours (a cycle through the nodes in random order).
// Each work-item visits nodes; the critical section reads the node and its two neighbours and,
// when the node's colour equals a neighbour's, gives it the smallest colour neither neighbour has
// (else the transaction is read-only). LC: a cycle of 2 x wg_size nodes, every node visited
// once; HC: a cycle of wg_size / 8 nodes, every node visited about 16 times. Every node word
// counts its updates (a version), so Check() can rebuild the serial order and replay it. Layout:
// docs/lds_workloads.md.
#include <algorithm>
#include <string>
#include <vector>

#include "common.h"

namespace htm::lds::detail {
namespace {

constexpr int kRounds = 2;     // nodes visited per work-item
constexpr int kPickOps = 4;    // ALU instructions finding the node and its neighbours
constexpr int kColourOps = 6;  // ALU instructions choosing the colour
constexpr uint32_t kUnset = 0xFFFFFFFF;
constexpr uint32_t kVerBits = 10;         // per version in a result word (three of them)
constexpr uint32_t kWroteBit = 1u << 30;  // result word: the node was recoloured

uint32_t Colour(uint32_t word) {
  return word & 0xFF;
}
uint32_t Ver(uint32_t word) {
  return word >> 8;
}
/// The smallest colour (from 1) that neither neighbour has.
uint32_t Choose(uint32_t c1, uint32_t c2) {
  uint32_t c = 1;
  while (c == c1 || c == c2) {
    ++c;
  }
  return c;
}

class GraphColoring final : public BenchBase {
 public:
  GraphColoring(const Geometry& geo, uint64_t seed, Contention c, Version v)
      : BenchBase("GC", geo, c, v) {
    const uint32_t ops = static_cast<uint32_t>(wg()) * kRounds;
    if (ops < 4) {
      Refuse("needs at least 2 work-items: every node of a 4-node cycle must be visited");
    }
    nodes_ = lc() ? ops : std::max<uint32_t>(4, static_cast<uint32_t>(wg()) / 8);
    Rng rng(VariantSeed(seed, "GC", c));
    // The graph: one cycle through the nodes in random order.
    std::vector<uint32_t> cycle(nodes_);
    for (uint32_t i = 0; i < nodes_; ++i) {
      cycle[i] = i;
    }
    rng.Shuffle(cycle);
    nbr_.resize(nodes_);
    for (uint32_t i = 0; i < nodes_; ++i) {
      nbr_[cycle[i]] = {cycle[(i + nodes_ - 1) % nodes_], cycle[(i + 1) % nodes_]};
    }
    // The initial colouring, at random.
    colours0_.resize(nodes_);
    for (uint32_t& c : colours0_) {
      c = rng.Range(1, 3);
    }
    // The work: every node the same number of times (give or take one), in random order.
    node_of_.resize(ops);
    for (uint32_t k = 0; k < ops; ++k) {
      node_of_[k] = k % nodes_;
    }
    rng.Shuffle(node_of_);
    if ((ops + nodes_ - 1) / nodes_ >= (1u << kVerBits)) {
      Refuse("too many visits per node for the result words");
    }
    locks_ = nodes_;
    results_ = locks_ + nodes_;
    turn_ = results_ + ops;
    RequireFits(turn_ + 1);
  }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> lds(turn_ + 1, 0);
    std::copy(colours0_.begin(), colours0_.end(), lds.begin());
    std::fill(lds.begin() + results_, lds.begin() + turn_, kUnset);
    return lds;
  }
  Task Kernel(Lane& l) override;
  std::string Check(const std::vector<uint32_t>& lds) const override;

 private:
  Task Recolour(Lane& l, uint32_t node, uint32_t* record);

  uint32_t nodes_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> nbr_;  // a node's two neighbours
  std::vector<uint32_t> colours0_;                  // the initial colouring
  std::vector<uint32_t> node_of_;  // work-item w's round r visits node_of_[w * kRounds + r]
  // Layout: the nodes (colour | version << 8) at 0, then a lock per node (FGL), the results (per
  // visit, the versions read: node, neighbour 1, neighbour 2, 10 bits each; bit 30: the node was
  // recoloured), the turn.
  uint32_t locks_ = 0, results_ = 0, turn_ = 0;
};

// The critical section: read the node and its neighbours; recolour the node if it has a
// neighbour's colour.
Task GraphColoring::Recolour(Lane& l, uint32_t node, uint32_t* record) {
  const auto [n1, n2] = nbr_[node];
  const uint32_t self = co_await l.Load(node);
  const uint32_t a = co_await l.Load(n1);
  const uint32_t b = co_await l.Load(n2);
  co_await l.Compute(kColourOps);
  *record = Ver(self) | Ver(a) << kVerBits | Ver(b) << (2 * kVerBits);
  if (Colour(self) == Colour(a) || Colour(self) == Colour(b)) {
    co_await l.Store(node, Choose(Colour(a), Colour(b)) | (Ver(self) + 1) << 8);
    *record |= kWroteBit;
  }
}

Task GraphColoring::Kernel(Lane& l) {
  const int wi = l.wi();
  for (int r = 0; r < kRounds; ++r) {
    const uint32_t op = static_cast<uint32_t>(wi * kRounds + r);
    const uint32_t node = node_of_[op];
    co_await l.Compute(kPickOps);
    uint32_t record = 0;
    if (version_ == Version::kTm) {
      co_await l.Transaction([this, node, &record](Lane& t) { return Recolour(t, node, &record); });
    } else if (version_ == Version::kSerial) {
      const uint32_t ticket = static_cast<uint32_t>(r * wg() + wi);
      for (bool done = false; !done;) {
        if (co_await l.Load(turn_) == ticket) {
          co_await Recolour(l, node, &record);
          co_await l.Store(turn_, ticket + 1);
          done = true;
        }
        co_await l.Latch();
      }
    } else {
      // The three nodes' locks in index order; a failure releases the ones taken.
      uint32_t lock[3] = {node, nbr_[node].first, nbr_[node].second};
      std::sort(lock, lock + 3);
      for (bool done = false; !done;) {
        int got = 0;
        for (int i = 0; i < 3; ++i) {
          if (got == i && co_await l.Cas(locks_ + lock[i], 0, 1) == 0) {
            ++got;
          }
          co_await l.Latch();
        }
        if (got == 3) {
          co_await Recolour(l, node, &record);
          done = true;
        }
        for (int i = got - 1; i >= 0; --i) {
          co_await l.Store(locks_ + lock[i], 0);
          co_await l.Latch();
        }
        co_await l.Latch();
      }
    }
    co_await l.Store(results_ + op, record);
    co_await l.Latch();
  }
}

std::string GraphColoring::Check(const std::vector<uint32_t>& lds) const {
  Problems p;
  if (lds.size() <= turn_) {
    p.Add("the LDS has ", lds.size(), " words, the graph needs ", turn_ + 1);
    return p.str();
  }
  std::vector<uint32_t> final_versions(nodes_);
  for (uint32_t n = 0; n < nodes_; ++n) {
    final_versions[n] = Ver(lds[n]);
    if (lds[locks_ + n] != 0) {
      p.Add("the lock of node ", n, " is still held");
    }
  }
  const uint32_t field = (1u << kVerBits) - 1;
  std::vector<VersionedRecord> records(node_of_.size());
  for (size_t k = 0; k < node_of_.size(); ++k) {
    const uint32_t rec = lds[results_ + k];
    const uint32_t n = node_of_[k];
    records[k].wi = static_cast<int>(k) / kRounds;
    records[k].round = static_cast<int>(k) % kRounds;
    records[k].access = {{n, rec & field, (rec & kWroteBit) != 0},
                         {nbr_[n].first, rec >> kVerBits & field, false},
                         {nbr_[n].second, rec >> (2 * kVerBits) & field, false}};
  }
  const std::vector<size_t> order = SerialOrder(records, final_versions, &p);
  if (!p.empty()) {
    return p.str();
  }
  std::vector<uint32_t> colour = colours0_;
  for (const size_t k : order) {
    const uint32_t n = node_of_[k];
    const uint32_t c1 = colour[nbr_[n].first], c2 = colour[nbr_[n].second];
    const bool recolour = colour[n] == c1 || colour[n] == c2;
    if (recolour != ((lds[results_ + k] & kWroteBit) != 0)) {
      p.Add("work-item ", records[k].wi, " round ", records[k].round,
            (recolour ? " kept" : " changed"), " the colour of node ", n,
            ", replaying the visits says otherwise");
    }
    if (recolour) {
      colour[n] = Choose(c1, c2);
    }
  }
  for (uint32_t n = 0; n < nodes_; ++n) {
    if (Colour(lds[n]) != colour[n]) {
      p.Add("node ", n, " has colour ", Colour(lds[n]), ", replaying the visits gives ", colour[n],
            " (torn update)");
    }
    if (Colour(lds[n]) == 0 || Colour(lds[n]) > 3) {
      p.Add("node ", n, " has colour ", Colour(lds[n]));
    }
    if (Colour(lds[n]) == Colour(lds[nbr_[n].second])) {
      p.Add("nodes ", n, " and ", nbr_[n].second, " are neighbours with the same colour ",
            Colour(lds[n]));
    }
  }
  if (version_ == Version::kSerial && lds[turn_] != node_of_.size()) {
    p.Add("the turn word is ", lds[turn_], ", expected ", node_of_.size());
  }
  return p.str();
}

}  // namespace

std::unique_ptr<Workload> MakeGraphColoring(const Geometry& geo, uint64_t seed, Contention c,
                                            Version v) {
  return std::make_unique<GraphColoring>(geo, seed, c, v);
}

}  // namespace htm::lds::detail
