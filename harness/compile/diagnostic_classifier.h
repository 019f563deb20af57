// Diagnostic classification: which model reason codes a compiler message
// can stand for. Keeping this one table is what lets matload tell "rejected
// for the spec's reason" from "rejected for another reason".
#ifndef MATLOAD_HARNESS_COMPILE_DIAGNOSTIC_CLASSIFIER_H_
#define MATLOAD_HARNESS_COMPILE_DIAGNOSTIC_CLASSIFIER_H_

#include <vector>

#include "absl/strings/string_view.h"
#include "reference/reason.h"

namespace matload {

// ClassifyPtxasMessage returns the reason codes a ptxas message is
// compatible with; several where ptxas uses one message for several causes
// ("Arguments mismatch"; "Unexpected instruction types" for a type too
// many, one missing, one unknown, or types out of order, .s4.s8 for
// ldmatrix's .s8.s4), none for a message that is not a rejection reason
// ("Ptx assembly aborted due to errors").
std::vector<ReasonCode> ClassifyPtxasMessage(absl::string_view message);

// IsSummaryMessage says whether a message only summarises others.
bool IsSummaryMessage(absl::string_view message);

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_DIAGNOSTIC_CLASSIFIER_H_
