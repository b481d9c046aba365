// Reader stage blocks: printouts drawn with box-drawing characters (python
// rich's and tabulate's tables, a script's framed result banners), fenced
// or pasted as prose. Pure functions over text lines (blocks_boxes.cc).
#ifndef MOELOG_LOGBOOK_READER_BLOCKS_BOXES_H_
#define MOELOG_LOGBOOK_READER_BLOCKS_BOXES_H_

#include <string>
#include <string_view>
#include <vector>

namespace moelog::logbook {

// Whether `line` holds a box-drawing character (U+2500..U+257F).
bool HasBoxDrawing(std::string_view line);

// A line drawn with boxes, as a plain printed line: `rule` when it is a
// border or a separator only ("┡━━━╇━━━┩", "╠════╣"); otherwise its text
// with each vertical bar ("│", "┃", "║") inside it as '|' and the frame's
// bars at both ends dropped ("┃ sdpa ┃ 4.41 ┃" -> "sdpa | 4.41").
std::string Unboxed(std::string_view line, bool* rule);

// A border of one frame around a printout's lines (no column joints in
// it): its top ("╔═══╗", "┌───┐", "╭───╮") or its bottom ("╚═══╝"); kNone
// for any other line (a table's border "┏━━┳━━┓" too).
enum class FrameBorder { kNone, kTop, kBottom };
FrameBorder FrameBorderOf(std::string_view line);

// Whether a pasted paragraph's lines are a framed printout: two lines or
// more, at least three in four of them starting with a box-drawing
// character.
bool FramedLines(const std::vector<std::string_view>& lines);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_READER_BLOCKS_BOXES_H_
