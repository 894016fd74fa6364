// SPDX-License-Identifier: Apache-2.0
//
// QU, queue (thesis Table 5.7): a shared FIFO queue in an array, managed by a head and a tail
// pointer, initially empty. Every work-item performs 4 operations, each an enqueue (LC 12.5%,
// HC 25% of all operations) or a dequeue, which fails when the queue is empty. The critical
// section moves a pointer and stores (enqueue) or clears (dequeue) the value. Layout and checks:
// docs/lds_workloads.md.
#include <algorithm>
#include <string>
#include <vector>

#include "common.h"

namespace htm::lds::detail {
namespace {

constexpr int kOpsPerWi = 4;
constexpr int kOpWork = 8;  // ALU instructions before each operation
constexpr uint32_t kHead = 0, kTail = 1, kCount = 2, kTurn = 3, kBuf = 4;
constexpr uint32_t kEmpty = 0xFFFFFFFF;  // result of a dequeue that found the queue empty
constexpr uint32_t kUnset = 0xFFFFFFFE;  // result word before the work-item writes it
constexpr uint32_t kFull = 0xFFFFFFFD;   // result of an enqueue that found no room
constexpr uint32_t kValueTag = 0x40000000;

class Queue final : public BenchBase {
 public:
  Queue(const Geometry& geo, uint64_t seed, Contention c, Version v) : BenchBase("QU", geo, c, v) {
    const uint32_t ops = static_cast<uint32_t>(wg()) * kOpsPerWi;
    const uint32_t enqueues = std::max<uint32_t>(1, lc() ? ops / 8 : ops / 4);
    Rng rng(VariantSeed(seed, "QU", c));
    enqueue_.assign(ops, 0);
    std::fill(enqueue_.begin(), enqueue_.begin() + enqueues, 1);
    rng.Shuffle(enqueue_);
    cap_ = enqueues;
    results_ = kBuf + cap_;
    RequireFits(results_ + ops);
  }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> lds(results_ + enqueue_.size(), 0);
    std::fill(lds.begin() + results_, lds.end(), kUnset);
    return lds;
  }
  Task Kernel(Lane& l) override;
  std::string Check(const std::vector<uint32_t>& lds) const override;

 private:
  /// The value of operation `op` (= work-item * kOpsPerWi + its number) when it enqueues.
  static uint32_t Value(uint32_t op) { return kValueTag | op; }
  Task Enqueue(Lane& l, uint32_t value, uint32_t* result);
  Task Dequeue(Lane& l, uint32_t* result);

  std::vector<uint8_t> enqueue_;  // per operation: 1 for an enqueue, 0 for a dequeue
  uint32_t cap_ = 0;              // array slots: one per enqueue (slots are not reused)
  uint32_t results_ = 0;          // per operation: the slot enqueued to / the value dequeued
};

// The critical sections of the transactional and the serialized versions.
Task Queue::Enqueue(Lane& l, uint32_t value, uint32_t* result) {
  *result = kFull;
  const uint32_t tail = co_await l.Load(kTail);
  if (tail < cap_) {
    co_await l.Store(kBuf + tail, value);
    co_await l.Store(kTail, tail + 1);
    *result = tail;
  }
}

Task Queue::Dequeue(Lane& l, uint32_t* result) {
  *result = kEmpty;
  const uint32_t head = co_await l.Load(kHead);
  const uint32_t tail = co_await l.Load(kTail);
  if (head < tail) {
    const uint32_t v = co_await l.Load(kBuf + head);
    co_await l.Store(kBuf + head, 0);
    co_await l.Store(kHead, head + 1);
    *result = v;
  }
}

Task Queue::Kernel(Lane& l) {
  const int wi = l.wi();
  for (int k = 0; k < kOpsPerWi; ++k) {
    const uint32_t op = static_cast<uint32_t>(wi * kOpsPerWi + k);
    const bool enq = enqueue_[op] != 0;
    co_await l.Compute(kOpWork);
    uint32_t result = 0;
    if (version_ == Version::kTm) {
      if (enq) {
        co_await l.Transaction(
            [this, op, &result](Lane& t) { return Enqueue(t, Value(op), &result); });
      } else {
        co_await l.Transaction([this, &result](Lane& t) { return Dequeue(t, &result); });
      }
    } else if (version_ == Version::kSerial) {
      const uint32_t ticket = static_cast<uint32_t>(k * wg() + wi);
      for (bool done = false; !done;) {
        if (co_await l.Load(kTurn) == ticket) {
          if (enq) {
            co_await Enqueue(l, Value(op), &result);
          } else {
            co_await Dequeue(l, &result);
          }
          co_await l.Store(kTurn, ticket + 1);
          done = true;
        }
        co_await l.Latch();
      }
    } else if (enq) {
      // Atomics. Enqueue: reserve a slot, fill it, then publish it in the item count. The
      // enqueue code precedes the dequeue code, so a wavefront's enqueuers fill their slots
      // before its dequeuers can wait for one.
      result = co_await l.AtomAdd(kTail, 1);
      if (result < cap_) {
        co_await l.Store(kBuf + result, Value(op));
        co_await l.AtomAdd(kCount, 1);
      } else {
        result = kFull;
      }
    } else {
      // Dequeue: take an item from the count (undone when there was none), then a slot; wait
      // until its enqueuer has filled it.
      const uint32_t items = co_await l.AtomAdd(kCount, 0xFFFFFFFF);
      if (static_cast<int32_t>(items) > 0) {
        const uint32_t head = co_await l.AtomAdd(kHead, 1);
        result = kEmpty;
        if (head < cap_) {
          for (;;) {
            result = co_await l.Load(kBuf + head);
            if (result != 0) {
              break;
            }
            co_await l.Latch();
          }
          co_await l.Store(kBuf + head, 0);
        }
      } else {
        co_await l.AtomAdd(kCount, 1);
        result = kEmpty;
      }
    }
    co_await l.Store(results_ + op, result);
    co_await l.Latch();
  }
}

std::string Queue::Check(const std::vector<uint32_t>& lds) const {
  Problems p;
  const uint32_t ops = static_cast<uint32_t>(enqueue_.size());
  if (lds.size() < results_ + ops) {
    p.Add("the LDS has ", lds.size(), " words, the queue needs ", results_ + ops);
    return p.str();
  }
  const uint32_t head = lds[kHead], tail = lds[kTail];
  if (tail != cap_) {
    p.Add("the tail is ", tail, ", there were ", cap_, " enqueues",
          tail < cap_ ? " (lost update)" : " (duplicated update)");
  }
  if (head > tail) {
    p.Add("the head (", head, ") is past the tail (", tail, ")");
  }
  // Enqueues: each got its own slot, which holds its value until it is dequeued.
  std::vector<int64_t> slot_of(ops, -1);
  std::vector<int64_t> slot_owner(cap_, -1);
  for (uint32_t op = 0; op < ops; ++op) {
    if (!enqueue_[op]) {
      continue;
    }
    const uint32_t slot = lds[results_ + op];
    if (slot >= cap_) {
      p.Add("the enqueue of work-item ", op / kOpsPerWi, " got no slot (result ", slot, ")");
      continue;
    }
    if (slot_owner[slot] >= 0) {
      p.Add("enqueues of work-items ", slot_owner[slot] / kOpsPerWi, " and ", op / kOpsPerWi,
            " both got slot ", slot, " (lost update)");
    }
    slot_owner[slot] = op;
    slot_of[op] = slot;
    const uint32_t want = slot < head ? 0 : Value(op);
    if (lds[kBuf + slot] != want) {
      p.Add("slot ", slot, " holds ", lds[kBuf + slot], ", expected ", want, " (head ", head, ")");
    }
  }
  // Dequeues: each value taken at most once, from below the head; as many as the head says.
  std::vector<int> taken(ops, 0);
  uint32_t dequeued = 0;
  for (uint32_t op = 0; op < ops; ++op) {
    if (enqueue_[op]) {
      continue;
    }
    const uint32_t v = lds[results_ + op];
    if (v == kEmpty) {
      continue;
    }
    const uint32_t from = v & ~kValueTag;
    if ((v & kValueTag) == 0 || from >= ops || !enqueue_[from]) {
      p.Add("the dequeue of work-item ", op / kOpsPerWi, " got ", v, ", which was not enqueued");
      continue;
    }
    ++dequeued;
    if (++taken[from] == 2) {
      p.Add("the value of work-item ", from / kOpsPerWi, " was dequeued twice (duplicated)");
    }
    if (slot_of[from] >= static_cast<int64_t>(head)) {
      p.Add("the value of work-item ", from / kOpsPerWi, " was dequeued but is still in slot ",
            slot_of[from], " at or after the head ", head);
    }
  }
  if (dequeued != head) {
    p.Add(dequeued, " dequeues succeeded, the head is ", head);
  }
  for (uint32_t s = tail; s < cap_; ++s) {
    if (lds[kBuf + s] != 0) {
      p.Add("slot ", s, " after the tail holds ", lds[kBuf + s]);
    }
  }
  if (version_ == Version::kAtomic && lds[kCount] != tail - head) {
    p.Add("the item count is ", lds[kCount], ", tail - head is ", tail - head);
  }
  if (version_ == Version::kSerial && lds[kTurn] != ops) {
    p.Add("the turn word is ", lds[kTurn], ", expected ", ops);
  }
  return p.str();
}

}  // namespace

std::unique_ptr<Workload> MakeQueue(const Geometry& geo, uint64_t seed, Contention c, Version v) {
  return std::make_unique<Queue>(geo, seed, c, v);
}

}  // namespace htm::lds::detail
