// A transposition table with a hard memory cap: fixed-size, four-way
// buckets of one cache line, never grows. When a bucket is full the entry
// with the least search work behind it is replaced, which keeps the
// expensive proofs (the ones worth remembering) and drops cheap ones.
//
// Keys are either 64-bit hashes (a rare collision is accepted, as in chess
// engines) or exact wide keys such as Key128, for searches whose answers
// must not depend on luck. An all-zero key marks an empty slot.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

#include "core/bits.hpp"

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
    uint64_t buckets = 1;
    while (buckets * 2 * bucket_bytes <= max_bytes) buckets *= 2;
    mask_ = buckets - 1;
    size_ = buckets * kWays;
    // calloc: the kernel hands out zero pages lazily, so a large table costs
    // nothing until it is used (an all-zero Entry is an empty slot).
    entries_.reset(static_cast<Entry*>(std::calloc(size_, sizeof(Entry))));
    if (!entries_) throw std::bad_alloc();
  }

  const Value* find(Key key) {
    key = storable(key);
    Entry* bucket = &entries_[(table_hash(key) & mask_) * kWays];
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
    const char* bucket = reinterpret_cast<const char*>(&entries_[(table_hash(storable(key)) & mask_) * kWays]);
    for (size_t offset = 0; offset < sizeof(Entry) * kWays; offset += 64) __builtin_prefetch(bucket + offset);
  }

  void store(Key key, const Value& value, uint64_t work) {
    key = storable(key);
    const uint32_t w = work > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(work);
    Entry* bucket = &entries_[(table_hash(key) & mask_) * kWays];
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
  }

  TableStats stats() const { return {hits_, stores_, used_, size_, size_ * sizeof(Entry)}; }

 private:
  static_assert(std::is_trivially_copyable_v<Value> && std::is_trivially_copyable_v<Key>);
  struct Free {
    void operator()(Entry* p) const { std::free(p); }
  };
  std::unique_ptr<Entry[], Free> entries_;
  uint64_t size_ = 0;
  uint64_t mask_ = 0;
  uint64_t used_ = 0;
  uint64_t hits_ = 0;
  uint64_t stores_ = 0;
};

}  // namespace sj
