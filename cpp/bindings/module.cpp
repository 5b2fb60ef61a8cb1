// The Python module bakers._core: one register_*() per concept.
#include "../core/pool.hpp"
#include "../core/solve.hpp"
#include "convert.hpp"

PYBIND11_MODULE(_core, m) {
    m.doc() = "The compiled core of bakers: dealing and searching.";
    // The core's rules of the searches, for Python to read rather than restate.
    pybind11::tuple methods(bakers::kMethodNames.size());
    for (std::size_t i = 0; i < bakers::kMethodNames.size(); ++i)
        methods[i] = pybind11::str(bakers::kMethodNames[i].data(), bakers::kMethodNames[i].size());
    m.attr("METHODS") = methods;
    m.attr("MAX_SEARCH_THREADS") = bakers::kMaxSearchThreads;
    m.attr("MAX_POOL_THREADS") = bakers::kMaxPoolThreads;
    bakers::py::register_deal(m);
    bakers::py::register_solve(m);
    bakers::py::register_range(m);
    bakers::py::register_pool(m);
}
