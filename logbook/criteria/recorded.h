// Runs recorded in a logbook's prose: the figures written under an entry's
// "Result" field ("`none, topk=2`: 192.868 TF/s, 619304 tokens/s",
// "`topk=2`: none `144.654`, expert_mlp `138.346` (`-4.36%`)"), turned into
// StoredRun values with source "recorded" so they can be charted next to
// measured or modeled runs, compared, and used as criteria evidence.
//
// How a figure gets its config:
//  - the entry's commands give the fixed flags (`--tokens 32768`) and the
//    varied ones: shell loops (`for tk in 2 8; ... --topk "$tk"`), --topk-list,
//    and flags whose value differs between the entry's commands;
//  - bullet labels and their parents give `key=value` words (`shared=0`,
//    `mlp_dim=1408`), bare values of a varied flag (`none`, `ep`), and
//    `topk8`-style words;
//  - a word right before a number that is a value of a varied flag names a
//    category (`argsort 99.569 vs tuple_sort 98.438`); other identifiers
//    there become key "variant" (`ref`, `staged`, `fused_ep`); a label that
//    is none of these becomes key "case" (`2048/2048`).
// Numbers in parentheses, percentages and ratios are not figures. The unit
// after a number picks the metric (TF/s -> tflops, tokens/s or tok/s ->
// tokens_per_s); a bare number is TF/s. A bullet whose figures cannot be told
// apart (two TF/s values and nothing naming them) is skipped.
#ifndef MOELOG_LOGBOOK_RECORDED_H_
#define MOELOG_LOGBOOK_RECORDED_H_

#include <vector>

#include "logbook/doc/document.h"
#include "logbook/store/stored_run.h"

namespace moelog::logbook {

// IDs are "<entry id>#<n>" (n from 1, in document order); entry_id is set;
// target and host are empty (the prose does not say).
std::vector<StoredRun> RecordedRuns(const Entry& entry);
std::vector<StoredRun> RecordedRuns(const Logbook& logbook);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RECORDED_H_
