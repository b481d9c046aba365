// Reader stage figures, printed tables: the lines of a table a program
// prints into its output (a header, a rule under it, rows), with columns
// split by `|` or by runs of spaces:
//
//      shape (B,D) |  fused (us/call) |  eager (us/call)
//   ------------------------------------------------------
//        (1, 256) |             1.73 |             2.06
#ifndef MOELOG_LOGBOOK_READER_FIGURES_PRINTED_H_
#define MOELOG_LOGBOOK_READER_FIGURES_PRINTED_H_

#include <string>
#include <utility>
#include <vector>

#include "logbook/doc/parse_logbook.h"

namespace moelog::logbook::reader {

// A rule of a printed table: dashes or equals signs, with the `+`, `|`, `:`
// and spaces of its column borders ("------", "|---:|---|", "-----  ----",
// "+-----+-----+"); at least three dashes or equals signs.
bool PrintedRule(const std::string& line);

// A printed table's cells split by `|`: each trimmed; the empty cells that
// borders at the line's start and end leave are dropped.
std::vector<std::string> PipeCells(const std::string& line);

// A printed line's cells: CSV fields, or runs of text between two spaces or
// more (or a tab), or words when the line has no such gap.
std::vector<std::string> LineCells(const std::string& t);

// The columns of a printed table whose header names hold single spaces
// ("Function Name Total Secs    Pct" over "ActFmG        1.824        18.59"):
// where each column's cells lie in the rows (the raw lines, indents kept).
struct PrintedColumns {
  std::vector<std::pair<size_t, size_t>> extents;  // [first, last) character of each column's cells
};

// The columns of `rows` (each split into cells by runs of spaces); none when
// their cells differ in number, fewer than two, or a line holds a tab.
PrintedColumns RowColumns(const std::vector<std::string>& rows);

// `head`'s words grouped under the columns they fall in; empty when a word
// starts with a digit, a column gets no word or the words fall out of order.
std::vector<std::string> HeaderNames(const std::string& head, const PrintedColumns& columns);

// Whether each cell of `row` (fewer cells than the columns: a "Total" row's
// missing shares) lies within the column of the same place.
bool FitsColumns(const std::string& row, const PrintedColumns& columns);

// One line of an output block: trimmed, its line in the file, and as printed
// (its indent kept: a column's place); `written`: as the author wrote it,
// its arrows and pictographs kept ("4.8 ms → 550.8 TFLOPS"; "" when drawn
// with boxes).
struct PrintedLine {
  std::string text;
  int line = 0;
  std::string raw;
  std::string written = {};
};

// The lines of an output block (a prompted block's from its command line on).
std::vector<PrintedLine> PrintedLines(const FencedBlock& b);

// Rows of a name, a unit and a number under a rule of three dash runs with
// no header printed (ncu's `--metrics` section; figures_ruledunits.cc): the
// rule is rewritten as the header it stands for (output.json
// ruled_unit_header), so the rows read as a unit column's table.
void RuledUnitHeaders(std::vector<PrintedLine>* lines);

// The columns of the rows from line `i` on that split into as many cells as
// it (at most 64).
PrintedColumns ColumnsFrom(const std::vector<PrintedLine>& lines, size_t i);

// The unit a table header names for the table's statistic columns after one
// of `phrases` ("Name (time in us)": "us"); that header keeps its name alone.
std::string TableUnit(std::vector<std::string>* head, const std::vector<std::string>& phrases);

// A number and its unit as printed ("712", "ms").
struct PrintedValue {
  std::string digits, unit;
};

// A total and its parts on one line: "Round 3:  712ms (LLM: 314ms, Probe:
// 371ms) <- comment", "Step time: 1.21 s (forward: 0.40 s, backward: 0.81 s)".
struct Breakdown {
  std::string name;
  PrintedValue total;
  std::vector<std::pair<std::string, PrintedValue>> parts;
};

// The line read as a total and its parts; false for any other line.
bool PrintedBreakdown(const std::string& t, Breakdown* out);

// A title: words and no digit ("cuBLAS kernel", "---- Time to First Token
// ----", "FP16:"), at most 80 characters; its text without the banner.
bool PrintedTitle(const std::string& t, std::string* title);

// One item of a printed dict: its key, its value as written (a string's
// without its quotes), and what the value is.
struct DictItem {
  enum class Kind { kNumber, kString, kBool, kOther };
  std::string key, value;
  Kind kind = Kind::kOther;
};

// A dict printed on one line, JSON's or Python's (`{"loss": 3.21}`,
// `{'runtime_s': 5.84, 'ok': True, 'impl': 'lru'}`): its items in order,
// values as written (a nested value is kOther); false for any other line.
bool PrintedDict(const std::string& t, std::vector<DictItem>* items);

// A bullet that is a program's printed key and its number, each a code
// span ("`elapsed_seconds`: `112.12`", "`time/train/step_avg_s`:
// `18.6275`"): the pair "key=value" (blanks in the key joined by `_`); ""
// for any other bullet.
std::string SpanPair(const Bullet& b);

// A bullet that is a printed line of three key=value pairs or more, a name
// perhaps leading them ("pid=213044 cmd=minio samples=39 avg_cpu=13.00",
// "nvme0n1 samples=40 avg_util=15.73"): its text; "" for any other bullet.
std::string PlainPairs(const Bullet& b);

// A row of a printed table whose first column names a group of rows once,
// a colon after the name, and is blank on the rows under it (nvprof's
// "Type": " GPU activities:   61.20%  412.35us ..." over "   20.11%
// 135.50us ..."): true, and `cells` (of a table of `columns`) start with
// the group's name, `group` keeping it for the rows below. False for a row
// of no such table (nothing changed).
bool GroupedRow(std::vector<std::string>* cells, size_t columns, std::string* group);

// A line of a record's banner mark alone ("=========="; `closing`), or a
// title between the marks ("==== Serving Benchmark Result ===="):
// the mark (record_banners of output.json), "" for any other line.
std::string PrintedRecordBanner(const std::string& t, bool* closing);
// A bullet's text as one printed key=value line ("" for any other bullet).
std::string PrintedPairs(const Bullet& b);

}  // namespace moelog::logbook::reader

#endif  // MOELOG_LOGBOOK_READER_FIGURES_PRINTED_H_
