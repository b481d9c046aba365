// Reading recorded figures out of prose paragraphs (the figures stage reads them
// with the same figure scanner as Result bullets): how a paragraph splits into
// sentences, which paragraph leads say it records no run of its own, and the
// words around a figure that name it or say it restates a figure stated
// elsewhere. Plain text functions; each looks at a bounded window, so a scan
// that calls them once per figure stays linear.
#ifndef MOELOG_LOGBOOK_READER_PROSE_H_
#define MOELOG_LOGBOOK_READER_PROSE_H_

#include <string>
#include <utility>
#include <vector>

namespace moelog::logbook::prose {

// The sentences of a paragraph as [begin, end) offsets: a sentence ends at
// ". " (or "; ") before an upper-case letter, a digit, a code span or bold
// text; "e.g." and "vs." end none; decimals ("23.5") never do.
std::vector<std::pair<size_t, size_t>> Sentences(const std::string& s);

// "ring EP4 **21.3% / 12.1 s** · a2a EP4 **20.9% / 12.4 s**": arms joined by a
// middle dot, each written as "name: figures" (its words before its first
// number are its name). Empty when `s` has fewer than two such arms.
std::vector<std::string> DotArms(const std::string& s);

// "loss 5.27 / 5.13 / 4.99 for low / center / high": the names of a list,
// written after "for" and joined by slashes (at least two). Empty if none.
std::vector<std::string> ForWordList(const std::string& s);

// A paragraph lead ("**Interpretation:**", "Profile (xplane):", "Infra
// notes.") that says the paragraph reads, plans or explains rather than
// records a run: its figures are not runs of the entry.
bool NoRunLead(const std::string& lead);

// The lead a paragraph writes without bold: "Interpretation: ..." (a short
// name, then a colon). Empty when none.
std::string PlainLead(const std::string& text);

// A name written right after a figure's unit, where no word before it names
// it ("13.6 s eager vs 27 ms jitted", "96.2 ms/step bf16 (4.1x ...)"): one
// identifier followed by a clause end, "vs" or "(", or one alone in
// parentheses ("27.6 ms (fp8)"), or after "for", "in", "with" when it has a
// digit ("31.3 ms in bf16"). `at` is past the unit.
// Empty for prepositions, verbs and other connectives.
std::string PostfixName(const std::string& s, size_t at);

// Words right around a figure that say it restates a figure stated
// elsewhere rather than recording a run: a definite article ("the 13.9 ms
// device forward"), "vs baseline 23.0 ms", "the logged 4.05 ms", a trailing
// "baseline" or "reference" ("62.7 ms selected baseline"). `start` is where
// the number starts, `at` past its unit.
bool RestatingAround(const std::string& s, size_t start, size_t at);

// "ragged_a2a backend = 96.2 ms", "a2a impl, same point:": a word before a
// noun that names what it is a value of (backend, impl, implementation ->
// "impl"; kernel, path, mode) as {key, value} pairs, in order. Bounded by
// `s` (callers pass a clause or a label).
std::vector<std::pair<std::string, std::string>> NounPairs(const std::string& s);

// Where the number starting at `start` is the upper end of a range ("6.76-6.85
// ms" is read whole elsewhere; "119 to 123 seconds", "17.22% to 17.29%",
// "60–81 ms" with an en dash, "between 60 and 81 ms"), or "" when it is none. "from A to B" is a
// change, not a range, unless a span verb leads it ("ranges from 40 to 44 ms").
bool RangeEnd(const std::string& s, size_t start);
// A word (lower case) that makes "from A to B" after it the ends of one
// spread, not a change: "ranges", "ranging", "varies", "spans".
bool SpanVerb(const std::string& w);
// Whether `gap`, the text between two figures, joins them as a range (" to ", "–"; " and"
// only after "between", which RangeEnd tells).
bool RangeGap(const std::string& gap);

// "13.3 ms of a 2587 ms step", "1.27 s of 18.02 s", "~35 ms came from the
// wire legs", "4 ms spent in the router": a part of a whole. True for the
// part (`at` past its unit) ...
bool PartOf(const std::string& s, size_t at);
// ... and for the whole (the number at `start` follows "of", "of a", "of the"
// after a figure: "a loss of 1.385" names its figure, no whole).
bool WholeOf(const std::string& s, size_t start);

// A sentence word that makes its figures hypothetical ("an infinitely fast
// kernel would yield ...", "if the wire were free ...").
bool HypotheticalWord(const std::string& w);
// A word that puts a sentence in the future ("Will run BLOCK_M 64 and 128
// ..."): what the entry will run or measure (future_words of
// data/reader/status.json).
bool FutureWord(const std::string& w);

// The first word of a sentence that advises ("Use these models for
// 100ms/pos inference"): advice_leads of data/reader/vocabulary.json.
bool AdviceLead(const std::string& w);

// A sentence word that makes its figures goals or expectations ("the log
// should end with ...", "target", "expected"): goal_words of
// data/reader/vocabulary.json.
bool GoalWord(const std::string& w);

// A sentence word that makes its figures projections, not measurements
// ("estimated ~0.25 ms/step savings", "est. 3 h", "theoretical"):
// estimate_words of data/reader/vocabulary.json.
bool EstimateWord(const std::string& w);

// "~36 ms", "≈ 1852 ms": an estimate, not a measurement.
bool Estimate(const std::string& s, size_t start);

// Whether `later`, written with `decimals` decimals, is `earlier` rounded
// to that many (96 restates 96.2; 96.25 does not restate 96.2).
bool SameAsWritten(double earlier, double later, int decimals);

}  // namespace moelog::logbook::prose

#endif  // MOELOG_LOGBOOK_READER_PROSE_H_
