// A transposition table with a hard memory cap: fixed-size, four-way
// buckets of one cache line, never grows. When a bucket is full the entry
// with the least search work behind it is replaced, which keeps the
// expensive proofs (the ones worth remembering) and drops cheap ones.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

namespace sj {

template <class Value>
class BoundedTable {
 public:
  struct Entry {
    uint64_t key = 0;  // 0 marks an empty slot
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

  static uint64_t storable(uint64_t key) { return key ? key : 1; }

  const Value* find(uint64_t key) {
    key = storable(key);
    Entry* bucket = &entries_[(key & mask_) * kWays];
    for (size_t i = 0; i < kWays; ++i)
      if (bucket[i].key == key) {
        ++hits_;
        return &bucket[i].value;
      }
    return nullptr;
  }

  void store(uint64_t key, const Value& value, uint64_t work) {
    key = storable(key);
    const uint32_t w = work > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(work);
    Entry* bucket = &entries_[(key & mask_) * kWays];
    Entry* victim = &bucket[0];
    for (size_t i = 0; i < kWays; ++i) {
      Entry& e = bucket[i];
      if (e.key == key || e.key == 0) {
        if (e.key == 0) ++used_;
        victim = &e;
        break;
      }
      if (e.work < victim->work) victim = &e;
    }
    ++stores_;
    *victim = Entry{key, w, value};
  }

  uint64_t capacity() const { return size_; }
  uint64_t used() const { return used_; }
  uint64_t bytes() const { return size_ * sizeof(Entry); }
  uint64_t hits() const { return hits_; }
  uint64_t stores() const { return stores_; }

 private:
  static_assert(std::is_trivially_copyable_v<Value>);
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
