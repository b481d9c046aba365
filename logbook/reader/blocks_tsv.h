// Reader stage blocks: a table pasted as tab-separated lines (a
// spreadsheet's or a script's TSV copied into the text: "BLOCK_N<TAB>warps
// <TAB>median latency (ms)" over "512<TAB>2<TAB>0.115"). Markdown reads
// it as a paragraph; the blocks stage reads it as the table it is.
#ifndef MOELOG_LOGBOOK_READER_BLOCKS_TSV_H_
#define MOELOG_LOGBOOK_READER_BLOCKS_TSV_H_

#include <string>
#include <string_view>
#include <vector>

namespace moelog::logbook {

// The cells of lines `lines` when they are a tab-separated table: three
// lines or more (a header and two rows), each split by tabs into the same
// number of cells, two or more, none of the header's empty or a number (a
// dump of values is no table). Empty when they are not. A run of tabs is
// one separator.
std::vector<std::vector<std::string>> TabSeparatedRows(const std::vector<std::string_view>& lines);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_READER_BLOCKS_TSV_H_
