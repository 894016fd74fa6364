// SPDX-License-Identifier: Apache-2.0
//
// GraphCut 1 and 2 (Chen, Peng & Irving, ISCA 2017, Table 3, §6: Karger's randomized minimum cut,
// 32 threads; a graph of 60 vertices and 180 edges, or 90 and 270): the contraction phase. Threads
// pick random edges and contract them, each contraction one transaction, until two super-vertices
// are left; the edges between them are the cut. "Each [contraction modifies] the structure of the
// graph. This can be compared to an insertion and a deletion in the linked list" (§7): the
// super-vertices are a linked list, and each keeps a linked list of the edge ends it holds.
//
// A contraction of edge (a, b): if the list holds fewer than three super-vertices, the thread
// stops; it finds the super-vertices of a and b (following the merged-into pointers); if they
// are the same the edge is a loop and nothing changes; else the second leaves the super-vertex
// list (found by walking it from the head), its edge ends are appended to the first's (through
// the first's tail pointer), and it points to the first. The thread's result word counts its
// contractions. The graph is connected (a random spanning tree, then random edges), so the
// contraction always ends with two super-vertices.
//
// Memory: the head of the super-vertex list; per thread a result word (its transactions count
// their contractions there) and a tally (the thread's own count, stored at its end); per vertex
// {merged into
// (itself while it is a super-vertex), next super-vertex, first edge end, last edge end}; per
// edge two ends {vertex, next end}.
// Check: the list holds exactly the vertices that point to themselves, and there are two; every
// vertex's merged-into pointers lead to one of them without a cycle; each one's edge-end list
// holds exactly the ends of the vertices that lead to it, each end once, and its tail pointer
// names the last; every result word equals its thread's tally (a lost or repeated contraction
// breaks that: a repeated one finds its edge already a loop), and they add up to the vertices
// less two.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "htm/workloads/common.h"
#include "workloads.h"

namespace htm::gpu::detail {
namespace {

constexpr uint32_t kHead = 0, kResults = 1;
constexpr uint32_t kRep = 0, kNext = 1, kFirstEnd = 2, kLastEnd = 3, kVertexWords = 4;
constexpr uint32_t kEndVertex = 0, kEndNext = 1, kEndWords = 2;

class GraphCut : public Workload {
 public:
  GraphCut(int threads, int vertices, int edges, uint64_t seed)
      : threads_(threads), vertices_(vertices), seed_(seed) {
    Rng rng(seed);
    // A random spanning tree, then random edges between distinct vertices.
    std::vector<uint32_t> order(static_cast<size_t>(vertices));
    for (int v = 0; v < vertices; ++v) {
      order[v] = static_cast<uint32_t>(v);
    }
    rng.Shuffle(order);
    for (int i = 1; i < vertices; ++i) {
      edges_.push_back({order[rng.Below(static_cast<uint64_t>(i))], order[i]});
    }
    while (static_cast<int>(edges_.size()) < edges) {
      const uint32_t a = rng.Below(static_cast<uint64_t>(vertices));
      const uint32_t b = rng.Below(static_cast<uint64_t>(vertices));
      if (a != b) {
        edges_.push_back({a, b});
      }
    }
  }

  int threads() const override { return threads_; }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem(End(static_cast<int>(edges_.size()), 0), kNil);
    mem[kHead] = Vertex(0);
    for (int t = 0; t < threads_; ++t) {
      mem[kResults + t] = 0;
      mem[Tally(t)] = 0;
    }
    for (int v = 0; v < vertices_; ++v) {
      mem[Vertex(v) + kRep] = Vertex(v);
      mem[Vertex(v) + kNext] = v + 1 < vertices_ ? Vertex(v + 1) : kNil;
    }
    for (int e = 0; e < static_cast<int>(edges_.size()); ++e) {
      for (int side = 0; side < 2; ++side) {
        const uint32_t v = Vertex(static_cast<int>(side == 0 ? edges_[e].a : edges_[e].b));
        const uint32_t end = End(e, side);
        mem[end + kEndVertex] = v;
        if (mem[v + kFirstEnd] == kNil) {
          mem[v + kFirstEnd] = end;
        } else {
          mem[mem[v + kLastEnd] + kEndNext] = end;
        }
        mem[v + kLastEnd] = end;
      }
    }
    return mem;
  }

  Task Kernel(Lane& l) override {
    const int t = l.tid();
    Rng rng(seed_ * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(t) + 1);
    bool done = false, contracted = false;
    uint32_t mine = 0;  // the contractions this thread's committed transactions made
    // Enough tries that a run ending before the contraction does is a fault the check shows.
    for (int tries = 0; tries < 64 * static_cast<int>(edges_.size()) && !done; ++tries) {
      const Edge e = edges_[rng.Below(edges_.size())];
      co_await l.Transaction([this, t, e, &done, &contracted](Lane& x) -> Task {
        done = contracted = false;  // the committed try's outcome counts
        co_await Contract(x, t, e, &done, &contracted);
      });
      mine += contracted ? 1 : 0;
    }
    co_await l.Store(Tally(t), mine);
  }

  bool OneTransactionPerThread() const override { return false; }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    std::vector<int> in_list(static_cast<size_t>(vertices_), 0);
    int listed = 0;
    uint32_t v = mem[kHead];
    for (int steps = 0; v != kNil && p.empty(); ++steps) {
      if (!IsVertex(v) || steps > vertices_) {
        p.Add("the super-vertex list reaches ", v, ", not a vertex, or loops");
        break;
      }
      if (mem[v + kRep] != v) {
        p.Add("vertex ", Index(v), " is listed but merged into ", mem[v + kRep]);
      }
      in_list[static_cast<size_t>(Index(v))] = 1;
      ++listed;
      v = mem[v + kNext];
    }
    if (p.empty() && listed != 2) {
      p.Add(listed, " super-vertices are left, not 2");
    }
    // Every vertex's super-vertex, without cycles.
    std::vector<int> root(static_cast<size_t>(vertices_), -1);
    for (int u = 0; u < vertices_ && p.empty(); ++u) {
      uint32_t x = Vertex(u);
      for (int steps = 0; mem[x + kRep] != x; ++steps) {
        if (!IsVertex(mem[x + kRep]) || steps > vertices_) {
          p.Add("vertex ", u, "'s merged-into pointers do not end at a super-vertex");
          break;
        }
        x = mem[x + kRep];
      }
      root[static_cast<size_t>(u)] = Index(x);
      if (p.empty() && in_list[static_cast<size_t>(Index(x))] == 0) {
        p.Add("vertex ", u, " leads to ", Index(x), ", which is not in the list");
      }
    }
    // Each super-vertex's edge ends: exactly those of the vertices leading to it, once each.
    std::vector<int> seen(2 * edges_.size(), 0);
    size_t ends = 0;
    for (int u = 0; u < vertices_ && p.empty(); ++u) {
      if (in_list[static_cast<size_t>(u)] == 0) {
        continue;
      }
      const uint32_t s = Vertex(u);
      uint32_t e = mem[s + kFirstEnd], last = kNil;
      for (int steps = 0; e != kNil && p.empty(); ++steps) {
        if (!IsEnd(e) || steps > static_cast<int>(2 * edges_.size())) {
          p.Add("super-vertex ", u, "'s edge ends reach ", e, ", not an end, or loop");
          break;
        }
        const auto i = static_cast<size_t>((e - End(0, 0)) / kEndWords);
        if (seen[i]++ > 0) {
          p.Add("edge end ", i, " is listed twice");
        } else if (root[static_cast<size_t>(Index(mem[e + kEndVertex]))] != u) {
          p.Add("edge end ", i, " of vertex ", Index(mem[e + kEndVertex]),
                " is listed under super-vertex ", u);
        }
        ++ends;
        last = e;
        e = mem[e + kEndNext];
      }
      if (p.empty() && last != kNil && mem[s + kLastEnd] != last) {
        p.Add("super-vertex ", u, "'s tail pointer is ", mem[s + kLastEnd], ", its last end ",
              last);
      }
    }
    if (p.empty() && ends != 2 * edges_.size()) {
      p.Add(ends, " edge ends are listed, not ", 2 * edges_.size());
    }
    uint64_t contractions = 0;
    for (int t = 0; t < threads_; ++t) {
      contractions += mem[kResults + t];
      if (p.empty() && mem[kResults + t] != mem[Tally(t)]) {
        p.Add("thread ", t, "'s committed contractions counted ", mem[Tally(t)],
              " in the thread and ", mem[kResults + t], " in memory");
      }
    }
    if (p.empty() && contractions != static_cast<uint64_t>(vertices_ - 2)) {
      p.Add("the threads counted ", contractions, " contractions, not ", vertices_ - 2);
    }
    return p.str();
  }

  std::string Describe() const override {
    std::ostringstream os;
    os << threads_ << " threads contract random edges of a " << vertices_ << "-vertex, "
       << edges_.size() << "-edge graph down to two super-vertices, one transaction each";
    return os.str();
  }

 private:
  struct Edge {
    uint32_t a, b;
  };

  /// The thread's own count of its contractions, stored after its last transaction.
  uint32_t Tally(int t) const { return kResults + static_cast<uint32_t>(threads_ + t); }
  uint32_t Vertex(int v) const {
    return kResults + 2 * static_cast<uint32_t>(threads_) + kVertexWords * static_cast<uint32_t>(v);
  }
  int Index(uint32_t vertex) const { return static_cast<int>((vertex - Vertex(0)) / kVertexWords); }
  bool IsVertex(uint32_t a) const {
    return a >= Vertex(0) && a < Vertex(vertices_) && (a - Vertex(0)) % kVertexWords == 0;
  }
  uint32_t End(int e, int side) const {
    return Vertex(vertices_) + kEndWords * static_cast<uint32_t>(2 * e + side);
  }
  bool IsEnd(uint32_t a) const {
    return a >= End(0, 0) && a < End(static_cast<int>(edges_.size()), 0) &&
           (a - End(0, 0)) % kEndWords == 0;
  }

  /// Follows the merged-into pointers from vertex v to its super-vertex; a non-vertex on an
  /// inconsistent read.
  Task Find(Lane& x, uint32_t v, uint32_t* out) const {
    for (int steps = 0; steps <= vertices_; ++steps) {
      const uint32_t r = co_await x.Load(v + kRep);
      if (r == v || !IsVertex(r)) {
        *out = r;
        co_return;
      }
      v = r;
    }
    *out = kNil;
  }

  /// One contraction attempt (the file's header); *done when fewer than three super-vertices
  /// are left, *contracted when it contracted the edge.
  Task Contract(Lane& x, int t, Edge e, bool* done, bool* contracted) const {
    // Three super-vertices at least: the list's first three.
    uint32_t h[3] = {co_await x.Load(kHead), kNil, kNil};
    for (int i = 1; i < 3 && IsVertex(h[i - 1]); ++i) {
      h[i] = co_await x.Load(h[i - 1] + kNext);
    }
    if (!IsVertex(h[2])) {
      *done = true;
      co_return;
    }
    uint32_t ru = kNil, rv = kNil;
    co_await Find(x, Vertex(static_cast<int>(e.a)), &ru);
    co_await Find(x, Vertex(static_cast<int>(e.b)), &rv);
    if (!IsVertex(ru) || !IsVertex(rv) || ru == rv) {
      co_return;  // a loop (or an inconsistent read, which the commit's validation catches)
    }
    // rv leaves the super-vertex list.
    uint32_t link = kHead, n = h[0];
    for (int steps = 0; n != rv; ++steps) {
      if (!IsVertex(n) || steps > vertices_) {
        co_return;
      }
      link = n + kNext;
      n = co_await x.Load(link);
    }
    const uint32_t v_next = co_await x.Load(rv + kNext);
    co_await x.Store(link, v_next);
    // rv's edge ends follow ru's.
    const uint32_t v_first = co_await x.Load(rv + kFirstEnd);
    if (v_first != kNil) {
      const uint32_t u_last = co_await x.Load(ru + kLastEnd);
      co_await x.Store(u_last == kNil ? ru + kFirstEnd : u_last + kEndNext, v_first);
      const uint32_t v_last = co_await x.Load(rv + kLastEnd);
      co_await x.Store(ru + kLastEnd, v_last);
    }
    co_await x.Store(rv + kRep, ru);
    const uint32_t count = co_await x.Load(kResults + static_cast<uint32_t>(t));
    co_await x.Store(kResults + static_cast<uint32_t>(t), count + 1);
    *contracted = true;
  }

  const int threads_, vertices_;
  const uint64_t seed_;
  std::vector<Edge> edges_;
};

}  // namespace

std::unique_ptr<Workload> MakeGraphCut(int threads, int vertices, int edges, uint64_t seed) {
  return std::make_unique<GraphCut>(threads, vertices, edges, seed);
}

}  // namespace htm::gpu::detail
