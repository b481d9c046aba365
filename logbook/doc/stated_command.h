// Stage doc/: a harness command an entry states without writing it whole.
//
// Researchers often write the configuration of a run instead of its command
// line: "Fixed args: `--distribution random --tokens 32768 ...`" with
// "`parallel_mode=none` matrix" and "`dispatch_permute_mode in {direct_take,
// repeat_sort}`" beside it, or an elided launcher call
// (`ssh h '... --quant-mode none ... && ... --quant-mode int8 ...'`) over a
// "fixed config:" bullet of `tokens=32768 hidden=2048 ...` spans. When an
// entry's Command field holds no harness call, its spans state flags (at
// least three: the shape and every setting the harness would otherwise run
// several values of, `--impl both`, among them), and an earlier entry of the
// logbook called a harness script with flags, the entry's commands are
// composed: `python SCRIPT` + the fixed
// flags, one command per alternative (spans or elided calls that set one key
// to different values) and per combination of the stated loops (`k in {a,b}`
// over a run key; `on`/`off` for a switch). Each composed command says so
// (CommandText::composed). Bounded: at most 256 commands, spans of 400
// characters, 8 loops.
#ifndef MOELOG_LOGBOOK_DOC_STATED_COMMAND_H_
#define MOELOG_LOGBOOK_DOC_STATED_COMMAND_H_

#include "logbook/doc/document.h"

namespace moelog::logbook {

void ResolveStatedCommands(Logbook* lb);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_DOC_STATED_COMMAND_H_
