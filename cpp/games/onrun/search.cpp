// The best final score with the deal known: depth-first branch and bound,
// after first passes that find good lines to cut by: a dive to a scoring
// line, beams of growing width far from the end, walks that search again
// from every turn of the best line, and a line under every first move (the
// spread).
//
// The objective is 2 * score + won (a won game scoring 0 beats a lost one;
// score > 0 implies won). A node is cut when the game's admissible bound
// (Game::upper_objective, held to the reference in the tests) is no better
// than the best line found so far. The table keeps, per state, an upper bound
// on its objective: true whatever the incumbent was when it was stored (a
// node returns the max of its children's bounds, each an upper bound), so
// one table serves the whole search and every move of a hint. Lines are only
// ever taken from leaves reached on the path, so the certificate always
// replays to the score it claims.
#include <algorithm>
#include <climits>
#include <deque>
#include <memory>
#include <unordered_set>

#include "games/onrun/onrun.hpp"

namespace sj::onrun {
namespace {

struct Bound {
  int32_t upper = 0;
};
using Table = BoundedTable<Bound>;

// The share of a search's budget spent finding lines under every first move
// before the proof starts (Searcher::spread), and the most the dive before
// it may take.
constexpr double kSpreadShare = 0.9;
// The objective of a won game scoring 1 (2 * score + won), where the dive
// before the spread stops.
constexpr int kFirstScoringObjective = 3;
// The beams (Searcher::beam) run only with more turns left than this:
// nearer the end the depth-first search proves within seconds or not at
// all (docs/benchmarks.md, the endgames), and the beams' budget is its.
constexpr int kBeamTurns = 8;
// Their share of a search's budget after the dive, and the first width
// (doubled while the share lasts); half of it when the walks follow, which
// find more for their nodes than wider beams (docs/benchmarks.md).
constexpr double kBeamShare = 0.9;
constexpr double kBeamShareBeforeWalks = 0.5;
constexpr size_t kFirstBeamWidth = 32;
// The walks' (Searcher::walks) share of what the beams leave, and their
// nodes a turn on the first pass (doubled each pass while one fits).
constexpr double kWalkShare = 0.9;
constexpr uint64_t kFirstWalkNodes = 2000;

class Searcher {
 public:
  // Without `use_bound` (for measuring what it is worth) a node is cut
  // only by the objective of every pawn at the edge, `trivial`.
  Searcher(const Game& game, Budget& budget, Table& table, SearchStats& stats, bool use_bound = true, int trivial = 0)
      : game_(game), budget_(budget), table_(table), stats_(stats), use_bound_(use_bound), trivial_(trivial) {}

  int bound_of(const State& s) const { return use_bound_ || game_.final(s) ? game_.upper_objective(s) : trivial_; }

  struct Order {
    Game::MoveKey key;  // its bound: the one the search cuts by
    uint32_t index;
  };
  // The moves of `s`, most promising first: the highest bound, then the
  // emptiest supply, then the most pawns at the edge; ties in canonical
  // order. The keys come without making the children, and evacuation
  // outcomes as classes (Game::MoveClass: a turn may have 10^6
  // outcomes, and a node is mostly cut after a child or two); a child is
  // made when searched. Two moves reaching one state are rare, and the
  // table cuts the second. Returns whether the list was cut short (then
  // only the node's own bound holds for it).
  bool ordered_moves(const State& s, std::vector<Game::MoveClass>& moves, std::vector<Order>& order) {
    bool truncated = false;
    game_.move_classes(s, moves, &truncated);
    game_.move_keys(s, moves, keys_);
    order.resize(moves.size());
    for (size_t i = 0; i < moves.size(); ++i)
      order[i] = {{use_bound_ || game_.turns_left(s) == 1 ? keys_[i].bound : trivial_, keys_[i].supply, keys_[i].edge},
                  static_cast<uint32_t>(i)};
    std::stable_sort(order.begin(), order.end(), [](const Order& a, const Order& b) { return a.key.before(b.key); });
    return truncated;
  }

  // Breadth before depth, for a good line early. A depth-first search
  // spends its budget under the first moves it orders, and on full deals
  // the key orders them poorly. So each move of `s`, best first, is first
  // searched depth-first with an even share of what is left of the budget
  // (a move that finishes early leaves its share to those after it) and the
  // best line so far to cut by. With `class_shares` (the walks', which meet
  // crowded turns of 10^4 outcomes) an evacuation class's outcomes share
  // one share, in order, and are not listed up front. What this proves
  // stays in the table; the search from `s` that follows is the proof.
  // Measured in docs/benchmarks.md: one level of this beats two or three,
  // whose shares are too thin to reach a leaf.
  void spread(const State& s, bool class_shares = false) {
    if (game_.final(s) || stopped_ || budget_.stopped()) return;
    if (!class_shares) {
      const std::vector<std::pair<Move, int>> moves = order_of(s);  // every move its share: the classes listed
      for (size_t i = 0; i < moves.size() && moves[i].second > best_; ++i)
        if (!share(s, 1.0 / static_cast<double>(moves.size() - i), [&](auto&& search) { search(moves[i].first); }))
          return;
      return;
    }
    std::vector<Game::MoveClass> classes;
    std::vector<Order> order;
    ordered_moves(s, classes, order);
    for (size_t i = 0; i < order.size() && order[i].key.bound > best_; ++i)
      if (!share(s, 1.0 / static_cast<double>(order.size() - i), [&](auto&& search) {
            for_each_move(s, classes[order[i].index], [&](const Move& m) { return search(m); });
          }))
        return;
  }
  // One share of the spread: `moves` calls its argument on each move to
  // search under the share, which returns false once the share is spent;
  // false when the spread is over.
  template <class Moves>
  bool share(const State& s, double part, Moves&& moves) {
    const Budget::Slice outer = budget_.begin_slice(part, UINT64_MAX);
    moves([&](const Move& m) {
      path_.push_back(m);
      dfs(game_.apply(s, m), 1);
      path_.pop_back();
      return !stopped_;
    });
    budget_.end_slice(outer);
    stopped_ = best_ >= target_;  // a spent share ends that move's search only
    return !stopped_ && !budget_.stopped();
  }

  // A dive: depth-first until the first line that scores, so that a line
  // exists even when the passes after it are too thin to reach a leaf (a
  // line is 41 plies, and a node can cost a millisecond). Measured in
  // docs/benchmarks.md: far better lines under tight limits, the same
  // under loose ones.
  void dive(const State& s) {
    if (game_.final(s)) return;
    const int target = target_;
    target_ = std::min(target_, kFirstScoringObjective);
    dfs(s, 0);
    target_ = target;
    stopped_ = best_ >= target_;
  }

  // Beams of width 32, 64, ... each from `s` to the end, while the next
  // one fits in what is left (a beam costs at most its width a turn; a cut
  // beam would find nothing), the first only within a quarter of it (a
  // budget that one beam would take is better left to the phases after
  // it), and within the memory the table leaves (a quarter of the limit):
  // breadth at every depth, where the spread has it at the root only and
  // depth-first search spends a full deal's budget under a few early moves.
  // Measured in docs/benchmarks.md: far better lines on full deals for the
  // same nodes.
  void beams(const State& s) {
    const int turns = game_.turns_left(s);
    if (turns <= kBeamTurns) return;
    const uint64_t bytes_a_width =
        static_cast<uint64_t>(turns) * sizeof(BeamStep) + 2 * sizeof(State) + kCandidatesAWidth * sizeof(Candidate);
    const uint64_t widest = (budget_.limits().max_memory_mb << 20) / 4 / bytes_a_width;
    double seconds_a_node = 0;  // measured on the beams before
    for (size_t width = kFirstBeamWidth; width <= widest && !stopped_ && !budget_.stopped(); width *= 2) {
      const uint64_t cost = width * static_cast<uint64_t>(turns);
      const uint64_t room = width == kFirstBeamWidth ? budget_.nodes_left() / 4 : budget_.nodes_left();
      if (cost > room || static_cast<double>(cost) * seconds_a_node > budget_.seconds_left()) return;
      const double start = budget_.seconds();
      const uint64_t nodes = budget_.nodes();
      if (!beam(s, width)) return;
      seconds_a_node = (budget_.seconds() - start) / static_cast<double>(std::max<uint64_t>(1, budget_.nodes() - nodes));
    }
  }

  // Walks along the best line: from each turn of it, a short search of
  // the rest of the game (beams, the spread, depth-first; cut by the
  // line's objective) within `quota` nodes, whose better line replaces the
  // line's rest; the walk goes on along the line as it now is. Passes
  // double the quota while a pass fits in what is left. A beam ranks a
  // level by a key that looks one turn ahead, so its line goes wrong where
  // a turn needs a plan over the next few; a search from every turn of the
  // line mends those, as the lookahead policy does blind to the order.
  // Measured in docs/benchmarks.md: far better lines on full deals.
  bool walk_fits(const State& root) const {
    const int turns = game_.turns_left(root);
    return turns > kBeamTurns && kFirstWalkNodes * static_cast<uint64_t>(turns) <= budget_.nodes_left() / 2;
  }
  void walks(const State& root) {
    const uint64_t turns = static_cast<uint64_t>(game_.turns_left(root));
    double seconds_a_node = 0;  // measured on the passes before
    for (uint64_t quota = kFirstWalkNodes; !line_.empty() && !stopped_ && !budget_.stopped(); quota *= 2) {
      if (quota > budget_.nodes_left() / turns ||
          static_cast<double>(quota * turns) * seconds_a_node > budget_.seconds_left())
        return;
      const double start = budget_.seconds();
      const uint64_t nodes = budget_.nodes();
      if (walk(root, quota)) return;
      seconds_a_node = (budget_.seconds() - start) / static_cast<double>(std::max<uint64_t>(1, budget_.nodes() - nodes));
    }
  }
  // One pass; true when its search from the root finished within the
  // quota: the root is then settled, and no pass can find more (without
  // limits the passes would otherwise go on doubling).
  bool walk(const State& root, uint64_t quota) {
    State s = root;
    path_.clear();
    bool settled = false;
    for (size_t t = 0; t < line_.size() && !stopped_ && !budget_.stopped(); ++t) {
      const Budget::Slice step = budget_.begin_slice(1.0 / static_cast<double>(line_.size() - t), quota);
      beams(s);
      spread(s, true);
      if (!stopped_) {
        dfs(s, static_cast<int>(t));
        settled |= t == 0 && !stopped_;
      }
      budget_.end_slice(step);
      stopped_ = best_ >= target_;
      if (settled) break;
      path_.push_back(line_[t]);  // the line's moves to here: path_ is a prefix of line_ while walking
      s = game_.apply(s, line_[t]);
    }
    path_.clear();
    return settled;
  }

  // One beam: level by level, the moves of every state kept (a class by
  // its first outcome) ranked across the level by the search's key, and the
  // best `width` distinct children kept, to the end; the best final
  // state's line becomes the incumbent if it is better. False when no
  // level had more children than `width` (a wider beam finds no more).
  bool beam(const State& root, size_t width) {
    std::vector<std::vector<BeamStep>> steps;  // by level: how each kept state was reached
    std::vector<State> here{root}, next;
    std::vector<Candidate> candidates;
    std::unordered_set<uint64_t> seen;
    bool narrowed = false;
    while (!game_.final(here[0])) {
      candidates.clear();
      for (uint32_t i = 0; i < here.size(); ++i) {
        bool truncated = false;
        beam_classes_.clear();
        game_.move_classes(here[i], beam_classes_, &truncated);
        game_.move_keys(here[i], beam_classes_, keys_);
        for (uint32_t j = 0; j < beam_classes_.size(); ++j)
          if (keys_[j].bound > best_) candidates.push_back({keys_[j], i, j, beam_classes_[j]});
        // Trimmed as it grows to the best twice the width (some children
        // repeat a state), so that a level takes memory by the width, not by
        // every state's moves.
        if (candidates.size() > kCandidatesAWidth * width) {
          std::nth_element(candidates.begin(), candidates.begin() + 2 * width, candidates.end(), ranked_before);
          candidates.resize(2 * width);
        }
      }
      std::sort(candidates.begin(), candidates.end(), ranked_before);
      std::vector<BeamStep> level;
      next.clear();
      seen.clear();
      for (const Candidate& c : candidates) {
        if (next.size() >= width) {
          narrowed = true;
          break;
        }
        const State& from = here[c.parent];
        Move first;
        bool any = false;
        for_each_move(from, c.move, [&](const Move& m) {
          first = m;
          any = true;
          return false;
        });
        if (!any) continue;
        if (!budget_.spend()) return false;
        const State t = game_.apply(from, first);
        if (!seen.insert(game_.key(t)).second) continue;
        next.push_back(t);
        level.push_back({c.parent, first});
      }
      if (next.empty()) return narrowed;
      steps.push_back(std::move(level));
      here.swap(next);
    }
    size_t best = 0;
    for (size_t i = 1; i < here.size(); ++i)
      if (game_.objective(here[i]) > game_.objective(here[best])) best = i;
    if (game_.objective(here[best]) > best_) {
      best_ = game_.objective(here[best]);
      line_.clear();
      for (size_t level = steps.size(), i = best; level-- > 0; i = steps[level][i].parent)
        line_.push_back(steps[level][i].move);
      line_.insert(line_.end(), path_.rbegin(), path_.rend());  // the moves to `root`
      std::reverse(line_.begin(), line_.end());
      if (best_ >= target_) stopped_ = true;
    }
    return narrowed;
  }

  // An upper bound on the objective of `s`; on the way, every leaf better
  // than the incumbent becomes the incumbent (with its line).
  int dfs(const State& s, int depth) {
    if (stopped_) return bound_of(s);
    if (!budget_.spend()) {
      stopped_ = true;
      return bound_of(s);
    }
    stats_.max_depth = std::max(stats_.max_depth, depth);
    if (game_.final(s)) {
      const int v = game_.objective(s);
      if (v > best_) {
        best_ = v;
        line_ = path_;
        if (best_ >= target_) stopped_ = true;  // nothing can be better
      }
      return v;
    }
    int bound = bound_of(s);
    const uint64_t key = game_.key(s);
    if (const Bound* b = table_.find(key)) bound = std::min(bound, static_cast<int>(b->upper));
    if (bound <= best_) {
      ++stats_.pruned;
      return bound;
    }
    const uint64_t nodes_before = budget_.nodes();
    // A turn may list 10^5 moves: each depth keeps its buffers, so that a
    // node does not allocate (and fault in) them afresh.
    if (static_cast<size_t>(depth) >= buffers_.size()) buffers_.resize(depth + 1);
    std::vector<Game::MoveClass>& moves = buffers_[depth].moves;
    std::vector<Order>& order = buffers_[depth].order;
    moves.clear();
    const bool truncated = ordered_moves(s, moves, order);
    int upper = 0;
    // Searches a child; false when no later move can do better.
    auto child = [&](const Move& m, int move_bound) {
      if (move_bound <= best_) {  // sorted by bound: none after this can do better
        stats_.pruned += 1;
        upper = std::max(upper, move_bound);
        return false;
      }
      path_.push_back(m);
      const int u = dfs(game_.apply(s, m), depth + 1);
      path_.pop_back();
      upper = std::max(upper, u);
      return !stopped_;
    };
    for (const Order& o : order) {
      bool unlisted = false;
      const bool more =
          for_each_move(s, moves[o.index], [&](const Move& m) { return child(m, o.key.bound); }, &unlisted);
      // A class's outcomes past the listing's cap are bounded by its key,
      // as those the sorted cut skips are: what the table holds stays an
      // upper bound for every search that reads it (a hint's later moves).
      if (unlisted) upper = std::max(upper, o.key.bound);
      if (!more) break;
    }
    if (stopped_) return bound;  // the children not reached count with the node's bound
    if (truncated) return bound;  // moves left unlisted: only the bound holds
    upper = std::min(upper, bound);
    table_.store(key, Bound{upper}, budget_.nodes() - nodes_before);
    return upper;
  }

  void reset(int target) {
    best_ = -1;
    line_.clear();
    path_.clear();
    stopped_ = false;
    target_ = target;
  }
  // `visit` each move of `entry` (a class's outcomes, or the move) until it
  // returns false; false if it did. `unlisted` is set when the class had
  // outcomes too many to list (those past the cap are not visited).
  template <class Visit>
  bool for_each_move(const State& s, const Game::MoveClass& entry, Visit&& visit, bool* unlisted = nullptr) {
    if (entry.to_edge < 0) return visit(entry.move);
    bool more = true;
    if (!game_.class_outcomes(s, entry, [&](const Move& m) { return more = visit(m); }) && unlisted) *unlisted = true;
    return more;
  }
  // The moves of `s` in the order dfs tries them, each with its bound.
  std::vector<std::pair<Move, int>> order_of(const State& s) {
    std::vector<Game::MoveClass> classes;
    std::vector<Order> order;
    ordered_moves(s, classes, order);
    std::vector<std::pair<Move, int>> out;
    for (const Order& o : order)
      for_each_move(s, classes[o.index], [&](const Move& m) {
        out.emplace_back(m, o.key.bound);
        return true;
      });
    return out;
  }
  int best() const { return best_; }
  const std::vector<Move>& line() const { return line_; }

 private:
  const Game& game_;
  Budget& budget_;
  Table& table_;
  SearchStats& stats_;
  int best_ = -1;
  int target_ = INT_MAX;
  bool stopped_ = false;
  bool use_bound_;
  int trivial_;
  std::vector<Move> path_, line_;
  struct Buffers {
    std::vector<Game::MoveClass> moves;
    std::vector<Order> order;
  };
  std::deque<Buffers> buffers_;  // by depth; a deque, so growing keeps the shallower ones in place
  std::vector<Game::MoveKey> keys_;  // scratch: used before the recursion only
  // A beam's: how a kept state was reached, and a child not yet made.
  struct BeamStep {
    uint32_t parent;
    Move move;
  };
  struct Candidate {
    Game::MoveKey key;
    uint32_t parent, index;
    Game::MoveClass move;
  };
  // The search's order, then the listing's (a total order: the same beam on any machine).
  static bool ranked_before(const Candidate& a, const Candidate& b) {
    if (a.key.before(b.key)) return true;
    if (b.key.before(a.key)) return false;
    if (a.parent != b.parent) return a.parent < b.parent;
    return a.index < b.index;
  }
  static constexpr uint64_t kCandidatesAWidth = 4;  // held at most, before a trim
  std::vector<Game::MoveClass> beam_classes_;  // scratch: one state's listing
};

uint64_t table_bytes(const Limits& limits) {
  return std::max<uint64_t>(1, limits.max_memory_mb) * (uint64_t{1} << 20) * 3 / 4;
}

// The phases `value` runs before the proof search, each in its own slice.
struct Phases {
  bool dive;    // to a scoring line first
  bool beams;   // far from the end: whole lines, widening
  bool walks;   // far from the end: short searches along the best line
  bool spread;  // a share of the budget for each first move
};

// Values `s` within the budget: [lower, upper] and the line reaching lower.
void value(Searcher& searcher, Budget& budget, const State& s, int* lower, int* upper, bool* exact,
           std::vector<Move>* line, Phases phases) {
  const int root_bound = searcher.bound_of(s);
  searcher.reset(root_bound);
  if (phases.dive) {
    // Capped: on a deal without a scoring line the dive would search it all.
    const Budget::Slice dive = budget.begin_slice(kSpreadShare, UINT64_MAX);
    searcher.dive(s);
    budget.end_slice(dive);
  }
  const bool walks = phases.walks && searcher.walk_fits(s);
  if (phases.beams) {
    const Budget::Slice slice = budget.begin_slice(walks ? kBeamShareBeforeWalks : kBeamShare, UINT64_MAX);
    searcher.beams(s);
    budget.end_slice(slice);
  }
  if (walks) {
    const Budget::Slice slice = budget.begin_slice(kWalkShare, UINT64_MAX);
    searcher.walks(s);
    budget.end_slice(slice);
  }
  if (phases.spread) {
    const Budget::Slice outer = budget.begin_slice(kSpreadShare, UINT64_MAX);
    searcher.spread(s);
    budget.end_slice(outer);
  }
  // An upper bound however the search ended (a node stopped or with moves
  // unlisted returns its own bound): the value is proved when it meets
  // the best line's.
  const int u = std::min(searcher.dfs(s, 0), root_bound);
  *lower = searcher.best();
  *line = searcher.line();
  *exact = *lower >= 0 && u <= *lower;
  *upper = std::max(*lower, u);
}

}  // namespace

SolveResult solve(const Game& game, const State& s, const Limits& limits, Control* control, bool use_bound,
                  bool spread, bool beams, bool walks) {
  SolveResult r;
  Budget budget(limits, control, kPollEvery);
  Table table(table_bytes(limits));
  Searcher searcher(game, budget, table, r.stats, use_bound, game.every_pawn_saved(s));
  value(searcher, budget, s, &r.lower, &r.upper, &r.exact, &r.line, {spread, spread && beams, spread && walks, spread});
  r.stats.nodes = budget.nodes();
  r.stats.seconds = budget.seconds();
  r.stats.stopped_by = r.exact ? StopReason::kNone : budget.reason();
  if (!r.exact && r.stats.stopped_by == StopReason::kNone) r.stats.stopped_by = StopReason::kNodes;
  r.stats.table = table.stats();
  if (budget.control()) budget.poll();
  return r;
}

std::vector<std::pair<Move, int>> search_order(const Game& game, const State& s) {
  SearchStats stats;
  Budget budget(Limits{}, nullptr, kPollEvery);
  Table table(1 << 16);
  return Searcher(game, budget, table, stats).order_of(s);
}

HintResult hint(const Game& game, const State& s, const Limits& limits, Control* control, bool beams) {
  HintResult r;
  Budget budget(limits, control, kPollEvery);
  Table table(table_bytes(limits));
  Searcher searcher(game, budget, table, r.stats);
  std::vector<Child> kids = game.children(s);
  StopReason why = StopReason::kNone;
  for (size_t i = 0; i < kids.size(); ++i) {
    HintMove h;
    h.child = std::move(kids[i]);
    const Budget::Slice outer = budget.begin_slice(1.0 / static_cast<double>(kids.size() - i), UINT64_MAX);
    const State child = game.apply(s, h.child.move);
    if (!budget.stopped()) {
      // The hint is itself the spread: a second level under each move was
      // measured worse (shares too thin to reach a leaf). The beams pay
      // here as in solve: far better lines in each move's share.
      value(searcher, budget, child, &h.lower, &h.upper, &h.exact, &h.line, {beams, beams, false, false});
    } else {
      h.upper = game.upper_objective(child);
    }
    const StopReason slice = budget.end_slice(outer);
    if (!h.exact && why == StopReason::kNone) why = slice == StopReason::kNone ? StopReason::kNodes : slice;
    r.moves.push_back(std::move(h));
  }
  // Best first by the spec's value, the score: ties stay in canonical order
  // (the children's), `won` included: it is reported, never ranked.
  auto score = [](int objective) { return objective < 0 ? -1 : objective / 2; };
  std::stable_sort(r.moves.begin(), r.moves.end(), [&](const HintMove& a, const HintMove& b) {
    if (score(a.lower) != score(b.lower)) return score(a.lower) > score(b.lower);
    return score(a.upper) > score(b.upper);
  });
  r.stats.nodes = budget.nodes();
  r.stats.seconds = budget.seconds();
  r.stats.stopped_by = budget.reason() != StopReason::kNone ? budget.reason() : why;
  r.stats.table = table.stats();
  if (budget.control()) budget.poll();
  return r;
}

}  // namespace sj::onrun
