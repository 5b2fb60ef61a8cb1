// A lock for short critical sections between few threads: it spins (with the processor's
// pause hint) instead of sleeping in the kernel, and yields the core after a while, so a
// thread that was descheduled while holding it is not waited for at full speed.
#pragma once

#include <atomic>
#include <thread>

namespace bakers {

class SpinLock {
public:
    void lock() {
        for (int spins = 0;; ++spins) {
            if (!flag_.exchange(true, std::memory_order_acquire)) return;
            while (flag_.load(std::memory_order_relaxed)) {
                if (++spins > 1000) {
                    std::this_thread::yield();
                    spins = 0;
                }
#if defined(__x86_64__) || defined(__i386__)
                __builtin_ia32_pause();
#endif
            }
        }
    }
    bool try_lock() { return !flag_.exchange(true, std::memory_order_acquire); }
    void unlock() { flag_.store(false, std::memory_order_release); }

private:
    std::atomic<bool> flag_{false};
};

}  // namespace bakers
