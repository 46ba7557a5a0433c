// Fire! (battery sequencing): the rules engine, in the shape the generic
// expectimax wants. Solo and team mode share one engine: solo is one player
// with no energy exchangers.
//
// A state counts batteries by kind (energy, crosshairs) per location (each
// player's draw pile, discard pile, destroyed pile and weapons), so equal
// batteries are one kind and never distinguished. Keys are exact and
// canonical: a player's weapons are sorted by contents, aliens with the same
// strengths by hits, and destroyed batteries are not told apart by owner
// (they are out of the game).
#pragma once
#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/table.hpp"
#include "search/expectimax.hpp"

namespace sj::fire {

constexpr int kMaxAliens = 8;
constexpr int kMaxWeapons = 4;
constexpr int kMaxPlayers = 2;
constexpr int kMaxBatteries = 20;
constexpr int kMaxKinds = kMaxBatteries;
constexpr int kMaxExchanges = 2;
constexpr int kMaxCrosshairs = 9;
constexpr int kMaxStrength = 1000;
constexpr int kFireAt = 10;

// ---- positions as the spec writes them (input order, input names) ----

struct Battery {
  int energy = 1;
  int crosshairs = 1;
  auto operator<=>(const Battery&) const = default;
};

struct AlienSpec {
  std::array<int, 4> strengths{};
  int hits = 0;
};

struct PlayerSpec {
  std::vector<std::vector<Battery>> weapons;
  std::vector<Battery> draw, discard, destroyed;
  int exchanges = 0;
  bool order_known = false;
};

struct PositionSpec {
  bool team = false;
  std::vector<AlienSpec> aliens;
  std::vector<PlayerSpec> players;  // one in solo mode, two in team mode
  int turn = 0;
  std::optional<Battery> revealed;
};

// A choice at a decision: give the revealed battery to the partner, or put
// it on a weapon (input index of the player on turn); when that weapon
// fires, the target alien (input index) and the battery destroyed (absent
// when the shot wins at once).
struct MoveSpec {
  bool give = false;
  int weapon = -1;
  int target = -1;
  std::optional<Battery> destroy;
};

// ---- the compact state the search sees ----

struct State {
  // count[location][kind]; locations are per player: draw, discard,
  // destroyed, then the weapons.
  std::array<std::array<uint8_t, kMaxKinds>, kMaxPlayers * (3 + kMaxWeapons)> count{};
  std::array<uint8_t, kMaxPlayers * kMaxWeapons> energy{};      // per weapon
  std::array<uint8_t, kMaxPlayers * kMaxWeapons> crosshairs{};  // per weapon
  std::array<uint8_t, kMaxAliens> hits{};                        // in the game's alien order
  std::array<uint8_t, kMaxPlayers> pile{};                       // draw + discard sizes
  std::array<uint8_t, kMaxPlayers> draw_size{};
  std::array<int8_t, kMaxPlayers> next_known{};  // index in the known draw order, -1 once hidden
  std::array<uint8_t, kMaxPlayers> exchanges{};
  int8_t revealed = -1;  // kind, or -1
  uint8_t turn = 0;
  uint8_t live_aliens = 0;
  bool lost = false;
};

struct Move {
  bool give = false;
  int8_t weapon = -1;
  int8_t target = -1;   // the game's alien order
  int8_t destroy = -1;  // kind
};

class KeyWriter;

struct Child {
  State state;
  double probability = 1;  // chance outcomes
  Move move;               // decisions
  int8_t reveal = -1;      // chance outcomes: the kind revealed
  Key128 key;              // the state's key (the search reuses it)
  int score = 0;           // decisions: move order
};

class Game {
 public:
  using Key = Key128;
  using State = fire::State;
  using Child = fire::Child;

  // Validates the position; throws InvalidInput naming what is wrong and where.
  explicit Game(const PositionSpec& spec);

  const State& initial() const { return initial_; }
  bool team() const { return players_ == 2; }

  NodeKind kind(const State& s) const;
  Key key(const State& s) const;
  // Admissible: 0 only when no line wins. upper_bound() uses the exact
  // relaxation when it is small enough to tabulate, cheap_upper_bound() a
  // coarser one otherwise.
  double upper_bound(const State& s) const;
  double cheap_upper_bound(const State& s) const;
  void chance_children(const State& s, std::vector<Child>& out) const;
  // Dominance: one hit more on an alien, or one energy exchange more, never
  // hurts (the player can ignore an exchange, and from more hits the same
  // shots reach at least as far).
  void weaker_keys(const State& s, std::vector<Key>& out) const { neighbour_keys(s, -1, out); }
  void stronger_keys(const State& s, std::vector<Key>& out) const { neighbour_keys(s, +1, out); }
  // Distinct successors (moves reaching the same key merged), in the order
  // the search should try them.
  void decision_children(const State& s, std::vector<Child>& out) const {
    decision_children_if(s, out, [](const Move&) { return true; });
  }
  // The same for the moves `keep` accepts. The others are never applied or
  // keyed, which is most of what a decision costs.
  template <class Keep>
  void decision_children_if(const State& s, std::vector<Child>& out, Keep&& keep) const;
  // Every legal move, unmerged, in input terms.
  std::vector<Move> legal_moves(const State& s) const;
  template <class F>
  void for_each_legal_move(const State& s, F&& f) const {
    if (kind(s) == NodeKind::kDecision) for_each_move(s, f);
  }
  // The state after a legal move and everything automatic that follows it.
  State apply(const State& s, const Move& m) const;
  State reveal(const State& s, int kind) const;

  // Conversions to and from the input's terms.
  Move move_from_spec(const State& s, const MoveSpec& m) const;  // throws InvalidInput
  MoveSpec move_spec(const Move& m) const;
  int kind_of(const Battery& b) const;  // -1 when no battery of that kind exists
  const Battery& battery(int kind) const { return kinds_[static_cast<size_t>(kind)]; }
  int kinds() const { return kinds_count_; }
  PositionSpec to_spec(const State& s) const;

  // Team mode, split in two: player p alone, in a solo game of its own with
  // every battery of this game (so battery kinds are numbered alike) and
  // this game's aliens. part_state() is player p's share of a team state in
  // that game's terms: its weapons and piles, the revealed battery if it is
  // p's turn, only the aliens in `aliens` (a bit per alien, game order)
  // alive, and every other battery out of play. Empty when p's draw order
  // is known (a part is a hidden-order game).
  Game part_game(int p) const;
  std::optional<State> part_state(const State& s, int p, uint32_t aliens) const;
  int alien_count() const { return aliens_; }
  int alien_input(int a) const { return alien_input_[static_cast<size_t>(a)]; }  // game order -> input index
  bool same_strengths(int a, int b) const { return group_[static_cast<size_t>(a)] == group_[static_cast<size_t>(b)]; }

  // Hits an alien (game order) at `hits` takes from damage `damage`.
  int hits_from(int alien, int hits, int damage) const;
  // Weapon w of the player on turn: its batteries by kind, energy, crosshairs.
  const std::array<uint8_t, kMaxKinds>& weapon_kinds(const State& s, int w) const {
    return s.count[static_cast<size_t>(loc_weapon(s.turn, w))];
  }
  int weapon_energy(const State& s, int w) const { return s.energy[static_cast<size_t>(slot(s.turn, w))]; }
  int weapon_crosshairs(const State& s, int w) const { return s.crosshairs[static_cast<size_t>(slot(s.turn, w))]; }
  // The damage of weapon w's shot if the revealed battery makes it fire.
  int shot_damage(const State& s, int w) const {
    const Battery& b = kinds_[static_cast<size_t>(s.revealed)];
    return (weapon_energy(s, w) + b.energy - kFireAt) * (weapon_crosshairs(s, w) + b.crosshairs);
  }

 private:
  // Player p's locations start at p * (3 + kMaxWeapons), whatever its own
  // number of weapons.
  static int loc_draw(int p) { return p * (3 + kMaxWeapons); }
  static int loc_discard(int p) { return loc_draw(p) + 1; }
  static int loc_destroyed(int p) { return loc_draw(p) + 2; }
  static int loc_weapon(int p, int w) { return loc_draw(p) + 3 + w; }
  static int slot(int p, int w) { return p * kMaxWeapons + w; }
  int weapons(int p) const { return weapons_[static_cast<size_t>(p)]; }

  template <class F>
  void for_each_move(const State& s, F&& f) const;
  // Which player's locations a key lists first, and whether the seats are
  // interchangeable (then the turn is left out).
  struct SeatOrder {
    std::array<int, kMaxPlayers> order{0, 1};
    bool mirror = false;
  };
  KeyWriter key_head(const State& s, SeatOrder& seats) const;
  Key key_tail(KeyWriter head, const State& s, const SeatOrder& seats) const;
  void neighbour_keys(const State& s, int step, std::vector<Key>& out) const;
  void end_turn(State& s) const;
  void start_turn(State& s) const;
  void reshuffle(State& s, int p) const;
  int order_score(const State& s, const Move& m) const;
  std::array<bool, kMaxPlayers * kMaxWeapons> live_weapons(const State& s) const;
  template <class F>
  void for_each_in_play(const State& s, F&& f) const;
  std::array<int, kMaxKinds> totals(const State& s) const;  // batteries of each kind, wherever they are
  void build_relaxation();
  bool relaxed_winnable(uint32_t pool, std::array<uint8_t, kMaxAliens> hits) const;

  // The relaxation behind upper_bound(): every shot may use any batteries
  // not yet destroyed. Pools (multisets of those batteries) are numbered in
  // mixed radix; for each pool and battery kind, the most damage of a
  // shot that destroys one of that kind. Built only when small.
  std::array<uint32_t, kMaxKinds> pool_radix_{};
  std::vector<int16_t> pool_damage_;  // [pool * kinds + kind], -1: no such shot
  mutable std::vector<int8_t> relaxed_;  // memo [pool * 5^aliens + hits code]: -1 unknown

  int players_ = 1;
  std::array<int, kMaxPlayers> weapons_{};  // per player
  int aliens_ = 0;
  int kinds_count_ = 0;
  std::array<Battery, kMaxKinds> kinds_{};   // sorted by energy, then crosshairs
  std::array<std::array<int, 4>, kMaxAliens> strengths_{};
  std::array<uint8_t, kMaxAliens> group_{};  // aliens with equal strengths share a group
  std::array<int, kMaxAliens> alien_input_{};  // game order -> input index
  std::array<std::vector<int8_t>, kMaxPlayers> known_order_;  // kinds, draw order
  int location_bits_ = 3;
  std::array<int, kMaxKinds> totals_{};  // batteries of each kind in the game
  State initial_;
};

// Calls f(move) for every legal move: each weapon; when it fires, each live
// alien and each kind of battery it could destroy (equal aliens give equal
// keys, and decision_children merges them).
template <class F>
void Game::for_each_move(const State& s, F&& f) const {
  const int p = s.turn, t = s.revealed;
  const Battery& b = kinds_[static_cast<size_t>(t)];
  for (int w = 0; w < weapons(p); ++w) {
    const size_t sl = static_cast<size_t>(slot(p, w));
    if (s.energy[sl] + b.energy < kFireAt) {
      f(Move{false, static_cast<int8_t>(w), -1, -1});
      continue;
    }
    const auto& on = s.count[static_cast<size_t>(loc_weapon(p, w))];
    const int damage = shot_damage(s, w);
    for (int a = 0; a < aliens_; ++a) {
      const int hits = s.hits[static_cast<size_t>(a)];
      if (hits >= 4) continue;
      if (s.live_aliens == 1 && hits + hits_from(a, hits, damage) >= 4) {
        f(Move{false, static_cast<int8_t>(w), static_cast<int8_t>(a), -1});  // the winning shot destroys nothing
        continue;
      }
      for (int k = 0; k < kinds_count_; ++k)
        if (on[static_cast<size_t>(k)] > 0 || k == t)
          f(Move{false, static_cast<int8_t>(w), static_cast<int8_t>(a), static_cast<int8_t>(k)});
    }
  }
  if (players_ == 2 && s.exchanges[static_cast<size_t>(p)] > 0) f(Move{true, -1, -1, -1});
}

template <class Keep>
void Game::decision_children_if(const State& s, std::vector<Child>& out, Keep&& keep) const {
  // A move at an alien equal to an earlier one (same strengths and hits),
  // or from a weapon equal to an earlier one, reaches the key of a move
  // generated before it: skipped before it is applied and keyed.
  std::array<bool, kMaxAliens> twin_alien{};
  for (int a = 1; a < aliens_; ++a)
    for (int b = 0; b < a && !twin_alien[static_cast<size_t>(a)]; ++b)
      twin_alien[static_cast<size_t>(a)] = group_[static_cast<size_t>(a)] == group_[static_cast<size_t>(b)] &&
                                           s.hits[static_cast<size_t>(a)] == s.hits[static_cast<size_t>(b)];
  std::array<bool, kMaxWeapons> twin_weapon{};
  const int p = s.turn;
  for (int w = 1; w < weapons(p); ++w)
    for (int v = 0; v < w && !twin_weapon[static_cast<size_t>(w)]; ++v)
      twin_weapon[static_cast<size_t>(w)] = s.energy[static_cast<size_t>(slot(p, w))] == s.energy[static_cast<size_t>(slot(p, v))] &&
                                            s.crosshairs[static_cast<size_t>(slot(p, w))] == s.crosshairs[static_cast<size_t>(slot(p, v))] &&
                                            s.count[static_cast<size_t>(loc_weapon(p, w))] == s.count[static_cast<size_t>(loc_weapon(p, v))];
  const size_t first = out.size();
  for_each_move(s, [&](const Move& m) {
    if (!m.give && (twin_weapon[static_cast<size_t>(m.weapon)] || (m.target >= 0 && twin_alien[static_cast<size_t>(m.target)])))
      return;
    if (!keep(m)) return;
    Child child;
    child.state = apply(s, m);
    child.key = key(child.state);
    for (size_t i = first; i < out.size(); ++i)
      if (out[i].key == child.key) return;
    child.move = m;
    child.score = order_score(s, m);
    out.push_back(child);
  });
  // Insertion sort: stable, and unlike std::stable_sort it never allocates.
  for (size_t i = first + 1; i < out.size(); ++i)
    for (size_t j = i; j > first && out[j].score > out[j - 1].score; --j) std::swap(out[j], out[j - 1]);
}

}  // namespace sj::fire
