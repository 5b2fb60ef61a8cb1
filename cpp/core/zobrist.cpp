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
    Key ls, ld;
    key = key_after_move(src, dst, n, ls, ld);
    col[src] = ls;
    col[dst] = ld;
    s.move_cards(src, dst, n);
}

Card Keyed::pop(int i) {
    const Card c = s.top(i);
    Key after = col[i];
    after ^= Zobrist::get().term(c, s.size(i) - 1);
    key = with_column(key, col[i], after);
    col[i] = after;
    s.pop(i);
    return c;
}

void Keyed::push(int i, Card c) {
    Key after = col[i];
    after ^= Zobrist::get().term(c, s.size(i));
    key = with_column(key, col[i], after);
    col[i] = after;
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

void Keyed::change_to(const State& after, unsigned columns, int ncells) {
    const Zobrist& z = Zobrist::get();
    for (; columns; columns &= columns - 1) {
        const int i = __builtin_ctz(columns);
        const Key l = z.column_hash(after, i);
        key = with_column(key, col[i], l);
        col[i] = l;
    }
    for (int i = 0; i < ncells; ++i)
        if (s.cells[i] != after.cells[i]) {
            if (s.cells[i] != kNoCard) key ^= z.cell(s.cells[i]);
            if (after.cells[i] != kNoCard) key ^= z.cell(after.cells[i]);
        }
    s = after;
}

bool Keyed::key_is_consistent(int ncols, int ncells) const {
    return key == Zobrist::get().key(s, ncols, ncells);
}

}  // namespace bakers
