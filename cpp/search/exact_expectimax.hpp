// Generic exact expectimax over integer values: one player, chance nodes
// with integer weights, no cycles. Unlike expectimax.hpp (probabilities in
// doubles), every answer here is an exact fraction.
//
// A node's value is kept as numerator / denominator with both unsigned
// 128-bit integers, unreduced: a chance node sums weight * child numerator
// over a common denominator (total weight * the children's denominator), a
// decision node takes the largest numerator once its children share one.
// In games where every path from a node meets the same chance layers (the
// usual case: a draw a turn) the denominators already agree and the
// arithmetic is sums and comparisons only; otherwise children are brought
// to their least common multiple. Any product that would overflow stops the
// search (ExactOutcome::kOverflow), never a wrong answer. Results are
// reduced by their gcd only at the end.
//
// Games plug in through ExactExpectimaxGame. An optional admissible
// integer bound (upper_value) cuts decision children that cannot beat the
// best sibling found so far; it never changes the value.
#pragma once
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <string>
#include <vector>

#include "core/limits.hpp"
#include "core/table.hpp"

namespace sj {

__extension__ typedef unsigned __int128 Uint128;

struct ExactValue {
  Uint128 numerator = 0;
  Uint128 denominator = 1;
};

inline Uint128 gcd128(Uint128 a, Uint128 b) {
  while (b != 0) {
    const Uint128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

inline ExactValue reduced(ExactValue v) {
  const Uint128 g = gcd128(v.numerator, v.denominator);
  return g > 1 ? ExactValue{v.numerator / g, v.denominator / g} : v;
}

// Decimal text of a 128-bit integer (for "p/q" answers).
inline std::string to_decimal(Uint128 v) {
  std::string out;
  do {
    out.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return {out.rbegin(), out.rend()};
}

// "p/q", reduced, always with the denominator.
inline std::string fraction_text(ExactValue v) {
  v = reduced(v);
  return to_decimal(v.numerator) + "/" + to_decimal(v.denominator);
}

// Whether value `a` exceeds `b`, exactly, by cross products; a
// product past 128 bits (never in a search that finished) compares the
// quotients in long double.
inline bool exact_greater(const ExactValue& a, const ExactValue& b) {
  Uint128 x = 0, y = 0;
  if (!__builtin_mul_overflow(a.numerator, b.denominator, &x) && !__builtin_mul_overflow(b.numerator, a.denominator, &y))
    return x > y;
  return static_cast<long double>(a.numerator) / static_cast<long double>(a.denominator) >
         static_cast<long double>(b.numerator) / static_cast<long double>(b.denominator);
}

// What a game gives the search. A node is final (leaf_value), a chance node
// (chance_children: each child with its integer weight > 0) or a decision
// node (decision_children: its distinct successors; none is read as a final
// node of value leaf_value). upper_value() must never be below the node's
// true value. Keys are exact in practice (64-bit hashes, as elsewhere).
template <class G>
concept ExactExpectimaxGame = requires(const G& game, const typename G::State& state,
                                       std::vector<typename G::Weighted>& chance,
                                       std::vector<typename G::State>& decision) {
  requires std::same_as<decltype(chance[0].state), typename G::State>;
  requires std::convertible_to<decltype(chance[0].weight), uint64_t>;
  { game.is_final(state) } -> std::same_as<bool>;
  { game.is_chance(state) } -> std::same_as<bool>;
  { game.leaf_value(state) } -> std::convertible_to<uint64_t>;
  { game.upper_value(state) } -> std::convertible_to<uint64_t>;
  { game.key(state) } -> std::same_as<uint64_t>;
  game.chance_children(state, chance);
  game.decision_children(state, decision);
};

enum class ExactOutcome : uint8_t { kExact, kStopped, kOverflow };

template <ExactExpectimaxGame G>
class ExactExpectimax {
 public:
  using State = typename G::State;
  using Weighted = typename G::Weighted;

  // The table takes three quarters of the memory limit.
  ExactExpectimax(const G& game, Budget& budget)
      : game_(game), budget_(budget), table_(std::max<uint64_t>(1, budget.limits().max_memory_mb) * (1ull << 20) * 3 / 4) {}

  // The value of `state`, unreduced; `outcome` says whether it is exact.
  ExactValue value(const State& state, ExactOutcome* outcome) {
    outcome_ = ExactOutcome::kExact;
    const ExactValue v = search(state, 0);
    *outcome = outcome_;
    return v;
  }

  uint64_t pruned() const { return pruned_; }
  int max_depth() const { return max_depth_; }
  TableStats table_stats() const { return table_.stats(); }

 private:
  // a * b, or false on overflow.
  static bool times(Uint128 a, Uint128 b, Uint128* out) { return !__builtin_mul_overflow(a, b, out); }
  static bool plus(Uint128 a, Uint128 b, Uint128* out) { return !__builtin_add_overflow(a, b, out); }

  // `v` over `denominator`, a multiple of v's own.
  bool rescale(ExactValue* v, Uint128 denominator) {
    if (v->denominator == denominator) return true;
    if (!times(v->numerator, denominator / v->denominator, &v->numerator)) return fail(ExactOutcome::kOverflow);
    v->denominator = denominator;
    return true;
  }
  // The least common multiple of two denominators.
  bool common(Uint128 a, Uint128 b, Uint128* lcm) {
    if (a == b) {
      *lcm = a;
      return true;
    }
    return times(a / gcd128(a, b), b, lcm) || fail(ExactOutcome::kOverflow);
  }
  bool fail(ExactOutcome why) {
    if (outcome_ == ExactOutcome::kExact) outcome_ = why;
    return false;
  }

  ExactValue search(const State& s, int depth) {
    if (outcome_ != ExactOutcome::kExact) return {};
    if (game_.is_final(s)) return {game_.leaf_value(s), 1};
    if (!budget_.spend()) {
      fail(ExactOutcome::kStopped);
      return {};
    }
    max_depth_ = std::max(max_depth_, depth);
    const uint64_t key = game_.key(s);
    if (const ExactValue* known = table_.find(key)) return *known;
    const uint64_t nodes_before = budget_.nodes();
    ExactValue result;
    if (game_.is_chance(s)) {
      std::vector<Weighted> kids;
      game_.chance_children(s, kids);
      Uint128 total = 0;
      for (const Weighted& k : kids) total += k.weight;
      ExactValue sum{0, 0};
      for (const Weighted& k : kids) {
        const ExactValue v = search(k.state, depth + 1);
        if (outcome_ != ExactOutcome::kExact) return {};
        if (!add_weighted(&sum, total, v, k.weight)) return {};
      }
      result = sum;
    } else {
      std::vector<State> kids;
      game_.decision_children(s, kids);
      if (kids.empty()) return {game_.leaf_value(s), 1};
      bool first = true;
      for (const State& k : kids) {
        // A child whose bound cannot beat the best sibling adds nothing to
        // the max (ties included): left unsearched.
        if (!first && !beats(game_.upper_value(k), result)) {
          ++pruned_;
          continue;
        }
        ExactValue v = search(k, depth + 1);
        if (outcome_ != ExactOutcome::kExact) return {};
        if (first) {
          result = v;
          first = false;
          continue;
        }
        Uint128 denominator = 0;
        if (!common(result.denominator, v.denominator, &denominator) || !rescale(&result, denominator) ||
            !rescale(&v, denominator))
          return {};
        result.numerator = std::max(result.numerator, v.numerator);
      }
    }
    table_.store(key, result, budget_.nodes() - nodes_before);
    return result;
  }

  // sum += weight * v, over `total` times a denominator common to the
  // children so far (sum.denominator == 0 before the first).
  bool add_weighted(ExactValue* sum, Uint128 total, ExactValue v, uint64_t weight) {
    if (sum->denominator == 0) {
      if (!times(v.denominator, total, &sum->denominator)) return fail(ExactOutcome::kOverflow);
    } else {
      Uint128 children = 0, scaled = 0;
      if (!common(sum->denominator / total, v.denominator, &children)) return false;
      if (!times(children, total, &scaled)) return fail(ExactOutcome::kOverflow);
      if (!rescale(sum, scaled)) return false;
    }
    if (!rescale(&v, sum->denominator / total)) return false;
    Uint128 part = 0;
    if (!times(v.numerator, weight, &part) || !plus(sum->numerator, part, &sum->numerator))
      return fail(ExactOutcome::kOverflow);
    return true;
  }

  // bound > best, compared without dividing.
  bool beats(uint64_t bound, const ExactValue& best) {
    Uint128 scaled = 0;
    if (!times(bound, best.denominator, &scaled)) return true;  // too big to compare: search it
    return scaled > best.numerator;
  }

  const G& game_;
  Budget& budget_;
  BoundedTable<ExactValue> table_;
  ExactOutcome outcome_ = ExactOutcome::kExact;
  uint64_t pruned_ = 0;
  int max_depth_ = 0;
};

}  // namespace sj
