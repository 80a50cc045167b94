// SPDX-License-Identifier: Apache-2.0
// Names of completion statuses, as verbs report them.
#include "models/transport/work_request.h"

namespace lq::transport {

const char* CompletionStatusName(CompletionStatus status) {
  switch (status) {
    case CompletionStatus::kSuccess:
      return "SUCCESS";
    case CompletionStatus::kFlushErr:
      return "FLUSH_ERR";
    case CompletionStatus::kRetryExcErr:
      return "RETRY_EXC_ERR";
    case CompletionStatus::kRnrRetryExcErr:
      return "RNR_RETRY_EXC_ERR";
    case CompletionStatus::kRemInvReqErr:
      return "REM_INV_REQ_ERR";
    case CompletionStatus::kRemAccessErr:
      return "REM_ACCESS_ERR";
    case CompletionStatus::kRemOpErr:
      return "REM_OP_ERR";
    case CompletionStatus::kLocQpOpErr:
      return "LOC_QP_OP_ERR";
    case CompletionStatus::kLocProtErr:
      return "LOC_PROT_ERR";
  }
  return "?";
}

}  // namespace lq::transport
