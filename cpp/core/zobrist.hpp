// Table keys: 128-bit Zobrist-style keys, canonical under any reordering of the columns
// and of the cells, updated incrementally move by move.
//
// Design. Columns are interchangeable and so are cells, so a key must not depend on where
// a column or a cell sits. Each column gets a 128-bit *column hash* L, the XOR of
// Z[card][depth] over its cards (depth 0 = the covered card): a card pushed on or popped
// off a column changes L by one XOR. The key is the XOR over columns of mix(L) and over
// occupied cells of C[card]. XOR is order-free, so the key is canonical; `mix` is a
// bijective non-linear finaliser applied to each half, without which XOR-ing column hashes
// would confuse "x y | z" with "x | z y" (the same (card, depth) pairs in other columns).
// An empty column has L = 0 and mix(0) = 0. Foundations need no term: the cards home are
// exactly the cards absent from columns and cells. The two 64-bit halves use independent
// tables and different finalisers, so the chance that two of n distinct states share a
// key is about n^2 / 2^129 (below 1e-20 for a billion states): see docs/architecture.md, "Why an
// impossible can be trusted".
#pragma once

#include <array>
#include <cstdint>

#include "state.hpp"

namespace bakers {

struct Key {
    std::uint64_t lo = 0, hi = 0;
    bool operator==(const Key&) const = default;
    Key& operator^=(const Key& o) {
        lo ^= o.lo;
        hi ^= o.hi;
        return *this;
    }
};

class Zobrist {
public:
    // Returns the process-wide tables, made once from a fixed seed.
    static const Zobrist& get();

    // Returns Z[card][depth], the term of `card` at `depth` in a column.
    const Key& term(Card c, int depth) const { return z_[c][depth]; }
    // Returns C[card], the term of `card` in a cell.
    const Key& cell(Card c) const { return c_[c]; }
    // Returns the key contribution of a column whose column hash is `l`.
    static Key mix(const Key& l) { return Key{fmix_a(l.lo), fmix_b(l.hi)}; }

    // Returns the column hash of column i of s, from scratch.
    Key column_hash(const State& s, int i) const {
        Key l;
        for (int k = 0, b = s.begin(i); b + k < s.end[i]; ++k) l ^= term(s.cards[b + k], k);
        return l;
    }
    // Returns the key of s, from scratch.
    Key key(const State& s, int ncols, int ncells) const {
        Key k;
        for (int i = 0; i < ncols; ++i) k ^= mix(column_hash(s, i));
        for (int i = 0; i < ncells; ++i)
            if (s.cells[i] != kNoCard) k ^= cell(s.cells[i]);
        return k;
    }

private:
    Zobrist();
    // MurmurHash3's 64-bit finaliser: a bijection with fmix(0) = 0.
    static std::uint64_t fmix_a(std::uint64_t x) {
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        x *= 0xc4ceb9fe1a85ec53ULL;
        return x ^ (x >> 33);
    }
    // SplitMix64's finaliser: another bijection with fmix(0) = 0.
    static std::uint64_t fmix_b(std::uint64_t x) {
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    }
    std::array<std::array<Key, kMaxCards>, 64> z_{};
    std::array<Key, 64> c_{};
};

// A state with its column hashes and key, kept up to date by every change.
struct Keyed {
    State s;
    std::array<Key, kMaxColumns> col{};
    Key key;

    // Recomputes the column hashes and the key from scratch.
    void rehash(int ncols, int ncells);
    // The keys these changes would give, computed without making them (the changes
    // below use them too, so a preview and the change agree by construction).
    // Returns the key after moving the top n cards of column src onto column dst, and in
    // ls and ld the two columns' new hashes.
    Key key_after_move(int src, int dst, int n, Key& ls, Key& ld) const;
    // Returns the key after the top card of column src goes into a cell, and in ls the
    // column's new hash.
    Key key_after_to_cell(int src, Key& ls) const;
    // Returns the key after the card of cell i goes onto column dst, and in ld the
    // column's new hash.
    Key key_after_from_cell(int i, int dst, Key& ld) const;

    // Moves the top n cards of column src onto column dst, updating the key.
    void move_cards(int src, int dst, int n);
    // Pops the top card of column i, updating the key; returns it.
    Card pop(int i);
    // Pushes c on column i, updating the key.
    void push(int i, Card c);
    // Puts c in cell i (which must be empty), updating the key.
    void put_cell(int i, Card c);
    // Empties cell i, updating the key; returns its card.
    Card take_cell(int i);
    // Makes this the position `after`, which differs from it only in the columns of the
    // bit mask `columns` and in the cells: their hashes are made anew, the key updated.
    void change_to(const State& after, unsigned columns, int ncells);
    // Returns true if the key equals a from-scratch computation (the debug check).
    bool key_is_consistent(int ncols, int ncells) const;

    // Returns key with one column's contribution changed from hash `before` to `after`.
    static Key with_column(Key key, const Key& before, const Key& after) {
        key ^= Zobrist::mix(before);
        key ^= Zobrist::mix(after);
        return key;
    }
};

// The previews are inline: the search calls them for every child.
inline Key Keyed::key_after_move(int src, int dst, int n, Key& ls, Key& ld) const {
    const Zobrist& z = Zobrist::get();
    ls = col[src];
    ld = col[dst];
    const int ssize = s.size(src), dsize = s.size(dst);
    for (int k = 0; k < n; ++k) {
        const Card c = s.cards[s.end[src] - n + k];
        ls ^= z.term(c, ssize - n + k);
        ld ^= z.term(c, dsize + k);
    }
    return with_column(with_column(key, col[src], ls), col[dst], ld);
}

inline Key Keyed::key_after_to_cell(int src, Key& ls) const {
    const Zobrist& z = Zobrist::get();
    const Card c = s.top(src);
    ls = col[src];
    ls ^= z.term(c, s.size(src) - 1);
    Key k = with_column(key, col[src], ls);
    k ^= z.cell(c);
    return k;
}

inline Key Keyed::key_after_from_cell(int i, int dst, Key& ld) const {
    const Zobrist& z = Zobrist::get();
    const Card c = s.cells[i];
    ld = col[dst];
    ld ^= z.term(c, s.size(dst));
    Key k = with_column(key, col[dst], ld);
    k ^= z.cell(c);
    return k;
}

}  // namespace bakers
