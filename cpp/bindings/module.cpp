// The Python module bakers._core: one register_*() per concept.
#include "convert.hpp"

PYBIND11_MODULE(_core, m) {
    m.doc() = "The compiled core of bakers: dealing and searching.";
    bakers::py::register_deal(m);
    bakers::py::register_solve(m);
    bakers::py::register_range(m);
    bakers::py::register_pool(m);
}
