#include <pybind11/pybind11.h>

#include <optional>

#include "../core/checkpoint.hpp"
#include "../core/depth_first.hpp"
#include "../core/solve.hpp"
#include "../core/state.hpp"
#include "convert.hpp"

namespace bakers::py {
namespace {

pb::dict result_to_python(const Result& res) {
    pb::dict d;
    d["verdict"] = verdict_text(res.verdict);
    d["reason"] = res.reason;
    d["moves"] = moves_to_python(res.moves);
    d["compact"] = moves_to_python(res.compact);
    d["expanded"] = res.stats.expanded;
    d["generated"] = res.stats.generated;
    d["stored"] = res.stats.stored;
    d["peak_bytes"] = res.stats.peak_bytes;
    d["seconds"] = res.stats.seconds;
    d["most_home"] = res.stats.most_home;
    return d;
}

}  // namespace

void register_solve(pb::module_& m) {
    // A checkpoint file of another search, or a damaged one (bad input: a ValueError);
    // one that cannot be written or read (an OSError).
    pb::register_exception<CheckpointMismatch>(m, "CheckpointMismatch", PyExc_ValueError);
    pb::register_exception<CheckpointError>(m, "CheckpointIOError", PyExc_OSError);
    m.def(
        "legal_moves",
        [](const pb::dict& rules, const std::vector<std::vector<int>>& columns,
           const std::vector<int>& cells, const std::vector<int>& found) {
            const Rules r = rules_from_dict(rules);
            const State s = state_from_layout(r, layout_from_python(r, columns, cells, found));
            MoveList list;
            MoveGen(r).generate(s, list);
            return moves_to_python(std::vector<Move>(list.moves.begin(), list.moves.begin() + list.size));
        },
        pb::arg("rules"), pb::arg("columns"), pb::arg("cells"), pb::arg("found"),
        "Returns the moves the search considers in a position (see moves.hpp for the "
        "provably useless moves it leaves out), as (src_kind, src, dst_kind, dst, count).");
    m.def(
        "settle",
        [](const pb::dict& rules, const std::vector<std::vector<int>>& columns,
           const std::vector<int>& cells, const std::vector<int>& found) {
            const Rules r = rules_from_dict(rules);
            Keyed k;
            k.s = state_from_layout(r, layout_from_python(r, columns, cells, found));
            k.rehash(r.columns, r.cells);
            std::vector<Move> safe;
            MoveGen(r).settle(k, &safe);
            return pb::make_tuple(moves_to_python(safe), layout_to_python(layout_from_state(r, k.s)));
        },
        pb::arg("rules"), pb::arg("columns"), pb::arg("cells"), pb::arg("found"),
        "Applies the mandatory and the provably safe foundation moves: returns the safe "
        "moves made and the resulting (columns, cells, foundation heights).");
    m.def(
        "solve",
        [](const pb::dict& rules, const std::vector<std::vector<int>>& columns,
           const std::vector<int>& cells, const std::vector<int>& found, std::uint64_t max_nodes,
           std::uint64_t max_states, std::uint64_t max_bytes, double max_seconds, bool forget, int threads,
           const std::string& method, const pb::object& progress, const std::string& checkpoint,
           double checkpoint_seconds) {
            const Method how = method_named(method);
            check_search(how, threads, !checkpoint.empty());
            const Rules r = rules_from_dict(rules);
            const State start = state_from_layout(r, layout_from_python(r, columns, cells, found));
            const Limits limits{max_nodes, max_states, max_bytes, max_seconds, forget};
            // Checks for Ctrl-C and calls `progress(expanded, stored, seconds, most_home)` (unless
            // None): takes the GIL for an instant about every 50 ms. An exception raised
            // by `progress` stops the search and is raised again once it is over.
            std::optional<pb::error_already_set> raised;
            const StopPoll poll = [&](const Progress& p) {
                pb::gil_scoped_acquire gil;
                if (PyErr_CheckSignals() != 0) {
                    PyErr_Clear();
                    return true;
                }
                if (progress.is_none()) return false;
                try {
                    progress(p.expanded, p.stored, p.seconds, p.most_home);
                } catch (pb::error_already_set& e) {
                    raised.emplace(std::move(e));
                    return true;
                }
                return false;
            };
            Result res;
            {
                // The search touches only C++ values built above (and the GIL is taken
                // for the poll), so other Python threads may run meanwhile.
                pb::gil_scoped_release release;
                if (checkpoint.empty()) {
                    res = solve(r, start, limits, nullptr, poll, threads, how);
                } else {
                    const Checkpoint ck{checkpoint, checkpoint_seconds};
                    res = solve_depth_first(r, start, limits, nullptr, poll, ChildOrder::Progress, 0, 0, &ck);
                }
            }
            if (raised) throw std::move(*raised);
            return result_to_python(res);
        },
        pb::arg("rules"), pb::arg("columns"), pb::arg("cells"), pb::arg("found"),
        pb::arg("max_nodes") = 0, pb::arg("max_states") = 0, pb::arg("max_bytes") = 0,
        pb::arg("max_seconds") = 0.0, pb::arg("forget") = false, pb::arg("threads") = 1, pb::arg("method") = "best-first",
        pb::arg("progress") = pb::none(), pb::arg("checkpoint") = "", pb::arg("checkpoint_seconds") = 900.0,
        "Decides a position on `threads` threads (beam: one) by `method`: returns "
        "a dict with verdict, moves and statistics. With `checkpoint` (a path; depth first), "
        "goes on from the search saved there if any, and saves it there every "
        "`checkpoint_seconds` and when a limit or Ctrl-C stops it (depth_first.hpp).");
}

}  // namespace bakers::py
