// A vector of at most N elements kept inside the object: for the small
// lists a move carries (the cells of an evacuation), made by the thousand
// in a search's hot loop, where a heap vector costs a malloc and a free each.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace sj {

template <typename T, size_t N>
class InlineVector {
  static_assert(N < 256, "the size is kept in one byte");

 public:
  static constexpr size_t capacity() { return N; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == N; }
  // The caller keeps within capacity() (a game's rules bound its lists;
  // input is checked with full() before it is stored).
  void push_back(const T& x) { items_[size_++] = x; }
  void clear() { size_ = 0; }
  T* begin() { return items_.data(); }
  T* end() { return items_.data() + size_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }
  const T& operator[](size_t i) const { return items_[i]; }

  friend bool operator==(const InlineVector& a, const InlineVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator<(const InlineVector& a, const InlineVector& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  std::array<T, N> items_{};
  uint8_t size_ = 0;
};

}  // namespace sj
