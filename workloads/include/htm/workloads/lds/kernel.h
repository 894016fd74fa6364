// SPDX-License-Identifier: Apache-2.0
//
// The kernel interface of the GPU-LocalTM workloads: the shared one (htm/gpu/kernel.h), named in
// htm::lds. A work-item is a thread, a wavefront a warp, the LDS the memory.
#pragma once

#include "htm/workloads/kernel.h"

namespace htm::lds {

using gpu::IsMemAccess;
using gpu::Lane;
using gpu::Op;
using gpu::OpKind;
using gpu::OpKindName;
using gpu::ProgramPoint;
using gpu::Task;
using gpu::TxBody;

}  // namespace htm::lds
