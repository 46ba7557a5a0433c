// Generic "won whatever the chance outcomes?" search for the games the
// expectimax plays (ExpectimaxGame): an AND-OR proof search that ignores
// probabilities. A decision is won for certain when one choice is; a chance
// node when every outcome is. In a finite game whose outcomes all have
// positive probability this is exactly "the value is 1".
//
// Why not the expectimax in a window just below 1: a window 1 - e asks for
// value >= 1 - e, and the slack a refutation may use shrinks with the
// probability of the path to it (a child of probability p must be shown
// below 1 - e/p), so below a few chance levels a refutation can only be
// proved by solving the subtree exactly. Here one losing outcome refutes a
// chance node at any depth, so refutations, which are most of the work,
// stay shallow (3-20x fewer nodes on the decks measured), and a proof
// is an exact value: 1, with no rounding left to close.
//
// The table keeps one verdict per state (24-byte entries, not the
// expectimax's 40). The expectimax's dominance bounds are left out: here
// they saved a fifth of the nodes but cost more than that in time per
// node, and no position we tried let a test tell them from reversed ones.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/limits.hpp"
#include "core/table.hpp"
#include "search/expectimax.hpp"

namespace sj {

enum class Certain : uint8_t { kUnknown, kWon, kNotWon };

template <ExpectimaxGame G>
class CertainWin {
 public:
  using State = typename G::State;
  using Key = typename G::Key;
  using Child = typename G::Child;

  // The table takes `memory_share` of 3/4 of the memory limit, like the
  // expectimax's.
  CertainWin(const G& game, Budget& budget, double memory_share = 1.0)
      : game_(game),
        budget_(budget),
        table_(static_cast<uint64_t>(static_cast<double>(budget.limits().max_memory_mb * 1024 * 1024 * 3 / 4) *
                                     memory_share)) {}

  // kUnknown when a limit stopped the search first; what was proved stays
  // in the table, so asking again (with more budget) resumes.
  Certain prove(const State& state) { return search(state, game_.key(state), 0); }

  ExpectimaxStats stats() const { return with_totals(stats_, budget_, table_.stats()); }

 private:
  struct Scratch {
    std::vector<Child> children;
    std::vector<Key> keys;
  };

  Certain known(const State& state, const Key& key) {
    switch (game_.kind(state)) {
      case NodeKind::kWin: return Certain::kWon;
      case NodeKind::kLoss: return Certain::kNotWon;
      default: break;
    }
    const Certain* found = table_.find(key);
    return found ? *found : Certain::kUnknown;
  }

  Certain search(const State& state, const Key& key, int depth) {
    if (const Certain k = known(state, key); k != Certain::kUnknown) return k;
    if (game_.upper_bound(state) < 1) {
      ++stats_.bound_prunes;
      table_.store(key, Certain::kNotWon, 1);
      return Certain::kNotWon;
    }
    if (!budget_.spend()) return Certain::kUnknown;
    const uint64_t nodes_before = budget_.nodes();
    stats_.max_depth = std::max(stats_.max_depth, depth);
    if (scratch_.size() <= static_cast<size_t>(depth)) scratch_.resize(static_cast<size_t>(depth) + 1);
    const bool chance = game_.kind(state) == NodeKind::kChance;
    // One child settles a chance node (lost) or a decision (won).
    const Certain settles = chance ? Certain::kNotWon : Certain::kWon;
    Certain result = Certain::kUnknown;
    {
      Scratch& s = scratch_[static_cast<size_t>(depth)];
      s.children.clear();
      s.keys.clear();
      if (chance) game_.chance_children(state, s.children);
      else game_.decision_children(state, s.children);
      for (const Child& c : s.children) {
        s.keys.push_back(child_key(game_, c));
        table_.prefetch(s.keys.back());
      }
      for (size_t i = 0; i < s.children.size() && result == Certain::kUnknown; ++i)
        if (known(s.children[i].state, s.keys[i]) == settles) result = settles;
      if (result != Certain::kUnknown) ++stats_.cutoffs;
    }
    if (result == Certain::kUnknown) {
      bool unsettled = false;
      const size_t n = scratch_[static_cast<size_t>(depth)].children.size();
      for (size_t i = 0; i < n; ++i) {
        // Copies: the recursion may grow scratch_.
        const State child = scratch_[static_cast<size_t>(depth)].children[i].state;
        const Key key_of_child = scratch_[static_cast<size_t>(depth)].keys[i];
        const Certain got = search(child, key_of_child, depth + 1);
        if (got == settles) {
          result = settles;
          break;
        }
        if (got == Certain::kUnknown) {
          unsettled = true;
          if (budget_.stopped()) break;
        }
      }
      if (result == Certain::kUnknown) {
        if (unsettled) return Certain::kUnknown;
        result = chance ? Certain::kWon : Certain::kNotWon;
      }
    }
    table_.store(key, result, budget_.nodes() - nodes_before + 1);
    return result;
  }

  const G& game_;
  Budget& budget_;
  BoundedTable<Certain, Key> table_;
  std::vector<Scratch> scratch_;
  ExpectimaxStats stats_;
};

}  // namespace sj
