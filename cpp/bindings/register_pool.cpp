#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "../core/pool.hpp"
#include "../core/row_text.hpp"
#include "../core/solve.hpp"
#include "../core/state.hpp"
#include "convert.hpp"

namespace bakers::py {
namespace {

pb::tuple row_to_python(const RangeRow& row, bool keep_moves) {
    const Result& r = row.result;
    const char* verdict = verdict_text(r.verdict);
    pb::object moves = pb::none(), compact = pb::none();
    if (keep_moves && r.verdict == Verdict::Solved) {
        moves = moves_to_python(r.moves);
        compact = moves_to_python(r.compact);
    }
    return pb::make_tuple(row.index, row.number, verdict, moves, compact, r.stats.expanded,
                          r.stats.generated, r.stats.stored, r.stats.peak_bytes, r.stats.seconds,
                          r.stats.most_home, r.reason);
}

RowFormat row_format_named(const std::string& name) {
    if (name == "tsv") return RowFormat::Tsv;
    if (name == "csv") return RowFormat::Csv;
    if (name == "jsonl") return RowFormat::Jsonl;
    throw pb::value_error("unknown row format '" + name + "' (tsv, csv or jsonl)");
}

Verdict verdict_named(const std::string& name) {
    for (Verdict v : {Verdict::Solved, Verdict::Impossible, Verdict::Unknown})
        if (name == verdict_text(v)) return v;
    throw pb::value_error("unknown verdict '" + name + "'");
}

// A batch of rows as text: (text, rows, (solved, impossible, unknown), seconds as the
// bytes of doubles, largest peak_bytes). Made with the GIL released.
pb::tuple take_text(RangeRun& run, const std::string& format, const std::string& game,
                    bool impossible_exact, std::size_t most, int ms) {
    const RowFormat how = row_format_named(format);
    std::string text;
    std::vector<double> seconds;
    std::uint64_t counts[3] = {0, 0, 0};
    std::uint64_t peak = 0;
    std::size_t rows = 0;
    {
        pb::gil_scoped_release release;
        std::vector<RangeRow> batch = run.take(most, ms);
        rows = batch.size();
        text.reserve(rows * 96);
        seconds.reserve(rows);
        for (const RangeRow& row : batch) {
            const Result& r = row.result;
            RowFields fields;
            fields.deal = row.number;
            fields.verdict = r.verdict;
            fields.moves = row.move_count;
            fields.most_home = r.stats.most_home;
            fields.most_home_exact = r.verdict == Verdict::Solved ||
                                     (r.verdict == Verdict::Impossible && impossible_exact);
            fields.expanded = r.stats.expanded;
            fields.stored = r.stats.stored;
            fields.peak_bytes = r.stats.peak_bytes;
            fields.seconds = r.stats.seconds;
            fields.reason = r.reason;
            append_row(text, how, game, fields);
            seconds.push_back(r.stats.seconds);
            ++counts[static_cast<int>(r.verdict)];
            peak = std::max(peak, r.stats.peak_bytes);
        }
    }
    if (rows == 0 && PyErr_CheckSignals() != 0) {
        run.stop();
        throw pb::error_already_set();
    }
    return pb::make_tuple(
        pb::str(text), rows, pb::make_tuple(counts[0], counts[1], counts[2]),
        pb::bytes(reinterpret_cast<const char*>(seconds.data()), seconds.size() * sizeof(double)),
        peak);
}

}  // namespace

void register_pool(pb::module_& m) {
    m.def(
        "row_text",
        [](const std::string& format, const std::string& game, std::uint64_t deal,
           const std::string& verdict, std::uint64_t moves, int most_home, bool most_home_exact,
           std::uint64_t expanded, std::uint64_t stored, std::uint64_t peak_bytes, double seconds,
           const std::string& reason) {
            RowFields row;
            row.deal = deal;
            row.verdict = verdict_named(verdict);
            row.moves = moves;
            row.most_home = most_home;
            row.most_home_exact = most_home_exact;
            row.expanded = expanded;
            row.stored = stored;
            row.peak_bytes = peak_bytes;
            row.seconds = seconds;
            row.reason = reason;
            std::string out;
            append_row(out, row_format_named(format), game, row);
            return out;
        },
        pb::arg("format"), pb::arg("game"), pb::arg("deal"), pb::arg("verdict"), pb::arg("moves"),
        pb::arg("most_home"), pb::arg("most_home_exact"), pb::arg("expanded"), pb::arg("stored"),
        pb::arg("peak_bytes"), pb::arg("seconds"), pb::arg("reason"),
        "The line of one row of `bakers range` in `format` ('tsv', 'csv', 'jsonl'), as "
        "RangeRun.take_text writes it (for tests of the format).");
    pb::class_<RangeRun, std::unique_ptr<RangeRun>>(
        m, "RangeRun",
        "Decides many deals on worker threads. Iterate it for rows (index, number, verdict, "
        "moves, compact, expanded, generated, stored, peak_bytes, seconds, most_home, reason).")
        .def(pb::init([](const pb::dict& rules, std::vector<std::uint64_t> numbers,
                         const std::vector<pb::tuple>& positions, int threads,
                         std::uint64_t max_nodes, std::uint64_t max_states, std::uint64_t max_bytes,
                         double max_seconds, bool forget, bool ordered, bool keep_moves, const std::string& method) {
                 const Method how = method_named(method);  // each search runs on one thread
                 const Rules r = rules_from_dict(rules);
                 if (threads < 1 || threads > kMaxPoolThreads)
                     throw pb::value_error("threads must be 1.." + std::to_string(kMaxPoolThreads) +
                                           ", not " + std::to_string(threads));
                 for (std::uint64_t n : numbers)
                     if (auto why = number_error(r, n); !why.empty()) throw pb::value_error(why);
                 std::vector<State> starts;
                 for (const pb::tuple& p : positions) {
                     if (p.size() != 3) throw pb::value_error("a position is (columns, cells, found)");
                     starts.push_back(state_from_layout(
                         r, layout_from_python(r, p[0].cast<std::vector<std::vector<int>>>(),
                                               p[1].cast<std::vector<int>>(),
                                               p[2].cast<std::vector<int>>())));
                 }
                 if (!numbers.empty() && !starts.empty())
                     throw pb::value_error("give deal numbers or positions, not both");
                 const Limits limits{max_nodes, max_states, max_bytes, max_seconds, forget};
                 return std::make_unique<RangeRun>(r, std::move(numbers), std::move(starts), threads,
                                                   limits, ordered, keep_moves, how);
             }),
             pb::arg("rules"), pb::arg("numbers"), pb::arg("positions"), pb::arg("threads") = 1,
             pb::arg("max_nodes") = 0, pb::arg("max_states") = 0, pb::arg("max_bytes") = 0,
             pb::arg("max_seconds") = 0.0, pb::arg("forget") = false, pb::arg("ordered") = false, pb::arg("keep_moves") = true,
             pb::arg("method") = "best-first")
        .def("__len__", &RangeRun::size)
        .def("__iter__", [](RangeRun& run) -> RangeRun& { return run; })
        .def(
            "__next__",
            [](RangeRun& run) -> pb::tuple {
                for (;;) {
                    std::optional<RangeRow> row;
                    {
                        // Waiting touches only the run's own C++ state.
                        pb::gil_scoped_release release;
                        row = run.next(50);
                    }
                    if (row) return row_to_python(*row, true);
                    if (run.done()) throw pb::stop_iteration();
                    if (PyErr_CheckSignals() != 0) {
                        run.stop();
                        throw pb::error_already_set();
                    }
                }
            })
        .def("take_text", &take_text, pb::arg("format"), pb::arg("game"),
             pb::arg("impossible_exact"), pb::arg("most") = 4096, pb::arg("ms") = 100,
             "Waits up to `ms` milliseconds for `most` rows and returns the rows finished by "
             "then as the lines of `format` ('tsv', 'csv', 'jsonl'): (text, rows, (solved, "
             "impossible, unknown), seconds as the bytes of doubles, largest peak_bytes). "
             "`impossible_exact`: whether a proof's most_home is exact in this game.")
        .def("done", &RangeRun::done, "Whether every row has been handed out.")
        .def("stop", &RangeRun::stop, "Stops every search; unfinished rows are dropped.");
}

}  // namespace bakers::py
