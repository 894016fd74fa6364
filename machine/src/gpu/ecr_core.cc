// SPDX-License-Identifier: Apache-2.0
#include "htm/machine/gpu/ecr_core.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace htm::gpu {

void EcrCore::CheckFit(const golden::IntraWarpCdParams& iw, const golden::CatParams* cat,
                       const golden::PagCheckParams* pag) {
  if (pag != nullptr && cat == nullptr) {
    throw std::invalid_argument("EcrCore: a Pause-and-Go check needs a CAT");
  }
  if (cat != nullptr && (cat->warp_size != iw.warp_size || cat->addr_w != iw.addr_w)) {
    throw std::invalid_argument(
        "EcrCore: the CAT and the intra-warp detection differ in warp size or address width");
  }
  if (pag != nullptr && (pag->warp_size != cat->warp_size || pag->addr_w != cat->addr_w)) {
    throw std::invalid_argument(
        "EcrCore: the CAT and the Pause-and-Go check differ in warp size or address width");
  }
}

EcrCore::EcrCore(const golden::IntraWarpCdParams& iw, const golden::CatParams* cat,
                 const golden::PagCheckParams* pag) {
  CheckFit(iw, cat, pag);
  iw_ = std::make_unique<golden::GoldenInstance<golden::IntraWarpCdModel>>(iw);
  if (cat != nullptr) {
    cat_ = std::make_unique<golden::GoldenInstance<golden::CatModel>>(*cat);
  }
  if (pag != nullptr) {
    pag_ = std::make_unique<golden::GoldenInstance<golden::PagCheckModel>>(*pag);
  }
}

EcrCore::EcrCore(const golden::IntraWarpCdParams& iwp, std::unique_ptr<IwInstance> iw,
                 const golden::CatParams* catp, std::unique_ptr<CatInstance> cat,
                 const golden::PagCheckParams* pagp, std::unique_ptr<PagInstance> pag)
    : iw_(std::move(iw)), cat_(std::move(cat)), pag_(std::move(pag)) {
  CheckFit(iwp, cat_ ? catp : nullptr, pag_ ? pagp : nullptr);
}

void EcrCore::Reset() {
  iw_->Reset();
  if (cat_) {
    cat_->Reset();
  }
  if (pag_) {
    pag_->Reset();
  }
  owners_.clear();
}

EcrCore::Step EcrCore::Cycle(golden::PagCheckIn pi, golden::IntraWarpCdIn wi,
                             const std::vector<uint64_t>* msg) {
  Step s;
  pi.cat_req_ready = pi.cat_rsp_valid = pi.cat_rsp_hit = 0;
  wi.cat_req_ready = wi.cat_rsp_valid = wi.cat_rsp_hit = 0;
  if (!cat_) {
    s.iw = iw_->Eval(wi);
    iw_->Tick(wi);
    return s;
  }
  // The clients' CAT requests depend on their registers only.
  golden::PagCheckOut pg0;
  if (pag_) {
    pg0 = pag_->Eval(pi);
  }
  const bool pag_req = pg0.cat_req_valid != 0;
  const golden::IntraWarpCdOut iw0 = iw_->Eval(wi);
  golden::CatIn& ci = s.cat_in;
  if (msg != nullptr) {
    ci.msg_valid = 1;
    ci.msg_count = msg->size();
    std::copy(msg->begin(), msg->end(), ci.msg_dlt.begin());
  }
  if (pag_req) {
    ci.lkp_valid = 1;
    ci.lkp_mask = pg0.cat_req_mask;
    ci.lkp_addr = pg0.cat_req_addr;
    ci.lkp_write = pg0.cat_req_write;
  } else if (iw0.cat_req_valid) {
    ci.lkp_valid = 1;
    ci.lkp_mask = iw0.cat_req_mask;
    ci.lkp_addr = iw0.cat_req_addr;
    ci.lkp_write = iw0.cat_req_write;
  }
  const Client grant = pag_req ? kPag : iw0.cat_req_valid ? kIntraWarp : kNone;
  s.cat = cat_->Eval(ci);
  const bool took = ci.lkp_valid && s.cat.lkp_ready;
  (grant == kPag ? pi.cat_req_ready : wi.cat_req_ready) = took ? 1 : 0;
  if (s.cat.rsp_valid && !owners_.empty()) {
    s.answered = owners_.front();
    owners_.pop_front();
    if (s.answered == kPag) {
      pi.cat_rsp_valid = 1;
      pi.cat_rsp_hit = s.cat.rsp_hit;
    } else {
      wi.cat_rsp_valid = 1;
      wi.cat_rsp_hit = s.cat.rsp_hit;
    }
  }
  if (took) {
    owners_.push_back(grant);
    s.lookup = grant;
  }
  s.msg_taken = ci.msg_valid && s.cat.msg_ready;
  s.iw = iw_->Eval(wi);
  iw_->Tick(wi);
  cat_->Tick(ci);
  if (pag_) {
    s.pag = pag_->Eval(pi);
    pag_->Tick(pi);
  }
  return s;
}

}  // namespace htm::gpu
