// A transposition table with a hard memory cap: four-way buckets, and when
// a bucket is full the entry with the least search work behind it is
// replaced, which keeps the expensive proofs (the ones worth remembering)
// and drops cheap ones.
//
// The cap is reserved up front but used from a small prefix that doubles
// in place while the table is half full: a bucket's entries move either
// nowhere or exactly one old table's length up, so growing needs no second
// table. A search that stores few states then touches little memory, and
// probes stay within fewer pages (1.5x faster at 1.4M states under a
// 3 GiB cap than spreading them over the whole cap). The last step may be
// less than a doubling, so that a cap between two powers of two is used
// whole (a cap just short of one used to waste almost half of itself).
//
// Keys are either 64-bit hashes (a rare collision is accepted, as in chess
// engines) or exact wide keys such as Key128, for searches whose answers
// must not depend on luck. An all-zero key marks an empty slot.
#pragma once
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

#include "core/bits.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sj {

// A 128-bit exact key; games keep it non-zero by setting a marker bit.
struct Key128 {
  uint64_t lo = 0, hi = 0;
  bool operator==(const Key128&) const = default;
};

inline uint64_t table_hash(uint64_t key) { return key; }
inline uint64_t table_hash(const Key128& key) { return mix64(key.lo ^ mix64(key.hi)); }
inline uint64_t storable(uint64_t key) { return key ? key : 1; }
inline const Key128& storable(const Key128& key) { return key; }

// How a table was used, for search statistics.
struct TableStats {
  uint64_t hits = 0;
  uint64_t stores = 0;
  uint64_t used = 0;  // entries holding a state
  uint64_t capacity = 0;
  uint64_t bytes = 0;

  // Two tables' totals.
  TableStats& operator+=(const TableStats& o) {
    hits += o.hits;
    stores += o.stores;
    used += o.used;
    capacity += o.capacity;
    bytes += o.bytes;
    return *this;
  }
};

template <class Value, class Key = uint64_t>
class BoundedTable {
 public:
  struct Entry {
    Key key{};  // all zero marks an empty slot
    uint32_t work = 0;
    Value value{};
  };
  static constexpr size_t kWays = 4;

  explicit BoundedTable(uint64_t max_bytes) {
    const uint64_t bucket_bytes = sizeof(Entry) * kWays;
    max_buckets_ = std::max<uint64_t>(1, max_bytes / bucket_bytes);
    entries_ = std::unique_ptr<Entry[], Free>(static_cast<Entry*>(zeroed(max_buckets_ * bucket_bytes)),
                                              Free{max_buckets_ * bucket_bytes});
    uint64_t start = 1;
    while (start * 2 <= std::min(max_buckets_, kStartBuckets)) start *= 2;
    buckets_ = start;
    mask_ = start - 1;
    size_ = start * kWays;
  }

  const Value* find(Key key) {
    key = storable(key);
    Entry* bucket = &entries_[bucket_of(table_hash(key)) * kWays];
    for (size_t i = 0; i < kWays; ++i)
      if (bucket[i].key == key) {
        ++hits_;
        return &bucket[i].value;
      }
    return nullptr;
  }

  // Starts loading a key's bucket: a search that will look up several
  // keys asks for all of them first, so the cache misses overlap.
  void prefetch(Key key) const {
    const char* bucket = reinterpret_cast<const char*>(&entries_[bucket_of(table_hash(storable(key))) * kWays]);
    for (size_t offset = 0; offset < sizeof(Entry) * kWays; offset += 64) __builtin_prefetch(bucket + offset);
  }

  void store(Key key, const Value& value, uint64_t work) {
    key = storable(key);
    const uint32_t w = work > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(work);
    Entry* bucket = &entries_[bucket_of(table_hash(key)) * kWays];
    Entry* victim = &bucket[0];
    for (size_t i = 0; i < kWays; ++i) {
      Entry& e = bucket[i];
      if (e.key == key || e.key == Key{}) {
        if (e.key == Key{}) ++used_;
        victim = &e;
        break;
      }
      if (e.work < victim->work) victim = &e;
    }
    ++stores_;
    *victim = Entry{key, w, value};
    if (used_ * 2 > size_ && buckets_ < max_buckets_) grow();
  }

  TableStats stats() const { return {hits_, stores_, used_, size_, size_ * sizeof(Entry)}; }

 private:
  static_assert(std::is_trivially_copyable_v<Value> && std::is_trivially_copyable_v<Key>);
  // Zeroed memory that the kernel hands out lazily, so the reserved cap
  // costs nothing until the table grows into it (an all-zero Entry is an
  // empty slot).
  static void* zeroed(uint64_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return p;
#else
    void* p = std::calloc(bytes, 1);
    if (!p) throw std::bad_alloc();
    return p;
#endif
  }
  struct Free {
    uint64_t bytes = 0;
    void operator()(Entry* p) const {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
      munmap(p, bytes);
#else
      std::free(p);
#endif
    }
  };
  static constexpr uint64_t kStartBuckets = uint64_t{1} << 14;
  static constexpr uint64_t kHugePagesFrom = uint64_t{1} << 30;

  // Doubles the buckets in use (the last step, to the cap, may add fewer):
  // an entry of bucket i stays, or moves to bucket i + old length when its
  // hash has that bit and that bucket is within the cap. Both buckets stay
  // packed from the front (store() takes the first empty slot as the end).
  void grow() {
    const uint64_t old_buckets = buckets_;  // a power of two: only the last step is not a doubling
    const uint64_t new_buckets = std::min(2 * old_buckets, max_buckets_);
    for (uint64_t b = 0; b + old_buckets < new_buckets; ++b) {
      Entry* from = &entries_[b * kWays];
      Entry* to = &entries_[(b + old_buckets) * kWays];
      size_t stayed = 0, moved = 0;
      for (size_t i = 0; i < kWays && from[i].key != Key{}; ++i) {
        const Entry e = from[i];
        from[i] = Entry{};
        if (table_hash(e.key) & old_buckets) to[moved++] = e;
        else from[stayed++] = e;
      }
    }
    mask_ = 2 * old_buckets - 1;
    buckets_ = new_buckets;
    size_ = new_buckets * kWays;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // Past a gigabyte, huge pages where the kernel grants them: probes at
    // random over gigabytes of 4 KiB pages spend much of their time on TLB
    // misses (1.15x faster over 6.4 GB), while below it the kernel's work
    // to find huge pages costs more than it saves (3-8% slower). A
    // request: refused, the table works as before.
    if (!huge_pages_ && size_ * sizeof(Entry) >= kHugePagesFrom) {
      madvise(entries_.get(), max_buckets_ * kWays * sizeof(Entry), MADV_HUGEPAGE);
      huge_pages_ = true;
    }
#endif
  }

  // The bucket of a hash. Once the table has grown to a cap that is not a
  // power of two, the buckets past it fold back onto the old ones they
  // would have split from, so every byte of the cap holds entries.
  uint64_t bucket_of(uint64_t hash) const {
    const uint64_t b = hash & mask_;
    return b < buckets_ ? b : b - (mask_ + 1) / 2;
  }

  std::unique_ptr<Entry[], Free> entries_;
  uint64_t max_buckets_ = 0;
  uint64_t buckets_ = 0;  // in use
  bool huge_pages_ = false;
  uint64_t size_ = 0;
  uint64_t mask_ = 0;
  uint64_t used_ = 0;
  uint64_t hits_ = 0;
  uint64_t stores_ = 0;
};

}  // namespace sj
