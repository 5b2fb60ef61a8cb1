// The text of a finished deal's row in `bakers range`'s output, made in C++ so that a
// run of millions of deals costs no Python per deal: the columns of
// `bakers.bulk.rows.COLUMNS` (game, deal, verdict, moves, most_home, most_home_exact,
// expanded, stored, peak_bytes, seconds, reason) as a line of TSV, CSV or JSON lines,
// each byte the same as `bakers.cli.range.formats` writes for the row
// (tests/test_range_text.py compares the two on every kind of field).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "search.hpp"

namespace bakers {

enum class RowFormat : std::uint8_t { Tsv, Csv, Jsonl };

// The name of a verdict in rows and messages: "solved", "impossible" or "unknown".
const char* verdict_text(Verdict v);

// One finished deal, as a row holds it.
struct RowFields {
    std::uint64_t deal = 0;
    Verdict verdict = Verdict::Unknown;
    std::uint64_t moves = 0;      // single moves of the win (written only for a win)
    int most_home = 0;
    bool most_home_exact = false;
    std::uint64_t expanded = 0, stored = 0, peak_bytes = 0;
    double seconds = 0;
    std::string_view reason;
};

// Appends the row's line, ending in "\n", to `out`.
void append_row(std::string& out, RowFormat format, std::string_view game,
                const RowFields& row);

// Appends `value` rounded to 6 decimals as Python's repr() writes the rounded float
// (json.dumps(round(value, 6))): the shortest digits that read back to it, in fixed
// notation for decimal exponents -4..15, else as 1.5e-05.
void append_python_float(std::string& out, double value);

}  // namespace bakers
