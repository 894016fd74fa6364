// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/si_oracle.h"

#include <algorithm>
#include <random>
#include <set>
#include <utility>

namespace htm::golden {

namespace {

enum class TxState { kRunning, kCommitted, kAborted, kForgotten };

struct Tx {
  int slot = 0;
  int left = 0;  // accesses still to make
  TxState state = TxState::kRunning;
};

struct Access {
  int tx;
  bool write;
};

}  // namespace

SiHistory GenerateSiHistory(const SiHistoryShape& shape, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto below = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  auto percent = [&](int pct) { return below(100) < pct; };

  SiHistory h;
  std::vector<Tx> txs;
  std::vector<int> running(static_cast<size_t>(shape.slots), -1);    // per slot
  std::vector<int> committed(static_cast<size_t>(shape.slots), -1);  // per slot
  std::vector<std::vector<Access>> log(static_cast<size_t>(shape.addresses));
  std::set<std::pair<int, int>> emitted;

  auto forget = [&](int tx) {
    for (auto& words : log) {
      words.erase(
          std::remove_if(words.begin(), words.end(), [&](const Access& x) { return x.tx == tx; }),
          words.end());
    }
  };
  auto end_tx = [&](int tx, bool commit) {
    Tx& t = txs[static_cast<size_t>(tx)];
    h.steps.push_back({commit ? PdOp::kCommit : PdOp::kAbort, t.slot, 0, tx, -1});
    running[static_cast<size_t>(t.slot)] = -1;
    if (commit) {
      t.state = TxState::kCommitted;
      committed[static_cast<size_t>(t.slot)] = tx;
    } else {
      t.state = TxState::kAborted;
      forget(tx);
    }
  };

  int started = 0;
  for (int guard = 0; guard < 100000; ++guard) {
    const bool any_running =
        std::any_of(running.begin(), running.end(), [](int t) { return t >= 0; });
    if (started >= shape.instances && !any_running) {
      break;
    }
    const int slot = below(shape.slots);
    const int cur = running[static_cast<size_t>(slot)];
    if (cur < 0) {
      if (started >= shape.instances) {
        continue;
      }
      // A new transaction on this slot: the slot's committed one is forgotten.
      if (const int old = committed[static_cast<size_t>(slot)]; old >= 0) {
        txs[static_cast<size_t>(old)].state = TxState::kForgotten;
        forget(old);
        committed[static_cast<size_t>(slot)] = -1;
      }
      const int tx = static_cast<int>(txs.size());
      txs.push_back({slot, 1 + below(shape.max_accesses), TxState::kRunning});
      running[static_cast<size_t>(slot)] = tx;
      h.steps.push_back({PdOp::kBegin, slot, 0, tx, -1});
      ++started;
      continue;
    }
    Tx& t = txs[static_cast<size_t>(cur)];
    if (t.left == 0 || percent(shape.abort_percent / 4)) {
      end_tx(cur, t.left == 0 && !percent(shape.abort_percent));
      continue;
    }
    // An access: edges from every earlier conflicting access to this word.
    const int addr = below(shape.addresses);
    const bool write = percent(shape.write_percent);
    for (const Access& x : log[static_cast<size_t>(addr)]) {
      if (x.tx == cur || !(x.write || write) || !emitted.insert({x.tx, cur}).second) {
        continue;
      }
      const Tx& pred = txs[static_cast<size_t>(x.tx)];
      h.steps.push_back({PdOp::kEdge, pred.slot, slot, x.tx, cur});
    }
    log[static_cast<size_t>(addr)].push_back({cur, write});
    --t.left;
  }
  h.instances = static_cast<int>(txs.size());
  for (const SiStep& s : h.steps) {
    if (s.op == PdOp::kEdge && txs[static_cast<size_t>(s.ia)].state != TxState::kAborted &&
        txs[static_cast<size_t>(s.ib)].state != TxState::kAborted) {
      h.graph.emplace_back(s.ia, s.ib);
    }
  }
  return h;
}

bool HasCycle(int n, const std::vector<std::pair<int, int>>& edges) {
  std::vector<std::vector<int>> adj(static_cast<size_t>(n));
  for (const auto& [u, v] : edges) {
    adj[static_cast<size_t>(u)].push_back(v);
  }
  // 0 = unvisited, 1 = on the stack, 2 = done.
  std::vector<int> color(static_cast<size_t>(n), 0);
  std::vector<std::pair<int, size_t>> stack;
  for (int root = 0; root < n; ++root) {
    if (color[static_cast<size_t>(root)] != 0) {
      continue;
    }
    stack.emplace_back(root, 0);
    color[static_cast<size_t>(root)] = 1;
    while (!stack.empty()) {
      auto& [u, i] = stack.back();
      const auto& out = adj[static_cast<size_t>(u)];
      if (i == out.size()) {
        color[static_cast<size_t>(u)] = 2;
        stack.pop_back();
        continue;
      }
      const int v = out[i++];
      if (color[static_cast<size_t>(v)] == 1) {
        return true;
      }
      if (color[static_cast<size_t>(v)] == 0) {
        color[static_cast<size_t>(v)] = 1;
        stack.emplace_back(v, 0);
      }
    }
  }
  return false;
}

SiOutcome RunSiHistory(const PostdateParams& p, const SiHistory& h) {
  SiOutcome out;
  out.cyclic = HasCycle(h.instances, h.graph);
  PostdateTable unit(p);
  for (const SiStep& s : h.steps) {
    const PdResult r = unit.Apply(static_cast<uint64_t>(s.op), static_cast<uint64_t>(s.a),
                                  static_cast<uint64_t>(s.b));
    if (r.ovf) {
      out.overflow = true;
      break;
    }
    if (r.loop) {
      out.declared = true;
      break;
    }
    out.edges += s.op == PdOp::kEdge;
  }
  return out;
}

SiOracleStats RunSiOracle(const PostdateParams& p, const SiHistoryShape& shape, uint64_t count,
                          uint64_t seed, bool stop_at_miss, uint64_t* first_miss_seed) {
  SiHistoryShape s = shape;
  s.slots = std::min(s.slots, p.num_tx);
  SiOracleStats st;
  std::mt19937_64 seeds(seed);
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t hs = seeds();
    const SiOutcome o = RunSiHistory(p, GenerateSiHistory(s, hs));
    ++st.histories;
    st.cyclic += o.cyclic;
    st.declared += o.declared;
    st.overflow += o.overflow;
    st.edges += static_cast<uint64_t>(o.edges);
    st.false_alarms += o.declared && !o.cyclic;
    if (o.cyclic && !o.declared && !o.overflow) {
      ++st.missed;
      if (first_miss_seed != nullptr && st.missed == 1) {
        *first_miss_seed = hs;
      }
      if (stop_at_miss) {
        break;
      }
    }
  }
  return st;
}

}  // namespace htm::golden
