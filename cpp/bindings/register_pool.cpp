#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>

#include "../core/pool.hpp"
#include "../core/solve.hpp"
#include "../core/state.hpp"
#include "convert.hpp"

namespace bakers::py {
namespace {

pb::tuple row_to_python(const RangeRow& row, bool keep_moves) {
    const Result& r = row.result;
    const char* verdict = verdict_name(r.verdict);
    pb::object moves = pb::none(), compact = pb::none();
    if (keep_moves && r.verdict == Verdict::Solved) {
        moves = moves_to_python(r.moves);
        compact = moves_to_python(r.compact);
    }
    return pb::make_tuple(row.index, row.number, verdict, moves, compact, r.stats.expanded,
                          r.stats.generated, r.stats.stored, r.stats.peak_bytes, r.stats.seconds,
                          r.stats.most_home, r.reason);
}

}  // namespace

void register_pool(pb::module_& m) {
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
        .def("stop", &RangeRun::stop, "Stops every search; unfinished rows are dropped.");
}

}  // namespace bakers::py
