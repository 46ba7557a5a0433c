#include "games/wildfire/plan.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "core/bits.hpp"

namespace sj::wildfire {
namespace {

constexpr int kSymmetries = 12;

// The symmetries of the hex grid about the first table tile: six rotations,
// each with or without the reflection that swaps the q and r axes.
Axial transform(int g, Axial a) {
  if (g >= 6) a = {a.r, a.q};
  for (int k = 0; k < g % 6; ++k) a = {-a.r, a.q + a.r};
  return a;
}

constexpr uint64_t kLoadDomain = 0x5749'4C44'0201ull;
constexpr uint64_t kLayoutDomain = 0x5749'4C44'0202ull;

uint64_t below(int n) { return n >= 64 ? ~uint64_t{0} : bit(n) - 1; }

// Loads proved to fail, for one layout at a time: a small lossy table
// whose entries carry the layout's stamp, so a new layout starts empty
// without clearing it.
class FailedLoads {
 public:
  void next_layout() { ++stamp_; }
  bool failed(uint64_t key) const {
    const Entry& e = slots_[key & (kSlots - 1)];
    return e.stamp == stamp_ && e.key == key;
  }
  void add(uint64_t key) { slots_[key & (kSlots - 1)] = {key, stamp_}; }

 private:
  static constexpr size_t kSlots = size_t{1} << 12;
  struct Entry {
    uint64_t key = 0, stamp = 0;
  };
  std::vector<Entry> slots_ = std::vector<Entry>(kSlots);
  uint64_t stamp_ = 0;
};

// The pawn question for one complete layout (see plan.hpp). Slots are the
// turns still to play that may take pawns; a tile takes pawns from the slot
// it is placed on (table tiles: from the first slot).
class PawnPlan {
 public:
  PawnPlan(const Game& game, const State& root, const State& leaf, Budget& budget, uint64_t cap,
           FailedLoads& memo)
      : game_(game), root_(root), leaf_(leaf), budget_(budget), memo_(memo), node_cap_(cap) {
    memo_.next_layout();
    tiles_ = leaf.count;
    colors_ = game.colors();
    first_ = std::max<int>(root.count, game.level());
    last_ = tiles_ - 1;
    for (int i = 0; i < tiles_; ++i) {
      avail_[i] = std::max(i, first_);
      base_[i] = root.pawns[i];
      // deadline_[i][m]: the last slot at which tile i can still take pawns
      // up to m in all (free edges only shrink, so it is one cut-off).
      deadline_[i].fill(-1);
      for (int u = avail_[i]; u <= last_; ++u) {
        const int free = 6 - std::popcount(leaf.adj[i] & below(u + 1));
        const int cap_now = std::min(game.spaces(i), free);
        for (int m = 1; m <= cap_now; ++m) deadline_[i][m] = u;
      }
      for (int have = 0; have <= 3; ++have) {
        int r = 0;
        while (have + r < 3 && deadline_[i][have + r + 1] >= 0) ++r;
        room_[i][have] = r;
      }
      if (game.number(i) == 1 && Game::free_edges(leaf, i) > 0) anchors_ |= bit(i);
    }
    for (int c = 0; c < colors_; ++c) {
      existing_[c] = root.lo[c] | root.hi[c];
      supply_[c] = root.supply[c];
    }
    // Colours with pawns on the table are the most constrained: plan them
    // first. Colours without pawns and with equal supplies are symmetric.
    for (int c = 0; c < colors_; ++c)
      if (existing_[c]) order_[ncolors_++] = c;
    for (int c = 0; c < colors_; ++c)
      if (!existing_[c]) order_[ncolors_++] = c;
    for (int k = 0; k < colors_; ++k) {
      min_jobs_after_[k] = 0;
      for (int j = k + 1; j < colors_; ++j) min_jobs_after_[k] += (supply_[order_[j]] + 2) / 3;
    }
    for_each_bit(anchors_, [&](int i) { seeds_[nseeds_++] = i; });
  }

  // kWin (and the moves), kLoss, or kUnknown when the node cap or the
  // budget cut it short. Which 1-tile the first colours start on decides
  // how fast a plan turns up, and neither order wins everywhere: the
  // 1-tiles with the least room around first (the hardest to serve), then
  // the most, each on half of the cap. Either one exhausted is a proof.
  Verdict solve(std::vector<Move>* line) {
    const uint64_t cap = node_cap_;
    for (int order = 0; order < 2; ++order) {
      std::stable_sort(seeds_.begin(), seeds_.begin() + nseeds_, [&](int a, int b) {
        return order == 0 ? neighbour_room(a) < neighbour_room(b) : neighbour_room(a) > neighbour_room(b);
      });
      memo_.next_layout();  // its keys name seeds by their place in the order
      node_cap_ = order == 0 ? cap / 2 : cap;
      aborted_ = false;
      if (colour(0)) {
        if (line) write_line(line);
        return Verdict::kWin;
      }
      if (!aborted_) return Verdict::kLoss;
      if (budget_.stopped()) break;
    }
    return Verdict::kUnknown;
  }
  uint64_t nodes() const { return nodes_; }

 private:
  // How many more pawns tile i can take (by its first slot).
  int room(int i) const { return room_[i][base_[i] + added_[i]]; }
  int neighbour_room(int i) const {
    int total = 0;
    for_each_bit(leaf_.adj[i], [&](int j) { total += room(j); });
    return total;
  }

  bool spend() {
    if (aborted_) return false;
    if (nodes_ >= node_cap_ || !budget_.spend()) {
      aborted_ = true;
      return false;
    }
    ++nodes_;
    return true;
  }

  // Earliest deadline first over every job (one per colour and tile): the
  // jobs of a tile share its window [avail, deadline of its final total].
  bool schedulable(std::array<int8_t, kMaxTiles>* at = nullptr) const {
    std::array<int, kMaxTiles> pending{};
    uint64_t busy = 0;
    for_each_bit(job_tiles_, [&](int i) {
      pending[i] = jobs_[i];
      busy |= bit(i);
    });
    for (int u = first_; u <= last_ && busy; ++u) {
      int best = -1;
      for_each_bit(busy, [&](int i) {
        if (avail_[i] > u) return;
        if (best < 0 || deadline(i) < deadline(best)) best = i;
      });
      if (best < 0) continue;
      if (deadline(best) < u) return false;
      if (at) (*at)[u] = static_cast<int8_t>(best);
      if (--pending[best] == 0) busy &= ~bit(best);
    }
    return busy == 0;
  }
  int deadline(int i) const { return deadline_[i][base_[i] + added_[i]]; }

  // The pawn load of every tile (pawns added, actions on it): all that the
  // colours still to plan see of the ones planned.
  uint64_t load_code(int i) const {
    return zobrist(kLoadDomain, static_cast<uint64_t>(i), static_cast<uint64_t>(added_[i] * 8 + jobs_[i]));
  }
  void include(int c, int i, int k) {
    count_[c][i] = static_cast<int8_t>(k);
    loads_ ^= load_code(i);
    added_[i] += k;
    ++jobs_[i];
    loads_ ^= load_code(i);
    ++njobs_;
    job_tiles_ |= bit(i);
    region_[c] |= bit(i);
  }
  void exclude_undo(int c, int i, int k) {
    count_[c][i] = 0;
    loads_ ^= load_code(i);
    added_[i] -= k;
    if (--jobs_[i] == 0) job_tiles_ &= ~bit(i);
    loads_ ^= load_code(i);
    --njobs_;
    if (!(existing_[c] & bit(i))) region_[c] &= ~bit(i);
  }

  uint64_t flood(uint64_t from, uint64_t within) const { return wildfire::flood(leaf_, from, within); }
  bool connected(uint64_t tiles) const { return !tiles || flood(tiles & (~tiles + 1), tiles) == tiles; }

  int slots() const { return std::max(0, last_ - first_ + 1); }

  // The colours after order_[k] must still fit: all pawns left within the
  // room left, and each new colour within the room it can reach from one
  // 1-tile that keeps a free edge (its region is connected).
  bool later_colours_fit(int k, int left) const {
    uint64_t roomy = 0;
    int room_total = 0;
    for (int i = 0; i < tiles_; ++i)
      if (const int r = room(i)) {
        roomy |= bit(i);
        room_total += r;
      }
    int needed = left;
    for (int j = k + 1; j < ncolors_; ++j) needed += supply_[order_[j]];
    if (needed > room_total) return false;
    int largest = 0;  // what the roomiest region through a 1-tile holds
    for_each_bit(anchors_ & roomy, [&](int a) {
      int held = 0;
      for_each_bit(flood(bit(a), roomy), [&](int i) { held += std::min(3, room(i)); });
      largest = std::max(largest, held);
    });
    for (int j = k + 1; j < ncolors_; ++j)
      if (!existing_[order_[j]] && supply_[order_[j]] > largest) return false;
    return true;
  }

  bool colour(int k) {
    if (k == ncolors_) return true;
    // Every colour still to plan without a 1-tile of its own needs a pawn
    // on one of the 1-tiles that keep a free edge.
    int need = 0, offer = 0;
    for (int j = k; j < ncolors_; ++j)
      need += !(existing_[order_[j]] & anchors_) && (supply_[order_[j]] || existing_[order_[j]]);
    for_each_bit(anchors_, [&](int a) { offer += room(a); });
    if (need > offer) return false;
    const int c = order_[k];
    // Different plans for the colours before can leave the same loads (the
    // same regions with colours swapped, say): a load that failed once
    // fails again. A symmetric colour's seed bound is part of the question.
    const bool symmetric = k > 0 && !existing_[c] && !existing_[order_[k - 1]] &&
                           supply_[order_[k - 1]] == supply_[c];
    const uint64_t key = mix64(loads_ ^ zobrist(kLoadDomain, 100 + k, symmetric ? seed_of_[k - 1] + 1 : 0));
    if (memo_.failed(key)) return false;
    const bool ok = plan_colour(k, symmetric);
    if (!ok && !aborted_) memo_.add(key);
    return ok;
  }

  bool plan_colour(int k, bool symmetric) {
    const int c = order_[k];
    region_[c] = existing_[c];
    if (!supply_[c]) return connected(existing_[c]) && (!existing_[c] || (existing_[c] & anchors_)) &&
                            colour(k + 1);
    if (existing_[c]) return grow(k, 0, supply_[c]);
    // A region without pawns yet starts on a 1-tile that keeps a free edge.
    // Its seed is the first such tile of the region in seed order, so the
    // earlier seeds are left out; symmetric colours take seeds in order.
    const int from = symmetric ? seed_of_[k - 1] : 0;
    uint64_t earlier = 0;
    for (int s = 0; s < from; ++s) earlier |= bit(seeds_[s]);
    for (int s = from; s < nseeds_; ++s) {
      const int a = seeds_[s];
      seed_of_[k] = s;
      for (int n = std::min({3, room(a), static_cast<int>(supply_[c])}); n >= 1; --n) {
        include(c, a, n);
        if (schedulable() && grow(k, earlier, supply_[c] - n)) return true;
        exclude_undo(c, a, n);
        if (aborted_) return false;
      }
      earlier |= bit(a);
    }
    return false;
  }

  // Grows colour order_[k]'s region tile by tile: the next undecided tile
  // next to it (or one it already holds, for more pawns) is either taken
  // with some count or left out for good, so every region is met once.
  bool grow(int k, uint64_t decided, int left) {
    if (!spend()) return false;
    const int c = order_[k];
    const uint64_t region = region_[c];
    if (left == 0)
      return connected(region) && (region & anchors_) && colour(k + 1);
    if (njobs_ + (left + 2) / 3 + min_jobs_after_[k] > slots()) return false;
    uint64_t roomy = 0;
    for (int i = 0; i < tiles_; ++i)
      if (!(decided & bit(i)) && !count_[c][i] && room(i) > 0) roomy |= bit(i);
    // Whatever the region still takes lies within reach through roomy tiles.
    const uint64_t reach = flood(region, region | roomy);
    if (!connected(reach)) return false;  // its parts can no longer be joined
    if (!(region & anchors_) && !(reach & roomy & anchors_)) return false;
    int fits = 0;
    for_each_bit(reach & roomy, [&](int i) { fits += std::min(3, room(i)); });
    if (fits < left || !later_colours_fit(k, left)) return false;

    // The next tile: an anchor while the region has none, else the roomiest.
    uint64_t next_to = 0;
    for_each_bit(region, [&](int i) { next_to |= leaf_.adj[i]; });
    const uint64_t candidates = ((next_to & ~region) | existing_[c]) & roomy;
    if (!candidates) return false;
    int x = -1, best = -1;
    const bool need_anchor = !(region & anchors_);
    for_each_bit(candidates, [&](int i) {
      const int score = (need_anchor && (anchors_ & bit(i)) ? 100 : 0) + 10 * std::min(3, room(i)) +
                        (deadline(i) >= 0 ? deadline(i) - first_ : 0) / 4;
      if (score > best) {
        best = score;
        x = i;
      }
    });
    for (int n = std::min({3, room(x), left}); n >= 1; --n) {
      include(c, x, n);
      if (schedulable() && grow(k, decided, left - n)) return true;
      exclude_undo(c, x, n);
      if (aborted_) return false;
    }
    return grow(k, decided | bit(x), left);
  }

  void write_line(std::vector<Move>* line) const {
    std::array<int8_t, kMaxTiles> at;
    at.fill(-1);
    schedulable(&at);
    std::array<std::array<int8_t, kMaxTiles>, kMaxColors> left = count_;
    line->clear();
    for (int u = root_.count; u < tiles_; ++u) {
      Move m;
      m.pq = leaf_.q[u];
      m.pr = leaf_.r[u];
      if (u >= first_ && at[u] >= 0) {
        const int i = at[u];
        for (int c = 0; c < colors_; ++c)
          if (left[c][i]) {
            m.color = static_cast<int8_t>(c);
            m.tq = leaf_.q[i];
            m.tr = leaf_.r[i];
            m.count = static_cast<uint8_t>(left[c][i]);
            left[c][i] = 0;
            break;
          }
      }
      line->push_back(m);
    }
  }

  const Game& game_;
  const State& root_;
  const State& leaf_;
  Budget& budget_;
  FailedLoads& memo_;
  uint64_t node_cap_;
  uint64_t nodes_ = 0;
  uint64_t loads_ = 0;
  bool aborted_ = false;
  int tiles_ = 0, colors_ = 0, first_ = 0, last_ = 0;
  std::array<int, kMaxTiles> avail_{}, base_{}, added_{}, jobs_{};
  std::array<std::array<int, 4>, kMaxTiles> deadline_{}, room_{};
  std::array<std::array<int8_t, kMaxTiles>, kMaxColors> count_{};
  std::array<uint64_t, kMaxColors> existing_{}, region_{};
  std::array<int, kMaxColors> supply_{}, order_{}, seed_of_{}, min_jobs_after_{};
  std::array<int, kMaxTiles> seeds_{};
  int nseeds_ = 0, ncolors_ = 0, njobs_ = 0;
  uint64_t anchors_ = 0, job_tiles_ = 0;
};

// Cells near the table with a small value each, for short searches over
// tiles and empty cells; a stamp clears it at once.
class CellMap {
 public:
  static constexpr int kSlots = 2048;
  void clear() {
    ++stamp_;
    size_ = 0;
  }
  bool full() const { return size_ >= kSlots / 2; }
  // The value at `code`, or `absent`.
  int get(uint16_t code, int absent) const {
    for (unsigned k = slot(code);; k = (k + 1) & (kSlots - 1)) {
      if (stamps_[k] != stamp_) return absent;
      if (codes_[k] == code) return values_[k];
    }
  }
  void set(uint16_t code, int value) {
    unsigned k = slot(code);
    while (stamps_[k] == stamp_ && codes_[k] != code) k = (k + 1) & (kSlots - 1);
    if (stamps_[k] != stamp_) ++size_;
    stamps_[k] = stamp_;
    codes_[k] = code;
    values_[k] = static_cast<int16_t>(value);
  }

 private:
  static unsigned slot(uint16_t code) { return (code * 0x9E37u) >> 5 & (kSlots - 1); }
  std::vector<uint32_t> stamps_ = std::vector<uint32_t>(kSlots, 0);
  std::vector<uint16_t> codes_ = std::vector<uint16_t>(kSlots);
  std::vector<int16_t> values_ = std::vector<int16_t>(kSlots);
  uint32_t stamp_ = 1;
  int size_ = 0;
};


uint16_t cell_code(int q, int r) { return static_cast<uint16_t>((q + 128) << 8 | (r + 128)); }

class LayoutSearch {
 public:
  LayoutSearch(const Game& game, const State& root, Budget& budget, PlanStats* stats)
      : game_(game), root_(root), budget_(budget), stats_(stats) {
    for (int c = 0; c < game.colors(); ++c)
      anchors_needed_ += root.supply[c] > 0 || (root.lo[c] | root.hi[c]) != 0;
  }

  // One pass over every layout with the given pawn-search cap per layout.
  // Returns kWin, kLoss (all refuted) or kUnknown (some cut short).
  Verdict run(uint64_t cap, int discrepancies, std::vector<Move>* line) {
    cap_ = cap;
    line_ = line;
    incomplete_ = false;
    const bool won = visit(root_, root_symmetries(), discrepancies);
    if (won) return Verdict::kWin;
    return incomplete_ || budget_.stopped() ? Verdict::kUnknown : Verdict::kLoss;
  }

 private:
  // The symmetries (as a 12-bit mask) that map the root's table onto itself
  // tile for tile: same number, spaces and pawns of every colour.
  unsigned root_symmetries() const {
    unsigned mask = 0;
    for (int g = 0; g < kSymmetries; ++g) {
      bool ok = true;
      for (int i = 0; i < root_.count && ok; ++i) {
        const Axial to = transform(g, {root_.q[i], root_.r[i]});
        const int j = game_.tile_at(root_, game_.absolute(to.q, to.r));
        ok = j >= 0 && game_.number(j) == game_.number(i) && game_.spaces(j) == game_.spaces(i);
        for (int c = 0; c < game_.colors() && ok; ++c)
          ok = Game::count_of(root_, c, j) == Game::count_of(root_, c, i);
      }
      if (ok) mask |= 1u << g;
    }
    return mask;
  }

 public:
  // Each colour with pawns needs one on a 1-tile that keeps a free edge, and
  // a 1-tile closed in this layout stays closed whatever the pawns do.
  bool enough_open_ones(const State& s) const {
    int offer = 0;
    for (int i = 0; i < game_.total(); ++i)
      if (game_.number(i) == 1 && (i >= s.count || Game::free_edges(s, i) > 0)) offer += game_.spaces(i);
    return offer >= anchors_needed_;
  }

 private:
  // A tile placed so far that can still take a pawn: room at the first
  // turn it may take one (free edges only shrink; before that turn is
  // placed, today's free edges are an upper bound).
  bool takes_pawns(const State& s, int i) const {
    const int first = std::max<int>(root_.count, game_.level());
    const int by = std::min(std::max(i, first), s.count - 1);
    const int free = 6 - std::popcount(s.adj[i] & below(by + 1));
    return std::min(game_.spaces(i), free) - root_.pawns[i] > 0;
  }

  // Each colour with pawns on the table must join them and reach a 1-tile
  // with a free edge: through its own tiles (free), tiles that can still
  // take a pawn and empty cells for tiles to come. Joining costs a pawn per
  // tile added and a tile to come per empty cell, and the two budgets are
  // checked one at a time (each alone is a necessary condition). A wide
  // search, so it runs on the root only: that is where a pawn action that
  // strands a colour (what a hint asks about most) is refuted at once
  // instead of once per layout; tried deeper too, it cost more than it cut.
 public:
  bool colours_can_join(const State& s) {
    const int to_come = game_.total() - s.count;
    bool one_to_come = false;
    for (int i = s.count; i < game_.total(); ++i) one_to_come |= game_.number(i) == 1;
    tiles_.clear();
    for (int i = 0; i < s.count; ++i) tiles_.set(cell_code(s.q[i], s.r[i]), i);
    for (int c = 0; c < game_.colors(); ++c) {
      const uint64_t mine = root_.lo[c] | root_.hi[c];
      if (!mine) continue;
      const int supply = root_.supply[c];
      if (!reaches(s, mine, supply, 1, one_to_come) ||
          !reaches(s, mine, std::min(to_come, supply), 0, one_to_come))
        return false;
    }
    return true;
  }

 private:
  // 0-1 breadth-first search from one of `mine`'s tiles; `budget` bounds
  // the cost (tile_cost per roomy tile, 1 per empty cell).
  bool reaches(const State& s, uint64_t mine, int budget, int tile_cost, bool new_one) {
    cost_.clear();
    std::array<uint16_t, CellMap::kSlots> queue;
    int head = CellMap::kSlots / 2, tail = head;  // a deque in one array
    const int start = std::countr_zero(mine);
    queue[tail++] = cell_code(s.q[start], s.r[start]);
    cost_.set(queue[head], 0);
    uint64_t reached = 0;
    bool anchored = false;
    while (head != tail) {
      const uint16_t code = queue[head++];
      const int d = cost_.get(code, 0);
      const int q = (code >> 8) - 128, r = (code & 0xFF) - 128;
      const int i = tiles_.get(code, -1);
      if (i >= 0) {
        reached |= bit(i);
        anchored |= game_.number(i) == 1 && Game::free_edges(s, i) > 0;
      } else {
        anchored |= new_one;
      }
      for (int dir = 0; dir < kHexDirections; ++dir) {
        const int nq = q + kHexStep[dir].q, nr = r + kHexStep[dir].r;
        if (nq < -120 || nq > 120 || nr < -120 || nr > 120) continue;
        const uint16_t next = cell_code(nq, nr);
        const int j = tiles_.get(next, -1);
        int step;
        if (j >= 0 && (mine & bit(j))) step = 0;
        else if (j >= 0) step = takes_pawns(s, j) ? tile_cost : -1;
        else step = game_.total() > s.count ? 1 : -1;
        if (step < 0 || d + step > budget || cost_.get(next, budget + 1) <= d + step) continue;
        if (cost_.full() || head == 0 || tail == CellMap::kSlots) return true;  // too wide to tell
        cost_.set(next, d + step);
        if (step == 0) queue[--head] = next;
        else queue[tail++] = next;
      }
    }
    return (reached & mine) == mine && anchored;
  }

  bool visit(const State& s, unsigned symmetries, int discrepancies) {
    if (!budget_.spend()) return false;
    if (!enough_open_ones(s)) {
      ++stats_->pruned;
      return false;
    }
    if (s.count == game_.total()) {
      // Passes and rounds meet the same layouts again: one refuted, or
      // left undecided under this cap already, needs no new pawn search.
      const uint64_t key = layout_key(s);
      Tried& tried = tried_[key & (kTriedSlots - 1)];
      if (tried.key == key && (tried.cap == kRefuted || tried.cap >= cap_)) {
        incomplete_ |= tried.cap != kRefuted;
        return false;
      }
      ++stats_->layouts;
      PawnPlan plan(game_, root_, s, budget_, cap_, memo_);
      const Verdict v = plan.solve(line_);
      stats_->plan_nodes += plan.nodes();
      if (v == Verdict::kLoss) ++stats_->refuted;
      if (v == Verdict::kUnknown) incomplete_ = true;
      if (v == Verdict::kLoss || (v == Verdict::kUnknown && !budget_.stopped()))
        tried = {key, v == Verdict::kLoss ? kRefuted : cap_};
      return v == Verdict::kWin;
    }
    const std::vector<Axial> hot = game_.hottest(s);
    int tried = 0;
    for (size_t k = 0; k < hot.size(); ++k) {
      // A symmetry of the table maps this cell's subtree onto an earlier
      // cell's: that one was searched already.
      bool seen = false;
      unsigned keep = 0;
      for (int g = 0; g < kSymmetries; ++g) {
        if (!(symmetries & (1u << g))) continue;
        const Axial to = transform(g, hot[k]);
        if (to == hot[k]) keep |= 1u << g;
        for (size_t j = 0; j < k && !seen; ++j) seen = hot[j] == to;
      }
      if (seen) continue;
      const int left = discrepancies - (tried++ > 0);
      if (left < 0) break;
      Move m;
      m.pq = static_cast<int8_t>(hot[k].q);
      m.pr = static_cast<int8_t>(hot[k].r);
      if (visit(game_.apply(s, m), keep, left)) return true;
      if (budget_.stopped()) return false;
    }
    return false;
  }

  // The cells of the tiles placed since the root name a layout (the deal
  // fixes which tile goes when).
  uint64_t layout_key(const State& s) const {
    uint64_t k = 0;
    for (int i = root_.count; i < s.count; ++i)
      k ^= zobrist(kLayoutDomain, static_cast<uint64_t>(i),
                   static_cast<uint64_t>((s.q[i] + 128) << 8 | (s.r[i] + 128)));
    return mix64(k);
  }

  // Layouts whose pawn question was asked: refuted, or the cap it was
  // left undecided under. Lossy (a slot keeps its latest layout).
  static constexpr size_t kTriedSlots = size_t{1} << 14;
  static constexpr uint64_t kRefuted = ~uint64_t{0};
  struct Tried {
    uint64_t key = 0, cap = 0;
  };
  std::vector<Tried> tried_ = std::vector<Tried>(kTriedSlots);

  CellMap tiles_, cost_;
  const Game& game_;
  const State& root_;
  Budget& budget_;
  PlanStats* stats_;
  uint64_t cap_ = 0;
  std::vector<Move>* line_ = nullptr;
  bool incomplete_ = false;
  int anchors_needed_ = 0;
  FailedLoads memo_;
};

}  // namespace

Verdict plan_search(const Game& game, const State& root, Budget& budget, uint64_t nodes_per_layout,
                    std::vector<Move>* line, PlanStats* stats) {
  if (game.outcome(root) != Outcome::kOngoing) {
    line->clear();
    return game.outcome(root) == Outcome::kWin ? Verdict::kWin : Verdict::kLoss;
  }
  if (game.hopeless(root)) return Verdict::kLoss;
  LayoutSearch search(game, root, budget, stats);
  if (!search.colours_can_join(root)) return Verdict::kLoss;
  // Limited discrepancy search first: a bad early tie choice spoils every
  // layout below it, and plain depth-first order changes the late choices
  // first. Layouts that depart from the first-listed cell a few times come
  // first; the last pass of each round takes every layout, which alone can
  // prove a loss.
  //
  // A scout round first: a layout that admits a plan usually shows it in
  // a few dozen pawn-plan nodes, so the layouts near the first-listed cells
  // get a twentieth of the cap each before any gets the whole.
  constexpr int kDiscrepancies[] = {0, 1, 2, 4, kMaxTiles};
  for (int d : {0, 1, 2, 4}) {
    const Verdict v = search.run(std::max<uint64_t>(nodes_per_layout / 20, 1), d, line);
    if (v == Verdict::kWin || budget.stopped()) return v;
  }
  for (int round = 0;; ++round) {
    for (int d : kDiscrepancies) {
      const Verdict v = search.run(nodes_per_layout << std::min(2 * round, 40), d, line);
      if (v == Verdict::kWin || budget.stopped()) return v;
      if (d == kMaxTiles && v == Verdict::kLoss) return v;
    }
  }
}

DeadEnds dead_ends(const Game& game, const State& s) {
  Budget budget(Limits{}, nullptr);
  PlanStats stats;
  LayoutSearch search(game, s, budget, &stats);
  DeadEnds d;
  d.hopeless = game.hopeless(s);
  d.colours_cannot_join = !search.colours_can_join(s);
  d.too_few_open_ones = !search.enough_open_ones(s);
  return d;
}

}  // namespace sj::wildfire
