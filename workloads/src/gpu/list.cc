// SPDX-License-Identifier: Apache-2.0
//
// Linked List, List (ListRel of DSTM2; Chen & Peng, HPCA 2016, Table 2: 23 040 threads): every
// thread inserts one distinct key into one sorted singly linked list. It finds the insertion point
// without a transaction, then its transaction walks on from there to the exact point (other threads
// may have inserted meanwhile) and links its node.
// LinkedList1 and LinkedList2 (Chen, Peng & Irving, ISCA 2017, Table 3: 100 and 200 threads into an
// initially empty list, no early release): the same insertion with the whole walk, from the head,
// in the transaction.
//
// Memory: the head sentinel {0, next}, the tail sentinel {0xFFFFFFFF, nil}, then a node {key,
// next} per thread. A node is linked only by its own transaction, which also writes its key.
// Commit writes of one transaction land in different partitions at different times, so the
// non-transactional walk may see a node linked before its next pointer or its key: a node's
// next starts at the tail sentinel, which keeps every walk inside the list, and its key is in
// memory from the start, so the walk never passes a node whose key is above its own (the
// transaction starts after the walk's last node and does not re-read that node's key).
// Check: from the head, keys strictly increase and the walk ends at the tail after every thread's
// node exactly once.
#include <sstream>
#include <string>
#include <vector>

#include "htm/workloads/common.h"
#include "workloads.h"

namespace htm::gpu::detail {
namespace {

constexpr uint32_t kHead = 0, kTail = 2, kFirstNode = 4;

class List : public Workload {
 public:
  List(int threads, bool walk_in_tx, uint64_t seed)
      : threads_(threads),
        walk_in_tx_(walk_in_tx),
        keys_(Rng(seed).Distinct(threads, (1u << 30) - 1)) {
    for (uint32_t& k : keys_) {
      ++k;  // 1 .. 2^30 - 1: strictly between the sentinels
    }
  }

  int threads() const override { return threads_; }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem(kFirstNode + 2 * threads_, 0);
    mem[kHead] = 0;
    mem[kHead + 1] = kTail;
    mem[kTail] = 0xFFFFFFFFu;
    mem[kTail + 1] = kNil;
    for (int t = 0; t < threads_; ++t) {
      mem[Node(t)] = keys_[t];
      mem[Node(t) + 1] = kTail;
    }
    return mem;
  }

  Task Kernel(Lane& l) override {
    const uint32_t key = keys_[l.tid()];
    const uint32_t node = Node(l.tid());
    const int limit = threads_ + 2;
    // The insertion point, without a transaction: the last node with a smaller key.
    uint32_t prev = kHead;
    for (int steps = 0; steps < limit && !walk_in_tx_; ++steps) {
      const uint32_t next = co_await l.Load(prev + 1);
      const uint32_t next_key = co_await l.Load(next);
      if (next_key >= key) {
        break;
      }
      prev = next;
      co_await l.Latch();
    }
    co_await l.Transaction([this, key, node, prev, limit](Lane& t) -> Task {
      uint32_t p = prev, next = kTail;
      for (int steps = 0; steps < limit; ++steps) {
        next = co_await t.Load(p + 1);
        if (!IsNode(next)) {
          co_return;  // an inconsistent read: the commit's validation fails and the body reruns
        }
        const uint32_t next_key = co_await t.Load(next);
        if (next_key >= key) {
          break;
        }
        p = next;
        co_await t.Latch();
      }
      co_await t.Store(node, key);
      co_await t.Store(node + 1, next);
      co_await t.Store(p + 1, node);
    });
  }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    std::vector<int> seen(threads_, 0);
    uint32_t n = mem[kHead + 1], last = 0;
    int len = 0;
    while (n != kTail && p.empty()) {
      if (!IsNode(n) || n == kHead) {
        p.Add("after key ", last, ": pointer ", n, " is not a node");
        break;
      }
      const int t = static_cast<int>((n - kFirstNode) / 2);
      if (seen[t]++ > 0) {
        p.Add("the node of thread ", t, " is reached twice (a cycle)");
        break;
      }
      if (mem[n] != keys_[t]) {
        p.Add("the node of thread ", t, " holds key ", mem[n], ", the thread inserts ", keys_[t]);
      }
      if (mem[n] <= last) {
        p.Add("key ", mem[n], " follows key ", last, " (not sorted)");
      }
      last = mem[n];
      ++len;
      n = mem[n + 1];
    }
    AddMissingKeys(p, "list", len, seen, keys_);
    return p.str();
  }

  std::string Describe() const override {
    std::ostringstream os;
    os << threads_ << " threads insert one key each into a sorted linked list; "
       << (walk_in_tx_ ? "the whole walk from the head is in the transaction"
                       : "the insertion point is found outside the transaction");
    return os.str();
  }

 private:
  bool IsNode(uint32_t a) const {
    return a == kTail || (a >= kFirstNode && a < kFirstNode + 2 * static_cast<uint32_t>(threads_) &&
                          (a - kFirstNode) % 2 == 0);
  }
  static uint32_t Node(int t) { return kFirstNode + 2 * static_cast<uint32_t>(t); }

  const int threads_;
  const bool walk_in_tx_;
  std::vector<uint32_t> keys_;
};

}  // namespace

std::unique_ptr<Workload> MakeList(int threads, bool walk_in_tx, uint64_t seed) {
  return std::make_unique<List>(threads, walk_in_tx, seed);
}

}  // namespace htm::gpu::detail
