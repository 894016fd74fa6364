// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/pag_check_model.h"

#include <stdexcept>

namespace htm::golden {

std::string CheckPagCheckParams(const PagCheckParams& p) {
  if (p.addr_w < 1 || p.addr_w > 62) {
    return "AddrW must be in 1..62, got " + std::to_string(p.addr_w);
  }
  if (p.warp_size < 1 || p.warp_size > 64) {
    return "WarpSize must be in 1..64, got " + std::to_string(p.warp_size);
  }
  return "";
}

PagDecision PagDecide(uint64_t lanes, uint64_t hits) {
  PagDecision d;
  hits &= lanes;
  if (lanes != 0 && hits == lanes) {
    d.forced = lanes & (~lanes + 1);
  }
  d.pause = hits & ~d.forced;
  d.go = lanes & ~d.pause;
  return d;
}

const PagCheckParams& PagCheckModel::Checked(const PagCheckParams& p) {
  if (std::string err = CheckPagCheckParams(p); !err.empty()) {
    throw std::invalid_argument("htm_pag_check: " + err);
  }
  return p;
}

PagCheckModel::PagCheckModel(const PagCheckParams& p) : p_(Checked(p)) {
  Reset();
}

void PagCheckModel::Reset() {
  state_ = State::kIdle;
  mask_ = hits_ = 0;
  addr_.fill(0);
  write_ = err_ = false;
}

PagCheckOut PagCheckModel::Eval(const PagCheckIn& in) const {
  (void)in;
  PagCheckOut o;
  o.req_ready = state_ == State::kIdle || state_ == State::kDone;
  o.cat_req_valid = state_ == State::kReq;
  o.cat_req_mask = state_ == State::kReq ? mask_ : 0;
  o.cat_req_addr = addr_;
  o.cat_req_write = write_;
  if (state_ == State::kDone) {
    const PagDecision d = PagDecide(mask_, hits_);
    o.res_valid = 1;
    o.res_go = d.go;
    o.res_pause = d.pause;
    o.res_forced = d.forced;
  }
  o.err = err_;
  return o;
}

void PagCheckModel::Tick(const PagCheckIn& in) {
  const bool ready = state_ == State::kIdle || state_ == State::kDone;
  const bool acc = in.req_valid != 0 && ready;
  const uint64_t lanes = LowMask(p_.warp_size);
  if (in.cat_rsp_valid != 0 && state_ != State::kWait) {
    err_ = true;
    ++cover_.protocol_error;
  }
  // Coverage.
  cover_.bypass += acc && (in.pg_en == 0 || (in.req_mask & lanes) == 0) ? 1 : 0;
  cover_.back_to_back += acc && state_ == State::kDone ? 1 : 0;
  cover_.cat_stall += state_ == State::kReq && in.cat_req_ready == 0 ? 1 : 0;
  if (state_ == State::kWait && in.cat_rsp_valid != 0) {
    const uint64_t hits = in.cat_rsp_hit & mask_;
    if (hits == 0) {
      ++cover_.no_hit;
    } else if (hits == mask_) {
      ++cover_.forced;
    } else {
      ++cover_.pause;
    }
  }
  State next = State::kIdle;
  switch (state_) {
    case State::kReq:
      next = in.cat_req_ready != 0 ? State::kWait : State::kReq;
      break;
    case State::kWait:
      if (in.cat_rsp_valid != 0) {
        hits_ = in.cat_rsp_hit & mask_;
        next = State::kDone;
      } else {
        next = State::kWait;
      }
      break;
    default:
      break;
  }
  if (acc) {
    mask_ = in.req_mask & lanes;
    for (int l = 0; l < p_.warp_size; ++l) {
      addr_[l] = in.req_addr[l] & LowMask(p_.addr_w);
    }
    write_ = in.req_write != 0;
    hits_ = 0;
    next = (in.pg_en != 0 && mask_ != 0) ? State::kReq : State::kDone;
  }
  state_ = next;
}

}  // namespace htm::golden
