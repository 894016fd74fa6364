// SPDX-License-Identifier: Apache-2.0
//
// Snapshot isolation in the system model: see htm/gpu/si.h.
#include "htm/machine/gpu/si.h"

#include <algorithm>
#include <queue>
#include <stdexcept>

namespace htm::gpu {

// ---- SnapshotMemory -----------------------------------------------------------------------------

SnapshotMemory::SnapshotMemory(const std::vector<uint32_t>& initial, int max_snapshots)
    : init_(initial), versions_(initial.size()), max_(max_snapshots) {
  if (max_snapshots < 2) {
    throw std::invalid_argument("snapshot isolation needs at least 2 versions");
  }
}

SnapshotMemory::Version SnapshotMemory::At(uint32_t addr, uint64_t snap) const {
  const std::vector<Version>& v = versions_[addr];
  for (auto it = v.rbegin(); it != v.rend(); ++it) {
    if (it->snap <= snap) {
      return *it;
    }
  }
  return Version{0, -1, init_[addr]};
}

bool SnapshotMemory::Acquire(uint64_t snap) {
  return ++refs_[snap] == 1;
}

bool SnapshotMemory::Release(uint64_t snap) {
  const auto it = refs_.find(snap);
  if (it == refs_.end()) {
    throw std::logic_error("snapshot " + std::to_string(snap) + " released but not in use");
  }
  if (--it->second == 0) {
    refs_.erase(it);
    return true;
  }
  return false;
}

int SnapshotMemory::live() const {
  return static_cast<int>(refs_.size()) + (refs_.count(newest_) != 0 ? 0 : 1);
}

void SnapshotMemory::Publish(const std::vector<std::pair<int64_t, WordLog>>& txs) {
  ++newest_;
  for (const auto& [node, writes] : txs) {
    for (const auto& [a, v] : writes) {
      std::vector<Version>& vs = versions_[a];
      if (!vs.empty() && vs.back().snap == newest_) {
        vs.back() = Version{newest_, node, v};  // a later commit of the same snapshot
      } else {
        vs.push_back(Version{newest_, node, v});
      }
      Prune(a);
    }
  }
}

void SnapshotMemory::WriteNow(uint32_t addr, uint32_t value, int64_t node) {
  versions_[addr].push_back(Version{newest_, node, value});
  Prune(addr);
}

void SnapshotMemory::Prune(uint32_t addr) {
  // Versions older than the newest one the oldest snapshot in use reads are never read again.
  const uint64_t oldest = refs_.empty() ? newest_ : std::min(refs_.begin()->first, newest_);
  std::vector<Version>& vs = versions_[addr];
  size_t keep = 0;
  for (size_t i = 0; i < vs.size(); ++i) {
    if (vs[i].snap <= oldest) {
      keep = i;
    }
  }
  if (keep > 0) {
    vs.erase(vs.begin(), vs.begin() + static_cast<std::ptrdiff_t>(keep));
  }
}

// ---- SiGraph ------------------------------------------------------------------------------------

int64_t SiGraph::NextWriter(const Word& w, Key k) const {
  const auto it = std::upper_bound(w.writers.begin(), w.writers.end(), k,
                                   [this](Key key, int64_t n) { return key < KeyOf(n); });
  return it == w.writers.end() ? -1 : *it;
}

void SiGraph::Edges(const Candidate& c, std::vector<int64_t>* preds,
                    std::vector<int64_t>* succs) const {
  if (c.reads != nullptr) {
    for (size_t i = 0; i < c.reads->size(); ++i) {
      const uint32_t a = (*c.reads)[i].first;
      const int64_t seen = (*c.seen)[i];
      if (seen >= 0) {
        preds->push_back(seen);  // write -> read: it returned that version
      }
      const auto it = words_.find(a);
      if (it != words_.end()) {
        // read -> write: the next version of the word was written after the one it read (the
        // versions after that one follow by the write-write chain).
        if (const int64_t next = NextWriter(it->second, KeyOf(seen)); next >= 0) {
          succs->push_back(next);
        }
      }
    }
  }
  if (c.writes != nullptr) {
    for (const auto& [a, v] : *c.writes) {
      const auto it = words_.find(a);
      if (it == words_.end()) {
        continue;
      }
      const Word& w = it->second;
      // write -> write: its neighbours in the word's write order.
      const auto pos = std::lower_bound(w.writers.begin(), w.writers.end(), c.key,
                                        [this](int64_t n, Key key) { return KeyOf(n) < key; });
      if (pos != w.writers.begin()) {
        preds->push_back(*(pos - 1));
      }
      if (pos != w.writers.end()) {
        succs->push_back(*pos);
      }
      // read -> write for the readers of an older version; write -> read for a newer one.
      for (const auto& [r, seen] : w.readers) {
        (KeyOf(seen) < c.key ? preds : succs)->push_back(r);
      }
    }
  }
}

bool SiGraph::ClosesCycle(const Candidate& c) {
  std::vector<int64_t> preds, succs;
  Edges(c, &preds, &succs);
  if (preds.empty() || succs.empty()) {
    return false;
  }
  mark_.resize(nodes_.size(), 0);
  visit_.resize(nodes_.size(), 0);
  ++epoch_;
  for (const int64_t p : preds) {
    mark_[static_cast<size_t>(p)] = epoch_;
  }
  // Depth-first search from the successors: a cycle when it reaches a predecessor.
  std::vector<int64_t> stack(succs.begin(), succs.end());
  while (!stack.empty()) {
    const auto n = static_cast<size_t>(stack.back());
    stack.pop_back();
    if (mark_[n] == epoch_) {
      return true;
    }
    if (visit_[n] == epoch_) {
      continue;
    }
    visit_[n] = epoch_;
    for (const int64_t o : nodes_[n].out) {
      if (visit_[static_cast<size_t>(o)] != epoch_) {
        stack.push_back(o);
      }
    }
  }
  return false;
}

void SiGraph::PruneReaders(Word& w) const {
  std::erase_if(w.readers, [&](const std::pair<int64_t, int64_t>& r) {
    const int64_t next = NextWriter(w, KeyOf(r.second));
    return next >= 0 && KeyOf(next) < horizon_;
  });
}

int64_t SiGraph::Add(const Candidate& c, LogEvent e) {
  std::vector<int64_t> preds, succs;
  Edges(c, &preds, &succs);
  const auto n = static_cast<int64_t>(nodes_.size());
  Node node;
  node.key = c.key;
  node.e = std::move(e);
  if (c.seen != nullptr) {
    node.seen = *c.seen;
  }
  std::sort(succs.begin(), succs.end());
  succs.erase(std::unique(succs.begin(), succs.end()), succs.end());
  node.out = std::move(succs);
  edges_ += node.out.size();
  std::sort(preds.begin(), preds.end());
  preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
  nodes_.push_back(std::move(node));
  for (const int64_t p : preds) {
    nodes_[static_cast<size_t>(p)].out.push_back(n);
    ++edges_;
  }
  if (c.reads != nullptr) {
    for (size_t i = 0; i < c.reads->size(); ++i) {
      Word& w = words_[(*c.reads)[i].first];
      w.readers.push_back({n, (*c.seen)[i]});
      PruneReaders(w);
    }
  }
  if (c.writes != nullptr) {
    for (const auto& [a, v] : *c.writes) {
      Word& w = words_[a];
      const auto pos = std::lower_bound(w.writers.begin(), w.writers.end(), c.key,
                                        [this](int64_t m, Key key) { return KeyOf(m) < key; });
      w.writers.insert(pos, n);
      PruneReaders(w);
    }
  }
  return n;
}

std::string SiGraph::Name(int64_t n) const {
  const LogEvent& e = event(n);
  return e.kind == LogEvent::Kind::kTx
             ? "the transaction of thread " + std::to_string(e.thread) + " (commit id " +
                   std::to_string(e.cid) + ", cycle " + std::to_string(e.cycle) + ")"
             : "the write of thread " + std::to_string(e.thread) + " at cycle " +
                   std::to_string(e.cycle);
}

bool SiGraph::Order(std::vector<int64_t>* order, std::string* cycle) const {
  const size_t n = nodes_.size();
  std::vector<uint64_t> in(n, 0);
  for (const Node& node : nodes_) {
    for (const int64_t o : node.out) {
      ++in[static_cast<size_t>(o)];
    }
  }
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> ready;
  for (size_t i = 0; i < n; ++i) {
    if (in[i] == 0) {
      ready.push(static_cast<int64_t>(i));
    }
  }
  order->clear();
  while (!ready.empty()) {
    const int64_t m = ready.top();
    ready.pop();
    order->push_back(m);
    for (const int64_t o : nodes_[static_cast<size_t>(m)].out) {
      if (--in[static_cast<size_t>(o)] == 0) {
        ready.push(o);
      }
    }
  }
  if (order->size() == n) {
    return true;
  }
  // Every node left has a predecessor left: walk back along them until one repeats.
  std::vector<std::vector<int64_t>> back(n);
  for (size_t i = 0; i < n; ++i) {
    if (in[i] == 0) {
      continue;
    }
    for (const int64_t o : nodes_[i].out) {
      if (in[static_cast<size_t>(o)] != 0) {
        back[static_cast<size_t>(o)].push_back(static_cast<int64_t>(i));
      }
    }
  }
  int64_t at = -1;
  for (size_t i = 0; i < n && at < 0; ++i) {
    at = in[i] != 0 ? static_cast<int64_t>(i) : -1;
  }
  std::vector<int64_t> path;
  std::vector<size_t> pos(n, SIZE_MAX);
  while (pos[static_cast<size_t>(at)] == SIZE_MAX) {
    pos[static_cast<size_t>(at)] = path.size();
    path.push_back(at);
    at = back[static_cast<size_t>(at)].front();
  }
  std::vector<int64_t> loop(
      path.begin() + static_cast<std::ptrdiff_t>(pos[static_cast<size_t>(at)]), path.end());
  std::reverse(loop.begin(), loop.end());  // now in edge direction
  std::string s;
  for (const int64_t m : loop) {
    s += Name(m) + " -> ";
  }
  *cycle = s + Name(loop.front());
  order->clear();
  return false;
}

}  // namespace htm::gpu
