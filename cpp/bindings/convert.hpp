// Conversions between Python values and the core's types, shared by the register_*()
// files. Every check raises a Python ValueError with a message; the core never sees bad
// input.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "../core/deal.hpp"
#include "../core/rules.hpp"
#include "../core/row_text.hpp"  // verdict_text: a verdict's name
#include "../core/search.hpp"

namespace bakers::py {

namespace pb = pybind11;

// Returns the Rules of a dict of Variant fields (see python/bakers/variants.py).
Rules rules_from_dict(const pb::dict& d);
// Returns a Layout of columns, cells (0 = empty) and foundation heights, checked for rules.
Layout layout_from_python(const Rules& rules, const std::vector<std::vector<int>>& columns,
                          const std::vector<int>& cells, const std::vector<int>& found);
// Returns (columns, cells, foundation heights) of a layout.
pb::tuple layout_to_python(const Layout& layout);
// Returns moves as tuples (src_kind, src, dst_kind, dst, count), kinds 0 column, 1 cell,
// 2 foundation.
pb::list moves_to_python(const std::vector<Move>& line);
// Returns "solved", "impossible" or "unknown".

void register_deal(pb::module_& m);
void register_solve(pb::module_& m);
void register_range(pb::module_& m);
void register_pool(pb::module_& m);

}  // namespace bakers::py
