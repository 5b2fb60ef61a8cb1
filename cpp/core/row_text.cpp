#include "row_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace bakers {
namespace {

void append_uint(std::string& out, std::uint64_t value) {
    char buffer[24];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    out.append(buffer, end);
}

// Python's f"{value:.6f}" (TSV and CSV): printf's %.6f rounds the same way (both take the
// exact binary value and round half to even on it).
void append_fixed6(std::string& out, double value) {
    char buffer[64];
    const int n = std::snprintf(buffer, sizeof buffer, "%.6f", value);
    out.append(buffer, static_cast<std::size_t>(n));
}

// A text field of CSV as Python's csv.writer (QUOTE_MINIMAL) writes it: quoted, with
// its quotes doubled, when it holds the delimiter, a quote or a line break.
void append_csv_text(std::string& out, std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
        out.append(text);
        return;
    }
    out.push_back('"');
    for (char c : text) {
        if (c == '"') out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
}

// A JSON string as json.dumps(..., ensure_ascii=False) writes it.
void append_json_text(std::string& out, std::string_view text) {
    out.push_back('"');
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                if (u < 0x20) {
                    char buffer[8];
                    std::snprintf(buffer, sizeof buffer, "\\u%04x", u);
                    out += buffer;
                } else {
                    out.push_back(c);
                }
        }
    }
    out.push_back('"');
}

}  // namespace

const char* verdict_text(Verdict v) {
    switch (v) {
        case Verdict::Solved: return "solved";
        case Verdict::Impossible: return "impossible";
        case Verdict::Unknown: return "unknown";
    }
    return "unknown";
}

void append_python_float(std::string& out, double value) {
    // round(value, 6) as Python does it: the correctly rounded decimal with 6 places,
    // read back as the nearest double.
    char fixed[64];
    std::snprintf(fixed, sizeof fixed, "%.6f", value);
    const double rounded = std::strtod(fixed, nullptr);
    // The shortest digits that read back to `rounded`, and their decimal exponent.
    char sci[40] = {};
    const auto res = std::to_chars(sci, sci + sizeof sci - 1, rounded,
                                   std::chars_format::scientific);
    *res.ptr = '\0';  // atoi reads the exponent to the end
    const std::string_view text(sci, static_cast<std::size_t>(res.ptr - sci));
    const std::size_t e = text.find('e');
    std::string_view mantissa = text.substr(0, e);
    const int exponent = std::atoi(text.data() + e + 1);
    bool negative = false;
    if (!mantissa.empty() && mantissa.front() == '-') {
        negative = true;
        mantissa.remove_prefix(1);
    }
    std::string digits;
    for (char c : mantissa)
        if (c != '.') digits.push_back(c);
    if (negative) out.push_back('-');
    if (rounded == 0) {
        out += "0.0";
        return;
    }
    if (exponent < -4 || exponent >= 16) {  // repr's scientific form: 1.5e-05, 1e+16
        out.push_back(digits[0]);
        if (digits.size() > 1) {
            out.push_back('.');
            out.append(digits, 1);
        }
        char buffer[16];
        std::snprintf(buffer, sizeof buffer, "e%c%02d", exponent < 0 ? '-' : '+',
                      std::abs(exponent));
        out += buffer;
        return;
    }
    if (exponent < 0) {  // 0.000123
        out += "0.";
        out.append(static_cast<std::size_t>(-exponent - 1), '0');
        out += digits;
        return;
    }
    const auto whole = static_cast<std::size_t>(exponent) + 1;
    if (digits.size() <= whole) {  // 12.0, 1500.0
        out += digits;
        out.append(whole - digits.size(), '0');
        out += ".0";
    } else {  // 1.25
        out.append(digits, 0, whole);
        out.push_back('.');
        out.append(digits, whole);
    }
}

void append_row(std::string& out, RowFormat format, std::string_view game,
                const RowFields& row) {
    const bool won = row.verdict == Verdict::Solved;
    const char* verdict = verdict_text(row.verdict);
    const char* exact = row.most_home_exact ? "true" : "false";
    if (format == RowFormat::Jsonl) {
        out += "{\"game\": ";
        append_json_text(out, game);
        out += ", \"deal\": ";
        append_uint(out, row.deal);
        out += ", \"verdict\": \"";
        out += verdict;
        out += "\", \"moves\": ";
        if (won)
            append_uint(out, row.moves);
        else
            out += "null";
        out += ", \"most_home\": ";
        append_uint(out, static_cast<std::uint64_t>(row.most_home));
        out += ", \"most_home_exact\": ";
        out += exact;
        out += ", \"expanded\": ";
        append_uint(out, row.expanded);
        out += ", \"stored\": ";
        append_uint(out, row.stored);
        out += ", \"peak_bytes\": ";
        append_uint(out, row.peak_bytes);
        out += ", \"seconds\": ";
        append_python_float(out, row.seconds);
        out += ", \"reason\": ";
        append_json_text(out, row.reason);
        out += "}\n";
        return;
    }
    const char sep = format == RowFormat::Csv ? ',' : '\t';
    if (format == RowFormat::Csv)
        append_csv_text(out, game);
    else
        out += game;
    out.push_back(sep);
    append_uint(out, row.deal);
    out.push_back(sep);
    out += verdict;
    out.push_back(sep);
    if (won) append_uint(out, row.moves);
    out.push_back(sep);
    append_uint(out, static_cast<std::uint64_t>(row.most_home));
    out.push_back(sep);
    out += exact;
    out.push_back(sep);
    append_uint(out, row.expanded);
    out.push_back(sep);
    append_uint(out, row.stored);
    out.push_back(sep);
    append_uint(out, row.peak_bytes);
    out.push_back(sep);
    // TSV and CSV write round(seconds, 6) with %.6f: the same text as the seconds alone.
    append_fixed6(out, row.seconds);
    out.push_back(sep);
    if (format == RowFormat::Csv)
        append_csv_text(out, row.reason);
    else
        out += row.reason;
    out.push_back('\n');
}

}  // namespace bakers
