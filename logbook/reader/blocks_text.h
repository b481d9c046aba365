// Reader stage blocks, more of what the text of an entry's parts says:
// printed lines pasted amid prose, and the unit a progress log's headings
// state their results in. Pure functions over texts (blocks.cc); the words
// (units) are data: data/reader/blocks.json.
#ifndef MOELOG_LOGBOOK_READER_BLOCKS_TEXT_H_
#define MOELOG_LOGBOOK_READER_BLOCKS_TEXT_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace moelog::logbook {

// Runs of a paragraph's lines that a program printed, amid its prose
// ("without autocast it crawls:" over two `step 56 | loss: 8.31 | dt:
// 4875.88ms | tok/sec: 107526.94` lines): 0-based [first, last] line pairs,
// each of two printed lines or more (elision lines such as "......" between
// them kept in the run), one of them at least a record of three fields or
// more (`name value | name: value | ...`, three key=value spans).
std::vector<std::pair<int, int>> PrintedRuns(std::string_view text);

// A progress log whose entries' headings state each step's result
// ("### Step 2: parallel blocks: 22.979 ms (6.8x)"): the one unit (of
// blocks.json's units; a ratio's "x" or "%" is none) that numbers in at
// least two of `headings` are written with, and the decimals all of them
// are written with. Empty when the headings state no such unit, several, or
// their numbers with different decimals.
struct HeadingUnit {
  std::string unit;
  int decimals = -1;
};
HeadingUnit HeadingsUnit(const std::vector<std::string>& headings);

// `heading` with `u`'s unit after each number that is written without a
// unit and with `u`'s decimals, and does not start the heading (its section
// number): "Step 4: coalescing: 9.360 (no gain)" -> "Step 4: coalescing:
// 9.360 ms (no gain)". Unchanged when there is none or `u` is empty.
std::string WithHeadingUnit(const std::string& heading, const HeadingUnit& u);

// A log line that starts with its counter ("[ 510] 9.4s/step", "[3] fused
// 1.21 ms"): where the text after the counter's ']' starts; 0 when `line`
// does not start with '[', digits (spaces around them aside) and ']' within
// its first 13 characters ("[ok]", "[2026-01-02 10:00]"). The one reader
// of counters: blocks (such a line is printed, never a command) and figures
// (the counter keys the line's figure).
size_t CounterEnd(std::string_view line);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_READER_BLOCKS_TEXT_H_
