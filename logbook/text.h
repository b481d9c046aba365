// Small text helpers every stage uses: one Trim, one lower-caser, one
// splitter of words, one list splitter, one splitter of slash-joined
// key=value pairs.
#ifndef MOELOG_LOGBOOK_TEXT_H_
#define MOELOG_LOGBOOK_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

namespace moelog::logbook {

// `s` without leading and trailing white space (std::isspace).
std::string Trim(std::string_view s);

// `s` with its ASCII letters in lower case (other bytes as they are).
std::string LowerAscii(std::string_view s);

// The words of `s` between white space (std::isspace), as written.
std::vector<std::string> SpaceWords(std::string_view s);

// The pieces of `s` between `sep`s, empty ones left out (not trimmed):
// "a,,b," -> {"a", "b"}.
std::vector<std::string> SplitList(std::string_view s, char sep = ',');

// `s` with the slashes that join key=value pairs into one word made blanks:
// "EP=2/T=128/D=128" -> "EP=2 T=128 D=128". A slash inside a value
// ("ep=8/16", "path=a/b") stays: only one followed by a key and '=' splits.
std::string SplitJoinedPairs(std::string_view s);

// The first `n` bytes of `s` or fewer: never half of a UTF-8 character
// ("spread —" cut inside the dash would write invalid text).
std::string Utf8Prefix(const std::string& s, size_t n);

// `s` with each pictograph a blank: emoji and the symbols printouts
// decorate their lines with ("\xF0\x9F\x93\x8D Iter 10", "\xE2\x9A\xA1 MFU:"; U+2190-U+21FF,
// U+2300-U+23FF, U+2600-U+27BF, U+2B00-U+2BFF, U+1F000-U+1FAFF, and the
// joiners and variation selectors that dress them). Letters of any script,
// box drawing and every other byte stay as written.
std::string WithoutPictographs(std::string_view s);

// What moelog prints of text it did not write (a logbook's titles, IDs,
// commands, a store's rows) goes through this filter: no byte a terminal
// acts on reaches it. Each C0 control but tab and newline, DEL, each C1
// control (U+0080-U+009F, encoded C2 80-C2 9F: CSI, OSC, ...) and each byte
// 0x80-0x9F that is not part of a valid UTF-8 character (an 8-bit
// terminal's C1) is shown as '?'; valid UTF-8 text passes unchanged. A
// character split across writes is held until it is whole.
class TerminalFilter {
 public:
  // Appends the shown form of `bytes` to `out`.
  void Feed(std::string_view bytes, std::string* out);
  // Appends a character still held (cut short: shown as invalid bytes).
  void Finish(std::string* out);

 private:
  void Invalid(std::string* out);
  std::string held_;  // the bytes of a character begun but not ended
  size_t need_ = 0;   // continuation bytes it still needs
};

// `text` through a fresh TerminalFilter.
std::string TerminalSafe(std::string_view text);

// The longest prose line moelog writes into a region (a note, a list item):
// 300 characters with the region's indentation (a region inside a list item).
inline constexpr size_t kNoteChars = 292;

// `s` as one line of at most `max` bytes: line breaks become blanks, and a
// longer text is cut at its last blank that leaves room for "...", never
// inside a word (unless one word fills the line) or a UTF-8 character.
std::string NoteLine(const std::string& s, size_t max = kNoteChars);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_TEXT_H_
