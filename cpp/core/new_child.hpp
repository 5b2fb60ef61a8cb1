// Storing a new child: the step that depth first and the beam search share.
#pragma once

#include <cassert>
#include <vector>

#include "moves.hpp"
#include "table.hpp"

namespace bakers {

// Appends to `out` the child that the move m (one that is not quiet, see MoveGen::quiet_key)
// makes from the settled position k, settled, and stores its key in `table`, if the table
// does not hold it yet; returns false (out unchanged) when it does.
// `Table` is any visited set with `bool insert(Key)` (table.hpp, dense_table.hpp).
template <class Table>
bool add_made_if_new(const MoveGen& gen, Table& table, const Keyed& k, Move m, std::vector<Keyed>& out) {
    Keyed& child = out.emplace_back(k);
    gen.apply(child, m);
    gen.settle_after(child, m);
    if (table.insert(child.key)) return true;
    out.pop_back();
    return false;
}

// The same for any move: a quiet move's child is looked up by its key first and made
// only when new (in Baker's Game about two children in three are positions seen before).
template <class Table>
bool add_if_new(const MoveGen& gen, Table& table, const Keyed& k, Move m, std::vector<Keyed>& out) {
    Key quiet;
    if (!gen.quiet_key(k, m, quiet)) return add_made_if_new(gen, table, k, m, out);
    if (!table.insert(quiet)) return false;
    Keyed& child = out.emplace_back(k);
    gen.apply(child, m);
    assert(child.key == quiet);
    assert(gen.settle_after(child, m) == 0);
    return true;
}

}  // namespace bakers
