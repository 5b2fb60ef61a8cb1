#include "line.hpp"

namespace bakers {

void rebuild(const MoveGen& gen, const State& start, const std::vector<Move>& chain, Result& res) {
    Unkeyed k{start};  // nothing here looks a position up: no keys
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
        auto play = [&](const Move& single) {
            gen.apply(k, single);
            res.moves.push_back(single);
            gen.settle(k, nullptr, false);  // only mandatory moves happen mid-chain
        };
        if (m.count <= 1) {
            play(m);  // a single move stands for itself (expand's answer, without its list)
        } else {
            for (const Move& single : gen.expand(k.s, m)) play(single);
        }
        settle();
    }
}

}  // namespace bakers
