// Raising a value shared between threads to a new high (a peak, the most cards home).
#pragma once

#include <atomic>

namespace bakers {

// Sets `shared` to `value` if that is more, whatever other threads write meanwhile.
template <class T>
void raise_to(std::atomic<T>& shared, T value) {
    T seen = shared.load(std::memory_order_relaxed);
    while (value > seen && !shared.compare_exchange_weak(seen, value)) {
    }
}

}  // namespace bakers
