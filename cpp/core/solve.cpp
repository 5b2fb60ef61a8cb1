#include "solve.hpp"

#include "beam.hpp"
#include "best_first.hpp"
#include "depth_first.hpp"
#include "depth_first_threads.hpp"
#include "portfolio.hpp"

namespace bakers {

Result solve(const Rules& rules, const State& start, const Limits& limits,
             const std::atomic<bool>* stop, const StopPoll& poll, int threads, Method method) {
    switch (method) {
        case Method::DepthFirst:
            return threads > 1 ? solve_depth_first_threads(rules, start, limits, stop, poll, threads)
                               : solve_depth_first(rules, start, limits, stop, poll);
        case Method::Portfolio: return solve_portfolio(rules, start, limits, stop, poll, threads);
        case Method::Beam: return solve_beam(rules, start, limits, stop, poll);
        case Method::BestFirst: break;
    }
    return solve_best_first(rules, start, limits, stop, poll, threads);
}

}  // namespace bakers
