// SPDX-License-Identifier: Apache-2.0
//
// The kernel interface of every workload, on the LDS (GPU-LocalTM, htm/lds/) and on global memory
// (the GPU-TM system model, htm/gpu/): a kernel is ordinary C++ written for one thread (work-item),
// as a coroutine that suspends at every operation the machine must time or order (loads, stores
// and atomics, ALU work, barriers, transactions). An executor runs the threads: the functional
// executor (htm/gpu/func_exec.h) one thread at a time; the LDS compute-unit model
// (htm/lds/cu_model.h) wavefront by wavefront on the golden LDS top (htm_lds_tm); the system
// model (htm/gpu/system.h) warp by warp on SIMT cores and commit units.
//
//   htm::gpu::Task Kernel(htm::gpu::Lane& l) {
//     const uint32_t v = co_await l.Load(l.tid());
//     co_await l.Compute(4);
//     co_await l.Transaction([&, v](htm::gpu::Lane& t) -> htm::gpu::Task {
//       const uint32_t c = co_await t.Load(100);
//       co_await t.Store(100, c + v);
//     });
//   }
//
// Program points. Every operation records the source location of its call (a default
// argument): threads of a warp at the same program point with the same operation issue together
// as one warp instruction; the executor runs the group with the lowest program point first,
// which reconverges structured code (if/else, loops) the way a SIMT stack does, provided that
// every loop whose iterations diverge ends with Latch(). Write a kernel in program order in one
// source file.
//
// Transactions. The body is a callable returning a Task; it runs as a transaction and is
// restarted from the beginning (a new coroutine frame: the register checkpoint of the thesis,
// 5.2.3) whenever the thread's try aborts, until a try commits. The body may capture variables by
// reference only to hand results out: a restarted body must overwrite them. Transactions do not
// nest; no barrier and no atomic inside a body. A body on global memory may see inconsistent
// values before it aborts (KILO TM validates at commit): it must stay inside its data (bound its
// loops, check indices) whatever it reads.
#pragma once

#include <coroutine>
#include <cstdint>
#include <exception>
#include <functional>
#include <source_location>
#include <string>
#include <utility>

namespace htm::gpu {

/// What a suspended thread waits for.
enum class OpKind : uint8_t {
  kNone,      // running, or not started
  kLoad,      // read of addr; result = the value
  kStore,     // write of data at addr
  kAtomAdd,   // atomic add (non-transactional); result = the old value
  kAtomCas,   // compare-and-swap (non-transactional): if old == cmp then data; result = old
  kCompute,   // `count` ALU instructions
  kBarrier,   // work-group barrier
  kLatch,     // a loop's back-edge branch (see Latch())
  kFence,     // memory fence: the thread's earlier stores are performed first (see Fence())
  kTxBegin,   // waits to start (or restart) its transaction body
  kTxCommit,  // the body finished; waits for TX_Commit
  kDone,      // the kernel returned
};

/// The operation's name in messages.
inline const char* OpKindName(OpKind k) {
  switch (k) {
    case OpKind::kNone:
      return "nothing";
    case OpKind::kLoad:
      return "load";
    case OpKind::kStore:
      return "store";
    case OpKind::kAtomAdd:
      return "atomic add";
    case OpKind::kAtomCas:
      return "compare-and-swap";
    case OpKind::kCompute:
      return "compute";
    case OpKind::kBarrier:
      return "barrier";
    case OpKind::kLatch:
      return "latch";
    case OpKind::kFence:
      return "fence";
    case OpKind::kTxBegin:
      return "TX_Begin";
    case OpKind::kTxCommit:
      return "TX_Commit";
    case OpKind::kDone:
      return "end";
  }
  return "?";
}

/// A memory access (it has an address): load, store or atomic.
inline bool IsMemAccess(OpKind k) {
  return k == OpKind::kLoad || k == OpKind::kStore || k == OpKind::kAtomAdd ||
         k == OpKind::kAtomCas;
}

/// A program point: the source line and column of an operation's call.
inline uint32_t ProgramPoint(const std::source_location& loc) {
  return (static_cast<uint32_t>(loc.line()) << 10) | (static_cast<uint32_t>(loc.column()) & 1023);
}

/// "line:column" of a program point, for messages.
inline std::string PcText(uint32_t pc) {
  return std::to_string(pc >> 10) + ":" + std::to_string(pc & 1023);
}

/// The operation a suspended thread waits on.
struct Op {
  OpKind kind = OpKind::kNone;
  uint32_t pc = 0;  // program point (ProgramPoint of the call)
  uint32_t addr = 0;
  uint32_t data = 0;  // store value, atomic operand
  uint32_t cmp = 0;   // compare value of kAtomCas
  int count = 0;      // kCompute: ALU instructions
};

/// A coroutine of one thread: a kernel, a transaction body or a helper it awaits. Lazily
/// started; awaiting a Task runs it and resumes the awaiter when it returns.
class Task {
 public:
  struct promise_type {
    std::coroutine_handle<> continuation = std::noop_coroutine();
    std::exception_ptr error;

    Task get_return_object() { return Task(Handle::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    auto final_suspend() noexcept {
      struct Final {
        bool await_ready() noexcept { return false; }
        std::coroutine_handle<> await_suspend(Handle h) noexcept {
          return h.promise().continuation;
        }
        void await_resume() noexcept {}
      };
      return Final{};
    }
    void return_void() {}
    void unhandled_exception() { error = std::current_exception(); }
  };
  using Handle = std::coroutine_handle<promise_type>;

  Task() = default;
  explicit Task(Handle h) : h_(h) {}
  Task(Task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  Task& operator=(Task&& o) noexcept {
    if (this != &o) {
      Destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { Destroy(); }

  bool valid() const { return static_cast<bool>(h_); }
  bool done() const { return !h_ || h_.done(); }
  Handle handle() const { return h_; }
  /// Rethrows an exception the coroutine ended with.
  void Rethrow() const {
    if (h_ && h_.promise().error) {
      std::rethrow_exception(h_.promise().error);
    }
  }

  // Awaiting a Task: run it; resume the awaiter when it returns.
  bool await_ready() const noexcept { return !h_ || h_.done(); }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiter) noexcept {
    h_.promise().continuation = awaiter;
    return h_;
  }
  void await_resume() const { Rethrow(); }

 private:
  void Destroy() {
    if (h_) {
      h_.destroy();
      h_ = {};
    }
  }
  Handle h_;
};

using TxBody = std::function<Task(class Lane&)>;

/// One thread (work-item) as a kernel sees it, and as an executor drives it.
class Lane {
 public:
  Lane(int wi, int wf_size, int wg_size) : wi_(wi), wf_size_(wf_size), wg_size_(wg_size) {}
  Lane(const Lane&) = delete;
  Lane& operator=(const Lane&) = delete;

  // ---- For kernels ---------------------------------------------------------------------------
  // Global memory (the system model): the thread, its warp, the number of threads.
  int tid() const { return wi_; }
  int warp() const { return wi_ / wf_size_; }
  int nthreads() const { return wg_size_; }
  // The LDS (GPU-LocalTM): the same in OpenCL's words, for one work-group.
  int wi() const { return wi_; }               // work-item id in the work-group
  int wf() const { return wi_ / wf_size_; }    // its wavefront
  int lane() const { return wi_ % wf_size_; }  // its lane in the warp (wavefront)
  int wg_size() const { return wg_size_; }
  int wf_size() const { return wf_size_; }
  bool in_tx() const { return in_tx_; }

  struct OpAwaiter {
    Lane* lane;
    Op op;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) noexcept {
      lane->op_ = op;
      lane->waiting_ = h;
    }
    uint32_t await_resume() const noexcept { return lane->result_; }
  };

  OpAwaiter Load(uint32_t addr, std::source_location loc = std::source_location::current()) {
    return {this, {OpKind::kLoad, ProgramPoint(loc), addr, 0, 0, 0}};
  }
  OpAwaiter Store(uint32_t addr, uint32_t v,
                  std::source_location loc = std::source_location::current()) {
    return {this, {OpKind::kStore, ProgramPoint(loc), addr, v, 0, 0}};
  }
  OpAwaiter AtomAdd(uint32_t addr, uint32_t v,
                    std::source_location loc = std::source_location::current()) {
    return {this, {OpKind::kAtomAdd, ProgramPoint(loc), addr, v, 0, 0}};
  }
  OpAwaiter Cas(uint32_t addr, uint32_t cmp, uint32_t v,
                std::source_location loc = std::source_location::current()) {
    return {this, {OpKind::kAtomCas, ProgramPoint(loc), addr, v, cmp, 0}};
  }
  OpAwaiter Compute(int n, std::source_location loc = std::source_location::current()) {
    return {this, {OpKind::kCompute, ProgramPoint(loc), 0, 0, 0, n}};
  }
  OpAwaiter Barrier(std::source_location loc = std::source_location::current()) {
    return {this, {OpKind::kBarrier, ProgramPoint(loc), 0, 0, 0, 0}};
  }
  /// The back-edge branch of a loop (one scalar instruction). Put it at the end of the body of
  /// every loop whose iterations diverge (some threads leave or skip part of the body while
  /// others go round again, e.g. a spin on a lock): the threads that go round wait at the
  /// latch, after the ones still in the body, which is where a SIMT stack reconverges them.
  OpAwaiter Latch(std::source_location loc = std::source_location::current()) {
    return {this, {OpKind::kLatch, ProgramPoint(loc), 0, 0, 0, 0}};
  }

  /// A memory fence (CUDA's __threadfence): the thread goes on once every store it issued
  /// before is performed, so a lock's release is not seen before the writes it protects.
  /// Outside transaction bodies only.
  OpAwaiter Fence(std::source_location loc = std::source_location::current()) {
    return {this, {OpKind::kFence, ProgramPoint(loc), 0, 0, 0, 0}};
  }

  /// Runs `body` as a transaction until a try commits.
  struct TxAwaiter {
    Lane* lane;
    TxBody body;
    uint32_t pc;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) {
      lane->body_fn_ = std::move(body);
      lane->tx_resume_ = h;
      lane->tx_pc_ = pc;
      lane->op_ = {OpKind::kTxBegin, pc, 0, 0, 0, 0};
      lane->waiting_ = {};
    }
    void await_resume() const noexcept {}
  };
  TxAwaiter Transaction(TxBody body, std::source_location loc = std::source_location::current()) {
    return {this, std::move(body), ProgramPoint(loc)};
  }

  // ---- For executors ---------------------------------------------------------------------------
  /// Starts the kernel: runs it to its first operation.
  void Start(Task kernel) {
    kernel_ = std::move(kernel);
    op_ = {};
    Run(kernel_.handle());
  }
  /// The operation the thread waits on (kDone once the kernel returned).
  const Op& op() const { return op_; }
  /// Completes the pending load, store, atomic, compute or barrier with `result` and runs the
  /// thread to its next operation.
  void Resume(uint32_t result = 0) {
    result_ = result;
    auto h = std::exchange(waiting_, {});
    op_ = {};
    Run(h);
  }
  /// kTxBegin: starts a try of the transaction body (the body runs to its first operation).
  void BeginTry() {
    in_tx_ = true;
    body_ = body_fn_(*this);
    body_.handle().promise().continuation = std::noop_coroutine();
    op_ = {};
    Run(body_.handle());
  }
  /// The thread's try is over without a commit (aborted, or never ran in a serialized try):
  /// drops the body's frames; the thread waits at kTxBegin for the next try.
  void AbortTry() {
    body_ = Task();
    waiting_ = {};
    in_tx_ = false;
    op_ = {OpKind::kTxBegin, tx_pc_, 0, 0, 0, 0};
  }
  /// kTxCommit: the try committed; the kernel continues after the transaction.
  void CommitTry() {
    body_ = Task();
    in_tx_ = false;
    op_ = {};
    Run(std::exchange(tx_resume_, {}));
  }
  /// Program point of TX_Begin of the transaction the thread is in or waits for.
  uint32_t tx_pc() const { return tx_pc_; }

 private:
  void Run(std::coroutine_handle<> h) {
    if (h) {
      h.resume();
    }
    if (in_tx_ && body_.valid() && body_.done() && op_.kind == OpKind::kNone) {
      body_.Rethrow();
      op_ = {OpKind::kTxCommit, tx_pc_, 0, 0, 0, 0};
      return;
    }
    if (kernel_.done() && op_.kind == OpKind::kNone) {
      kernel_.Rethrow();
      op_ = {OpKind::kDone, 0, 0, 0, 0, 0};
    }
  }

  int wi_, wf_size_, wg_size_;
  Op op_;
  uint32_t result_ = 0;
  std::coroutine_handle<> waiting_;
  Task kernel_;
  // the transaction
  TxBody body_fn_;
  Task body_;
  std::coroutine_handle<> tx_resume_;
  uint32_t tx_pc_ = 0;
  bool in_tx_ = false;
};

}  // namespace htm::gpu
