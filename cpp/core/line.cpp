#include "line.hpp"

namespace bakers {

void rebuild(const MoveGen& gen, const State& start, const std::vector<Move>& chain, Result& res) {
    Unkeyed k{start};  // nothing here looks a position up: no keys
    std::vector<Move> safe, singles;
    auto record = [&] {
        res.moves.insert(res.moves.end(), safe.begin(), safe.end());
        res.compact.insert(res.compact.end(), safe.begin(), safe.end());
        safe.clear();
    };
    gen.settle(k, &safe);
    record();
    res.moves.reserve(res.moves.size() + 3 * chain.size());
    res.compact.reserve(res.compact.size() + 2 * chain.size());
    for (const Move& m : chain) {
        res.compact.push_back(m);
        int mandatory = 0;  // cards sent home mid-chain
        auto play = [&](const Move& single) {
            gen.apply(k, single);
            res.moves.push_back(single);
            mandatory += gen.settle(k, nullptr, false);  // only mandatory moves happen mid-chain
        };
        if (m.count <= 1) {
            play(m);  // a single move stands for itself (expand's answer, without its list)
        } else {
            singles.clear();
            gen.expand(k.s, m, singles);
            for (const Move& single : singles) play(single);
        }
        // The position before m was settled; unless a card went home on the way, k is that
        // position after m, and settle_after does settle's work.
        if (mandatory) gen.settle(k, &safe);
        else gen.settle_after(k, m, &safe);
        record();
    }
    res.move_count = res.moves.size();
}

}  // namespace bakers
