#include "column_masks.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace bakers {

#if defined(__SSE2__)
// The vector code reads 65 bytes from the start of a State, its cards first: they must
// lie inside the object.
constexpr std::size_t kReadable = 4 * 16 + 1;
static_assert(offsetof(State, cards) == 0 && sizeof(State) >= kReadable,
              "the 16-byte loads stay inside the State");
// The column ends are read as 16 bytes from their start: 13 ends and 3 bytes of cells.
static_assert(offsetof(State, end) + 16 <= sizeof(State), "the ends' 16-byte load stays inside the State");
constexpr unsigned kColumnLanes = (1U << kMaxColumns) - 1;

__m128i load_ends(const State& s) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(reinterpret_cast<const unsigned char*>(&s) + offsetof(State, end)));
}
#endif

int column_at(const State& s, int p) {
#if defined(__SSE2__)
    // The columns that end at or below p come before p's column: the ends never fall, so
    // they are the first ones, as many as the mask's low ones (ends < 128: a signed
    // compare reads them right; a count of the low ones, not of all the bits, needs no
    // popcount instruction, which the baseline x86-64 target lacks).
    const __m128i at_or_below = _mm_cmpgt_epi8(_mm_set1_epi8(static_cast<char>(p + 1)), load_ends(s));
    return std::countr_one(static_cast<unsigned>(_mm_movemask_epi8(at_or_below)) & kColumnLanes);
#else
    int i = 0;
    while (s.end[i] <= p) ++i;
    return i;
#endif
}

unsigned resized_columns(const State& a, const State& b) {
#if defined(__SSE2__)
    // Column i's size is end[i] - end[i - 1]; the sizes differ where the ends' differences
    // differ: d[i] != d[i - 1], with d[-1] = 0 (both columns start at place 0).
    const __m128i d = _mm_sub_epi8(load_ends(a), load_ends(b));
    const __m128i same = _mm_cmpeq_epi8(d, _mm_slli_si128(d, 1));
    return ~static_cast<unsigned>(_mm_movemask_epi8(same)) & kColumnLanes;
#else
    unsigned out = 0;
    for (int i = 0; i < kMaxColumns; ++i) out |= unsigned{a.end[i] - a.begin(i) != b.end[i] - b.begin(i)} << i;
    return out;
#endif
}

int empty_columns(const State& s, int ncols) {
#if defined(__SSE2__)
    // A column is empty where its end equals the one before (column 0's: place 0); the
    // lanes of the first ncols columns, 1 where empty, summed by psadbw.
    static const auto kFirst = [] {
        std::array<std::array<unsigned char, 16>, kMaxColumns + 1> out{};
        for (int n = 0; n <= kMaxColumns; ++n)
            for (int i = 0; i < n; ++i) out[n][i] = 1;
        return out;
    }();
    const __m128i ends = load_ends(s);
    const __m128i same = _mm_cmpeq_epi8(ends, _mm_slli_si128(ends, 1));
    const __m128i first = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kFirst[ncols].data()));
    const __m128i sums = _mm_sad_epu8(_mm_and_si128(same, first), _mm_setzero_si128());
    return _mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4);
#else
    return s.empty_columns(ncols);
#endif
}

int free_cells(const State& s, int ncells) {
    static_assert(kMaxCells == 8, "the cells read as one 64-bit word");
    if constexpr (std::endian::native == std::endian::little) {
        // A byte is kNoCard (0) exactly when its high bit stays clear in
        // ((byte & 0x7f) + 0x7f) | byte; cell i is byte i of the word.
        std::uint64_t w;
        std::memcpy(&w, s.cells.data(), sizeof w);
        constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL, kHigh = 0x8080808080808080ULL;
        std::uint64_t empty = ~(((w & kLow7) + kLow7) | w) & kHigh;
        if (ncells < kMaxCells) empty &= (std::uint64_t{1} << (8 * ncells)) - 1;
        // The bytes' sum (each 0 or 1) gathers in the top byte of the product.
        return static_cast<int>(((empty >> 7) * 0x0101010101010101ULL) >> 56);
    } else {
        return s.free_cells(ncells);
    }
}

std::uint64_t link_mask(const Rules& rules, const State& s) {
    const int total = s.end[kMaxColumns - 1];
    std::uint64_t starts = 0;  // the place of each column's covered card
    for (int i = 1; i < kMaxColumns; ++i) starts |= std::uint64_t{1} << (s.end[i - 1] & 63);
    starts |= 1;  // place 0: column 0's first card (or nothing)
    std::uint64_t links = 0;
#if defined(__SSE2__)
    // Lane j of chunk c is place p = 16 * c + j: target = cards[p], moving = cards[p + 1],
    // whose link bit is p + 1 (hence the shift below). The loads read the State's own
    // bytes past the cards (kReadable), never past the object; every place at or past
    // `total` is masked off below.
    const auto* base = reinterpret_cast<const unsigned char*>(&s);
    const __m128i low = _mm_set1_epi8(15), one = _mm_set1_epi8(1);
    const __m128i king = _mm_set1_epi8(kKing), ace = _mm_set1_epi8(kAce);
    const __m128i suit_bits = _mm_set1_epi8(0x30), colour_bit = _mm_set1_epi8(0x10);
    const __m128i zero = _mm_setzero_si128();
    std::uint64_t lower = 0;  // bit p: cards[p + 1] builds on cards[p]
    for (int chunk = 0; chunk < 4; ++chunk) {
        const __m128i target = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + 16 * chunk));
        const __m128i moving = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + 16 * chunk + 1));
        const __m128i rm = _mm_and_si128(moving, low), rt = _mm_and_si128(target, low);
        __m128i ok = _mm_cmpeq_epi8(_mm_add_epi8(rm, one), rt);
        if (rules.wrap)
            ok = _mm_or_si128(ok, _mm_and_si128(_mm_cmpeq_epi8(rm, king), _mm_cmpeq_epi8(rt, ace)));
        const __m128i diff = _mm_xor_si128(moving, target);
        switch (rules.build) {
            case Build::Suit:
                ok = _mm_and_si128(ok, _mm_cmpeq_epi8(_mm_and_si128(diff, suit_bits), zero));
                break;
            case Build::Alternate:
                ok = _mm_andnot_si128(_mm_cmpeq_epi8(_mm_and_si128(diff, colour_bit), zero), ok);
                break;
            case Build::Any: break;
        }
        lower |= static_cast<std::uint64_t>(static_cast<std::uint16_t>(_mm_movemask_epi8(ok)))
                 << (16 * chunk);
    }
    links = lower << 1;
#else
    for (int p = 1; p < total; ++p)
        links |= std::uint64_t{rules.builds_on(s.cards[p], s.cards[p - 1])} << p;
#endif
    return links & ~starts & places_between(0, total);
}

std::uint64_t places_of(const State& s, CardSet wanted) {
    std::uint64_t found = 0;
#if defined(__SSE2__)
    // The loads read the State's own bytes past the cards (kReadable); places past the
    // last card are masked off below.
    const auto* base = reinterpret_cast<const unsigned char*>(&s);
    __m128i chunks[4];
    for (int c = 0; c < 4; ++c) chunks[c] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + 16 * c));
    for (CardSet w = wanted; w; w &= w - 1) {
        const __m128i card = _mm_set1_epi8(static_cast<char>(__builtin_ctzll(w)));
        for (int c = 0; c < 4; ++c)
            found |= static_cast<std::uint64_t>(static_cast<std::uint16_t>(
                         _mm_movemask_epi8(_mm_cmpeq_epi8(chunks[c], card))))
                     << (16 * c);
    }
#else
    for (int p = 0; p < kMaxCards; ++p) found |= ((wanted >> s.cards[p]) & 1) << p;
#endif
    return found & places_between(0, s.end[kMaxColumns - 1]);
}

}  // namespace bakers
