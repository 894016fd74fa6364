// SPDX-License-Identifier: Apache-2.0
//
// Sparse matrix-vector multiplication, SpMV (Chen & Peng, HPCA 2016, Table 2: 13 000 threads,
// read/write set 5 / 1; §6): y = A x with A in the Yale format (row pointers, values, column
// indices). Each thread owns one non-zero of A: it finds its row by a binary search over the row
// pointers outside the transaction, then its transaction reads the value, the column index, x at
// that column and y at its row, and adds the product to y (read/write set 4 / 1; Table 2 counts 5).
// Neighbouring threads own neighbouring non-zeros, mostly of one row, so the lanes of a warp
// conflict on y as in the paper's kernel.
//
// Sizes: the paper gives only the thread count; here about 13 non-zeros per row (rows =
// non-zeros / 13), rows chosen at random, a square matrix. Values and x are 1..7, so every
// product is non-zero.
// Memory: row_ptr[rows + 1], val[nnz], col[nnz], x[rows], y[rows] (y starts at 0; only y is
// written).
// Check: y equals A x computed directly (modulo 2^32): a lost, repeated or torn update changes
// its row's sum; the read-only arrays are unchanged.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "htm/workloads/common.h"
#include "workloads.h"

namespace htm::gpu::detail {
namespace {

class SpMv : public Workload {
 public:
  SpMv(int threads, uint64_t seed)
      : nnz_(static_cast<uint32_t>(threads)), rows_(std::max<uint32_t>(2, nnz_ / 13)) {
    Rng rng(seed);
    std::vector<uint32_t> row_of(nnz_);
    for (uint32_t& r : row_of) {
      r = rng.Below(rows_);
    }
    std::sort(row_of.begin(), row_of.end());
    row_ptr_.assign(rows_ + 1, 0);
    for (const uint32_t r : row_of) {
      ++row_ptr_[r + 1];
    }
    for (uint32_t r = 0; r < rows_; ++r) {
      row_ptr_[r + 1] += row_ptr_[r];
    }
    row_ = row_of;
    for (uint32_t k = 0; k < nnz_; ++k) {
      val_.push_back(rng.Range(1, 7));
      col_.push_back(rng.Below(rows_));
    }
    for (uint32_t c = 0; c < rows_; ++c) {
      x_.push_back(rng.Range(1, 7));
    }
  }

  int threads() const override { return static_cast<int>(nnz_); }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem = row_ptr_;
    mem.insert(mem.end(), val_.begin(), val_.end());
    mem.insert(mem.end(), col_.begin(), col_.end());
    mem.insert(mem.end(), x_.begin(), x_.end());
    mem.resize(Y() + rows_, 0);
    return mem;
  }

  Task Kernel(Lane& l) override {
    const auto k = static_cast<uint32_t>(l.tid());
    // The row of non-zero k: the last r with row_ptr[r] <= k (the pointers are never written).
    uint32_t lo = 0, hi = rows_;
    while (hi - lo > 1) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (co_await l.Load(mid) <= k) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    const uint32_t row = lo;
    co_await l.Transaction([this, k, row](Lane& t) -> Task {
      const uint32_t v = co_await t.Load(Val() + k);
      const uint32_t c = co_await t.Load(Col() + k);
      if (c >= rows_) {
        co_return;  // cannot happen: the column indices are never written
      }
      const uint32_t xv = co_await t.Load(X() + c);
      const uint32_t y = co_await t.Load(Y() + row);
      co_await t.Compute(2);
      co_await t.Store(Y() + row, y + v * xv);
    });
  }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    std::vector<uint32_t> want(rows_, 0);
    for (uint32_t k = 0; k < nnz_; ++k) {
      want[row_[k]] += val_[k] * x_[col_[k]];
    }
    for (uint32_t r = 0; r < rows_; ++r) {
      if (mem[Y() + r] != want[r]) {
        p.Add("y[", r, "] is ", mem[Y() + r], ", A x gives ", want[r], " (off by ",
              static_cast<int32_t>(mem[Y() + r] - want[r]), ")");
      }
    }
    if (!std::equal(row_ptr_.begin(), row_ptr_.end(), mem.begin()) ||
        !std::equal(val_.begin(), val_.end(), mem.begin() + Val()) ||
        !std::equal(col_.begin(), col_.end(), mem.begin() + Col()) ||
        !std::equal(x_.begin(), x_.end(), mem.begin() + X())) {
      p.Add("the read-only matrix or vector x changed");
    }
    return p.str();
  }

  std::string Describe() const override {
    std::ostringstream os;
    os << nnz_ << " threads, one per non-zero, add A x into y for a " << rows_ << " x " << rows_
       << " sparse matrix in the Yale format";
    return os.str();
  }

 private:
  uint32_t Val() const { return rows_ + 1; }
  uint32_t Col() const { return Val() + nnz_; }
  uint32_t X() const { return Col() + nnz_; }
  uint32_t Y() const { return X() + rows_; }

  const uint32_t nnz_, rows_;
  std::vector<uint32_t> row_ptr_, row_, val_, col_, x_;
};

}  // namespace

std::unique_ptr<Workload> MakeSpMv(int threads, uint64_t seed) {
  return std::make_unique<SpMv>(threads, seed);
}

}  // namespace htm::gpu::detail
