#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "../core/solve.hpp"
#include "../core/state.hpp"
#include "convert.hpp"

namespace bakers::py {
void register_range(pb::module_& m) {
    m.def(
        "solve_numbers",
        [](const pb::dict& rules, std::uint64_t first, std::uint64_t last, std::uint64_t max_nodes,
           std::uint64_t max_states, std::uint64_t max_bytes, double max_seconds, bool forget,
           const std::string& method) {
            const Rules r = rules_from_dict(rules);
            const Method how = method_named(method);
            if (first < 1 || last < first) throw pb::value_error("bad range of deal numbers");
            Layout probe;
            if (auto why = deal_number(r, last, probe); !why.empty()) throw pb::value_error(why);
            const Limits limits{max_nodes, max_states, max_bytes, max_seconds, forget};
            std::atomic<bool> stop{false};
            const StopPoll poll = [&stop](const Progress&) {
                pb::gil_scoped_acquire gil;
                if (PyErr_CheckSignals() != 0) {
                    PyErr_Clear();
                    stop = true;
                }
                return stop.load();
            };
            std::vector<pb::tuple> rows;
            std::vector<std::tuple<std::uint64_t, Verdict, std::size_t, Stats, std::string>> out;
            {
                // Deals are made and searched in C++ only; no Python object is touched.
                pb::gil_scoped_release release;
                for (std::uint64_t n = first; n <= last && !stop; ++n) {
                    Layout layout;
                    deal_number(r, n, layout);
                    // The moves counted, not written out, as `bakers range` without --solutions.
                    Result res = solve(r, state_from_layout(r, layout), limits, &stop, poll, 1, how, false);
                    if (res.reason == "interrupted") break;
                    out.emplace_back(n, res.verdict, res.move_count, res.stats, res.reason);
                }
            }
            pb::list result;
            for (const auto& [n, v, len, st, why] : out)
                result.append(pb::make_tuple(n, verdict_text(v), len, st.expanded, st.stored,
                                             st.peak_bytes, st.seconds, st.most_home, why));
            return pb::make_tuple(result, stop.load());
        },
        pb::arg("rules"), pb::arg("first"), pb::arg("last"), pb::arg("max_nodes") = 0,
        pb::arg("max_states") = 0, pb::arg("max_bytes") = 0, pb::arg("max_seconds") = 0.0, pb::arg("forget") = false,
        pb::arg("method") = "best-first",
        "Deals and decides deals first..last in C++ on one thread, each by a search of "
        "`method`. Returns (rows, interrupted) "
        "with rows (number, verdict, moves, expanded, stored, peak_bytes, seconds, most_home, "
        "reason).");
}

}  // namespace bakers::py
