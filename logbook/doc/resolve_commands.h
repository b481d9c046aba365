// Commands an entry gives by reference or shorthand, resolved after the
// parse: "same as ID with `--flag v`", loops written beside a command
// (`q in {a,b}`), brace lists after a flag (`--topk {2,8}`).
#ifndef MOELOG_LOGBOOK_DOC_RESOLVE_COMMANDS_H_
#define MOELOG_LOGBOOK_DOC_RESOLVE_COMMANDS_H_

#include "logbook/doc/document.h"

namespace moelog::logbook {

// "- Command: same as ID [with `--flag value`]": the earlier entry's commands.
void ResolveSameAs(Logbook* lb);
// "`q in {none,int8}`" beside a command that reads $q: the command in a loop.
void ResolveLoopSpans(Logbook* lb);
// "--quant-mode {none,int8}": the command in a loop over the list.
void ResolveBraceFlags(Logbook* lb);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_DOC_RESOLVE_COMMANDS_H_
