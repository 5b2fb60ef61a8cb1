#include "zobrist.hpp"

namespace bakers {

Zobrist::Zobrist() {
    // SplitMix64 from a fixed seed: the same keys on every run and machine.
    std::uint64_t x = 0x9e3779b97f4a7c15ULL ^ 0xba4e25ULL;
    auto next = [&x] {
        x += 0x9e3779b97f4a7c15ULL;
        return fmix_b(x);
    };
    for (auto& row : z_)
        for (auto& k : row) k = Key{next(), next()};
    for (auto& k : c_) k = Key{next(), next()};
}

const Zobrist& Zobrist::get() {
    static const Zobrist tables;
    return tables;
}

void Keyed::rehash(int ncols, int ncells) {
    const Zobrist& z = Zobrist::get();
    key = Key{};
    for (int i = 0; i < kMaxColumns; ++i) {
        col[i] = i < ncols ? z.column_hash(s, i) : Key{};
        key ^= Zobrist::mix(col[i]);
    }
    for (int i = 0; i < ncells; ++i)
        if (s.cells[i] != kNoCard) key ^= z.cell(s.cells[i]);
}

void Keyed::move_cards(int src, int dst, int n) {
    const Zobrist& z = Zobrist::get();
    Key ls = col[src], ld = col[dst];
    const int ssize = s.size(src), dsize = s.size(dst);
    for (int k = 0; k < n; ++k) {
        const Card c = s.cards[s.end[src] - n + k];
        ls ^= z.term(c, ssize - n + k);
        ld ^= z.term(c, dsize + k);
    }
    key ^= Zobrist::mix(col[src]);
    key ^= Zobrist::mix(col[dst]);
    key ^= Zobrist::mix(ls);
    key ^= Zobrist::mix(ld);
    col[src] = ls;
    col[dst] = ld;
    s.move_cards(src, dst, n);
}

Card Keyed::pop(int i) {
    const Zobrist& z = Zobrist::get();
    const Card c = s.top(i);
    key ^= Zobrist::mix(col[i]);
    col[i] ^= z.term(c, s.size(i) - 1);
    key ^= Zobrist::mix(col[i]);
    s.pop(i);
    return c;
}

void Keyed::push(int i, Card c) {
    const Zobrist& z = Zobrist::get();
    key ^= Zobrist::mix(col[i]);
    col[i] ^= z.term(c, s.size(i));
    key ^= Zobrist::mix(col[i]);
    s.push(i, c);
}

void Keyed::put_cell(int i, Card c) {
    s.cells[i] = c;
    key ^= Zobrist::get().cell(c);
}

Card Keyed::take_cell(int i) {
    const Card c = s.cells[i];
    s.cells[i] = kNoCard;
    key ^= Zobrist::get().cell(c);
    return c;
}

bool Keyed::key_is_consistent(int ncols, int ncells) const {
    return key == Zobrist::get().key(s, ncols, ncells);
}

}  // namespace bakers
