#include "line.hpp"

namespace bakers {

void rebuild(const MoveGen& gen, const State& start, const std::vector<Move>& chain, Result& res) {
    const Rules& r = gen.rules();
    Keyed k;
    k.s = start;
    k.rehash(r.columns, r.cells);
    std::vector<Move> safe;
    auto settle = [&] {
        safe.clear();
        gen.settle(k, &safe);
        res.moves.insert(res.moves.end(), safe.begin(), safe.end());
        res.compact.insert(res.compact.end(), safe.begin(), safe.end());
    };
    settle();
    for (const Move& m : chain) {
        res.compact.push_back(m);
        for (const Move& single : gen.expand(k.s, m)) {
            gen.apply(k, single);
            res.moves.push_back(single);
            gen.settle(k, nullptr, false);  // only mandatory moves happen mid-chain
        }
        settle();
    }
}

}  // namespace bakers
