#include "games/fire/fire.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "core/error.hpp"

namespace sj::fire {
namespace {

std::string battery_text(const Battery& b) {
  return "{energy " + std::to_string(b.energy) + ", crosshairs " + std::to_string(b.crosshairs) + "}";
}

void check_battery(const Battery& b, const std::string& where) {
  if (b.energy < 1 || b.energy > 5)
    throw InvalidInput(where + ": energy must be 1..5, got " + std::to_string(b.energy));
  if (b.crosshairs < 0 || b.crosshairs > kMaxCrosshairs)
    throw InvalidInput(where + ": crosshairs must be 0.." + std::to_string(kMaxCrosshairs) + ", got " +
                       std::to_string(b.crosshairs));
}

}  // namespace

// Appends fixed-width fields to a 128-bit key.
class KeyWriter {
 public:
  void put(uint64_t value, int width) {
    if (used_ < 64) {
      lo_ |= value << used_;
      if (used_ + width > 64) hi_ |= value >> (64 - used_);
    } else {
      hi_ |= value << (used_ - 64);
    }
    used_ += width;
  }
  Key128 key() const { return {lo_, hi_ | (uint64_t{1} << 63)}; }  // marker: never all zero

 private:
  uint64_t lo_ = 0, hi_ = 0;
  int used_ = 0;
};

Game::Game(const PositionSpec& spec) {
  players_ = spec.team ? 2 : 1;
  if (static_cast<int>(spec.players.size()) != players_)
    throw InvalidInput(spec.team ? "team mode needs exactly 2 players" : "solo mode has exactly 1 player");
  if (spec.aliens.empty() || spec.aliens.size() > kMaxAliens)
    throw InvalidInput("aliens: need 1.." + std::to_string(kMaxAliens) + ", got " +
                       std::to_string(spec.aliens.size()));
  for (int p = 0; p < players_; ++p) {
    const PlayerSpec& ps = spec.players[static_cast<size_t>(p)];
    const std::string who = spec.team ? "players[" + std::to_string(p) + "]." : "";
    const int w = static_cast<int>(ps.weapons.size());
    if (w < 1 || w > kMaxWeapons)
      throw InvalidInput(who + "weapons: need 1.." + std::to_string(kMaxWeapons) + ", got " + std::to_string(w));
    weapons_[static_cast<size_t>(p)] = w;
    if (ps.exchanges < 0 || ps.exchanges > (spec.team ? kMaxExchanges : 0))
      throw InvalidInput(who + "exchanges: must be 0.." + std::to_string(spec.team ? kMaxExchanges : 0) +
                         ", got " + std::to_string(ps.exchanges));
  }
  if (spec.turn < 0 || spec.turn >= players_)
    throw InvalidInput("turn: must be 0.." + std::to_string(players_ - 1) + ", got " + std::to_string(spec.turn));

  // Every battery, for the kinds and the total.
  std::vector<Battery> all;
  auto collect = [&](const std::vector<Battery>& pile, const std::string& where) {
    for (size_t i = 0; i < pile.size(); ++i) {
      check_battery(pile[i], where + "[" + std::to_string(i) + "]");
      all.push_back(pile[i]);
    }
  };
  for (int p = 0; p < players_; ++p) {
    const PlayerSpec& ps = spec.players[static_cast<size_t>(p)];
    const std::string who = spec.team ? "players[" + std::to_string(p) + "]." : "";
    for (size_t w = 0; w < ps.weapons.size(); ++w) {
      const std::string where = who + "weapons[" + std::to_string(w) + "]";
      collect(ps.weapons[w], where);
      int energy = 0;
      for (const Battery& b : ps.weapons[w]) energy += b.energy;
      if (energy >= kFireAt)
        throw InvalidInput(where + ": holds " + std::to_string(energy) +
                           " energy; a weapon with 10 or more has already fired");
    }
    collect(ps.draw, who + "draw");
    collect(ps.discard, who + "discard");
    collect(ps.destroyed, who + "destroyed");
  }
  if (spec.revealed) {
    check_battery(*spec.revealed, "revealed");
    all.push_back(*spec.revealed);
  }
  if (all.empty() || all.size() > kMaxBatteries)
    throw InvalidInput("batteries: need 1.." + std::to_string(kMaxBatteries) + " in all, got " +
                       std::to_string(all.size()));
  std::sort(all.begin(), all.end(), [](const Battery& a, const Battery& b) {
    return a.energy != b.energy ? a.energy < b.energy : a.crosshairs < b.crosshairs;
  });
  all.erase(std::unique(all.begin(), all.end()), all.end());
  kinds_count_ = static_cast<int>(all.size());
  std::copy(all.begin(), all.end(), kinds_.begin());

  // Aliens: grouped by strengths so that equal aliens sit together.
  std::vector<int> order(spec.aliens.size());
  for (size_t a = 0; a < spec.aliens.size(); ++a) {
    const AlienSpec& al = spec.aliens[a];
    const std::string where = "aliens[" + std::to_string(a) + "]";
    for (int v : al.strengths)
      if (v < 1 || v > kMaxStrength)
        throw InvalidInput(where + ".strengths: values must be 1.." + std::to_string(kMaxStrength) + ", got " +
                           std::to_string(v));
    if (al.hits < 0 || al.hits > 4)
      throw InvalidInput(where + ".hits: must be 0..4, got " + std::to_string(al.hits));
    order[a] = static_cast<int>(a);
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return spec.aliens[static_cast<size_t>(a)].strengths < spec.aliens[static_cast<size_t>(b)].strengths;
  });
  aliens_ = static_cast<int>(order.size());
  State& s = initial_;
  for (int i = 0; i < aliens_; ++i) {
    const AlienSpec& al = spec.aliens[static_cast<size_t>(order[static_cast<size_t>(i)])];
    alien_input_[static_cast<size_t>(i)] = order[static_cast<size_t>(i)];
    strengths_[static_cast<size_t>(i)] = al.strengths;
    group_[static_cast<size_t>(i)] =
        static_cast<uint8_t>(i > 0 && al.strengths == strengths_[static_cast<size_t>(i - 1)]
                                 ? group_[static_cast<size_t>(i - 1)]
                                 : i);
    s.hits[static_cast<size_t>(i)] = static_cast<uint8_t>(al.hits);
    if (al.hits < 4) ++s.live_aliens;
  }

  int codes = 2;  // destroyed, revealed
  for (int p = 0; p < players_; ++p) codes += 2 + weapons(p);
  location_bits_ = std::bit_width(static_cast<unsigned>(codes - 1));
  for (int p = 0; p < players_; ++p) {
    const PlayerSpec& ps = spec.players[static_cast<size_t>(p)];
    const size_t pi = static_cast<size_t>(p);
    auto add = [&](int loc, const Battery& b) { ++s.count[static_cast<size_t>(loc)][static_cast<size_t>(kind_of(b))]; };
    for (int w = 0; w < weapons(p); ++w)
      for (const Battery& b : ps.weapons[static_cast<size_t>(w)]) {
        add(loc_weapon(p, w), b);
        s.energy[static_cast<size_t>(slot(p, w))] = static_cast<uint8_t>(s.energy[static_cast<size_t>(slot(p, w))] + b.energy);
        s.crosshairs[static_cast<size_t>(slot(p, w))] =
            static_cast<uint8_t>(s.crosshairs[static_cast<size_t>(slot(p, w))] + b.crosshairs);
      }
    for (const Battery& b : ps.draw) add(loc_draw(p), b);
    for (const Battery& b : ps.discard) add(loc_discard(p), b);
    for (const Battery& b : ps.destroyed) add(loc_destroyed(p), b);
    s.draw_size[pi] = static_cast<uint8_t>(ps.draw.size());
    s.pile[pi] = static_cast<uint8_t>(ps.draw.size() + ps.discard.size());
    s.exchanges[pi] = static_cast<uint8_t>(ps.exchanges);
    s.next_known[pi] = -1;
    if (ps.order_known && !ps.draw.empty()) {
      for (const Battery& b : ps.draw) known_order_[pi].push_back(static_cast<int8_t>(kind_of(b)));
      s.next_known[pi] = 0;
    }
  }
  s.turn = static_cast<uint8_t>(spec.turn);
  if (spec.revealed) s.revealed = static_cast<int8_t>(kind_of(*spec.revealed));
  totals_ = totals(s);
  if (s.live_aliens > 0) start_turn(s);
  build_relaxation();
}

int Game::kind_of(const Battery& b) const {
  for (int k = 0; k < kinds_count_; ++k)
    if (kinds_[static_cast<size_t>(k)] == b) return k;
  return -1;
}

NodeKind Game::kind(const State& s) const {
  if (s.live_aliens == 0) return NodeKind::kWin;
  if (s.lost) return NodeKind::kLoss;
  return s.revealed >= 0 ? NodeKind::kDecision : NodeKind::kChance;
}

Game::Key Game::key(const State& s) const {
  SeatOrder seats;
  return key_tail(key_head(s, seats), s, seats);
}

// Everything but the hits, the turn and the exchanges, which come last so
// that neighbour_keys() can vary them on one head.
KeyWriter Game::key_head(const State& s, SeatOrder& seats) const {
  KeyWriter out;
  // In team mode the players are interchangeable when their weapon counts
  // agree and no known draw order tells them apart: the key then lists the
  // player on turn first and leaves the turn out, so a state and its mirror
  // share one entry.
  seats.mirror = players_ == 2 && weapons_[0] == weapons_[1] && s.next_known[0] < 0 && s.next_known[1] < 0;
  if (seats.mirror && s.turn == 1) seats.order = {1, 0};
  // Each player's weapons in a canonical order: sorted by their contents.
  std::array<int, kMaxPlayers * kMaxWeapons> rank_loc{};
  for (int p = 0; p < players_; ++p) {
    int* ws = &rank_loc[static_cast<size_t>(slot(p, 0))];
    for (int w = 0; w < weapons(p); ++w) ws[w] = loc_weapon(p, w);
    // By energy, then crosshairs, then contents: the sums settle almost
    // every comparison without touching the count arrays.
    const size_t kinds = static_cast<size_t>(kinds_count_);
    auto before = [&](int a, int b) {
      const size_t sa = static_cast<size_t>(slot(p, a - loc_weapon(p, 0)));
      const size_t sb = static_cast<size_t>(slot(p, b - loc_weapon(p, 0)));
      if (s.energy[sa] != s.energy[sb]) return s.energy[sa] < s.energy[sb];
      if (s.crosshairs[sa] != s.crosshairs[sb]) return s.crosshairs[sa] < s.crosshairs[sb];
      return std::memcmp(s.count[static_cast<size_t>(a)].data(), s.count[static_cast<size_t>(b)].data(), kinds) < 0;
    };
    for (int i = 1; i < weapons(p); ++i)
      for (int j = i; j > 0 && before(ws[j], ws[j - 1]); --j) std::swap(ws[j], ws[j - 1]);
  }
  // Every battery's location code, kind by kind, codes ascending; the
  // revealed battery has a code of its own, so every key has the same
  // length (a variable-length key would let two states collide).
  int destroyed_code = 0;
  for (int p = 0; p < players_; ++p) destroyed_code += 2 + weapons(p);
  for (int k = 0; k < kinds_count_; ++k) {
    const size_t ki = static_cast<size_t>(k);
    int code = 0;
    auto emit = [&](int loc, int c) {
      for (int n = s.count[static_cast<size_t>(loc)][ki]; n > 0; --n) out.put(static_cast<uint64_t>(c), location_bits_);
    };
    for (int i = 0; i < players_; ++i) {
      const int p = seats.order[static_cast<size_t>(i)];
      emit(loc_draw(p), code++);
      emit(loc_discard(p), code++);
      for (int r = 0; r < weapons(p); ++r) emit(rank_loc[static_cast<size_t>(slot(p, r))], code++);
    }
    for (int p = 0; p < players_; ++p) emit(loc_destroyed(p), destroyed_code);
    if (s.revealed == k) out.put(static_cast<uint64_t>(destroyed_code + 1), location_bits_);
  }
  return out;
}

Game::Key Game::key_tail(KeyWriter out, const State& s, const SeatOrder& seats) const {
  // Hits, sorted within each group of equal aliens.
  std::array<uint8_t, kMaxAliens> hits = s.hits;
  for (int a = 1; a < aliens_; ++a)
    for (int b = a; b > 0 && group_[static_cast<size_t>(b)] == group_[static_cast<size_t>(b - 1)] &&
                    hits[static_cast<size_t>(b)] < hits[static_cast<size_t>(b - 1)];
         --b)
      std::swap(hits[static_cast<size_t>(b)], hits[static_cast<size_t>(b - 1)]);
  for (int a = 0; a < aliens_; ++a) out.put(hits[static_cast<size_t>(a)], 3);
  out.put(seats.mirror ? 0 : s.turn, 1);
  for (int i = 0; i < players_; ++i) {
    const size_t p = static_cast<size_t>(seats.order[static_cast<size_t>(i)]);
    out.put(s.exchanges[p], 2);
    out.put(static_cast<uint64_t>(s.next_known[static_cast<size_t>(p)] + 1), 5);
  }
  return out.key();
}

// Live aliens only: a variant that kills or revives one would need its
// live count fixed too, and won states are never in the table anyway.
void Game::neighbour_keys(const State& s, int step, std::vector<Key>& out) const {
  SeatOrder seats;
  const KeyWriter head = key_head(s, seats);
  State v = s;
  for (int a = 0; a < aliens_; ++a) {
    const size_t ai = static_cast<size_t>(a);
    const int h = s.hits[ai] + step;
    if (s.hits[ai] >= 4 || h < 0 || h >= 4) continue;
    if (a > 0 && group_[ai] == group_[ai - 1] && s.hits[ai] == s.hits[ai - 1]) continue;  // the same key again
    v.hits[ai] = static_cast<uint8_t>(h);
    out.push_back(key_tail(head, v, seats));
    v.hits[ai] = s.hits[ai];
  }
  for (int p = 0; p < players_ && team(); ++p) {
    const size_t pi = static_cast<size_t>(p);
    const int e = s.exchanges[pi] + step;
    if (e < 0 || e > kMaxExchanges) continue;
    v.exchanges[pi] = static_cast<uint8_t>(e);
    out.push_back(key_tail(head, v, seats));
    v.exchanges[pi] = s.exchanges[pi];
  }
}

int Game::hits_from(int alien, int hits, int damage) const {
  const auto& str = strengths_[static_cast<size_t>(alien)];
  int h = 0, sum = 0;
  while (hits + h < 4 && sum + str[static_cast<size_t>(hits + h)] <= damage) sum += str[static_cast<size_t>(hits + h++)];
  return h;
}

namespace {
constexpr uint64_t kMaxRelaxedPools = 4096;
constexpr uint64_t kMaxRelaxedEntries = uint64_t{1} << 24;
}  // namespace

std::array<int, kMaxKinds> Game::totals(const State& s) const {
  std::array<int, kMaxKinds> total{};
  for (const auto& loc : s.count)
    for (int k = 0; k < kinds_count_; ++k) total[static_cast<size_t>(k)] += loc[static_cast<size_t>(k)];
  if (s.revealed >= 0) ++total[static_cast<size_t>(s.revealed)];
  return total;
}

void Game::build_relaxation() {
  uint64_t pools = 1, codes = 1;
  for (int k = 0; k < kinds_count_; ++k) {
    pool_radix_[static_cast<size_t>(k)] = static_cast<uint32_t>(pools);
    pools *= static_cast<uint64_t>(totals_[static_cast<size_t>(k)] + 1);
    if (pools > kMaxRelaxedPools) return;
  }
  for (int a = 0; a < aliens_; ++a) codes *= 5;
  if (pools * codes > kMaxRelaxedEntries) return;
  const size_t kinds = static_cast<size_t>(kinds_count_);
  pool_damage_.assign(pools * kinds, -1);
  // Every pool, every sub-multiset of it that can be on a weapon when it
  // fires (all but its strongest battery stay below 10).
  std::array<int, kMaxKinds> pool{}, sub{};
  for (uint64_t p = 0; p < pools; ++p) {
    for (size_t k = 0; k < kinds; ++k) pool[k] = static_cast<int>(p / pool_radix_[k] % static_cast<uint64_t>(totals_[k] + 1));
    sub.fill(0);
    for (;;) {
      size_t k = 0;  // next sub-multiset (odometer)
      while (k < kinds && sub[k] == pool[k]) sub[k++] = 0;
      if (k == kinds) break;
      ++sub[k];
      int energy = 0, crosshairs = 0, strongest = 0;
      for (size_t j = 0; j < kinds; ++j) {
        energy += sub[j] * kinds_[j].energy;
        crosshairs += sub[j] * kinds_[j].crosshairs;
        if (sub[j]) strongest = kinds_[j].energy;
      }
      if (energy < kFireAt || energy - strongest >= kFireAt) continue;
      const int damage = (energy - kFireAt) * crosshairs;
      for (size_t j = 0; j < kinds; ++j)
        if (sub[j]) {
          int16_t& best = pool_damage_[p * kinds + j];
          best = static_cast<int16_t>(std::max<int>(best, damage));
        }
    }
  }
  relaxed_.assign(pools * codes, -1);
}

bool Game::relaxed_winnable(uint32_t pool, std::array<uint8_t, kMaxAliens> hits) const {
  uint64_t code = 0;
  for (int a = 0; a < aliens_; ++a) code = code * 5 + hits[static_cast<size_t>(a)];
  uint64_t codes = 1;
  for (int a = 0; a < aliens_; ++a) codes *= 5;
  int8_t& memo = relaxed_[pool * codes + code];
  if (memo >= 0) return memo;
  const size_t kinds = static_cast<size_t>(kinds_count_);
  int live = 0;
  for (int a = 0; a < aliens_; ++a) live += hits[static_cast<size_t>(a)] < 4;
  bool win = false;
  for (int a = 0; a < aliens_ && !win; ++a) {
    const int h = hits[static_cast<size_t>(a)];
    if (h >= 4) continue;
    for (size_t k = 0; k < kinds && !win; ++k) {
      const int damage = pool_damage_[pool * kinds + k];
      const int got = damage < 0 ? 0 : hits_from(a, h, damage);
      if (got == 0) continue;
      if (live == 1 && h + got >= 4) {
        win = true;  // the last shot destroys nothing
        break;
      }
      auto next = hits;
      next[static_cast<size_t>(a)] = static_cast<uint8_t>(h + got);
      win = relaxed_winnable(pool - pool_radix_[k], next);
    }
  }
  memo = win;
  return win;
}

// Which weapons can ever fire again: a weapon can only if its energy and
// every battery that may still reach its player's hand add up to 10 (the
// player's own piles and revealed battery, the batteries of weapons that
// fire first, and while the partner may give, the partner's as well).
// Batteries on the others are out of play for good.
std::array<bool, kMaxPlayers * kMaxWeapons> Game::live_weapons(const State& s) const {
  std::array<int, kMaxPlayers> hand{};
  for (int p = 0; p < players_; ++p)
    for (int loc : {loc_draw(p), loc_discard(p)})
      for (int k = 0; k < kinds_count_; ++k)
        hand[static_cast<size_t>(p)] += s.count[static_cast<size_t>(loc)][static_cast<size_t>(k)] * kinds_[static_cast<size_t>(k)].energy;
  if (s.revealed >= 0) hand[s.turn] += kinds_[static_cast<size_t>(s.revealed)].energy;
  std::array<bool, kMaxPlayers * kMaxWeapons> live{};
  for (bool changed = true; changed;) {
    changed = false;
    for (int p = 0; p < players_; ++p) {
      const int q = 1 - p;
      const int reach = hand[static_cast<size_t>(p)] +
                        (players_ == 2 && s.exchanges[static_cast<size_t>(q)] > 0 ? hand[static_cast<size_t>(q)] : 0);
      for (int w = 0; w < weapons(p); ++w) {
        const size_t sl = static_cast<size_t>(slot(p, w));
        if (live[sl] || s.energy[sl] + reach < kFireAt) continue;
        live[sl] = true;
        hand[static_cast<size_t>(p)] += s.energy[sl];  // back in the discard pile after it fires
        changed = true;
      }
    }
  }
  return live;
}

// Calls f(kind, count) for the batteries still in play: in piles, on
// weapons that can fire again, and the revealed one.
template <class F>
void Game::for_each_in_play(const State& s, F&& f) const {
  const auto live = live_weapons(s);
  for (int p = 0; p < players_; ++p)
    for (int loc = loc_draw(p); loc < loc_draw(p) + 3 + weapons(p); ++loc) {
      if (loc == loc_destroyed(p)) continue;
      if (loc >= loc_weapon(p, 0) && !live[static_cast<size_t>(slot(p, loc - loc_weapon(p, 0)))]) continue;
      for (int k = 0; k < kinds_count_; ++k)
        if (const int n = s.count[static_cast<size_t>(loc)][static_cast<size_t>(k)]) f(k, n);
    }
  if (s.revealed >= 0) f(s.revealed, 1);
}

// Admissible: 0 only when no line can win, in the relaxation where every
// shot may use any batteries still in play (not destroyed, not stuck on a
// weapon that can never fire; whoever holds them, wherever they lie) and
// still destroys one of them. More damage and more hits never hurt, so
// each shot is the strongest for the kind it destroys.
double Game::upper_bound(const State& s) const {
  if (relaxed_.empty()) return cheap_upper_bound(s);
  uint32_t pool = 0;
  for_each_in_play(s, [&](int kind, int count) { pool += static_cast<uint32_t>(count) * pool_radix_[static_cast<size_t>(kind)]; });
  return relaxed_winnable(pool, s.hits) ? 1.0 : 0.0;
}

// The same relaxation, coarser, for games too large for its tables: a shot
// is at most (9 + the largest energy - 10) times all the crosshairs, every
// alien needs its hits in shots of at most that damage, every shot but the
// last destroys a battery, and the last still needs 10 energy.
double Game::cheap_upper_bound(const State& s) const {
  std::array<int, kMaxBatteries> energies{};
  int n = 0, total_energy = 0, total_crosshairs = 0, max_energy = 0;
  auto add = [&](int kind, int count) {
    const Battery& b = kinds_[static_cast<size_t>(kind)];
    for (int c = 0; c < count; ++c) energies[static_cast<size_t>(n++)] = b.energy;
    total_energy += count * b.energy;
    total_crosshairs += count * b.crosshairs;
    if (count > 0) max_energy = std::max(max_energy, b.energy);
  };
  for_each_in_play(s, add);
  const int max_damage = std::max(0, std::min(kFireAt - 1 + max_energy, total_energy) - kFireAt) * total_crosshairs;
  int shots = 0;
  for (int a = 0; a < aliens_; ++a) {
    int h = s.hits[static_cast<size_t>(a)];
    while (h < 4) {
      const int got = hits_from(a, h, max_damage);
      if (got == 0) return 0;
      h += got;
      ++shots;
    }
  }
  if (shots > n) return 0;
  std::sort(energies.begin(), energies.begin() + n);
  int lost_energy = 0;
  for (int i = 0; i < shots - 1; ++i) lost_energy += energies[static_cast<size_t>(i)];
  return total_energy - lost_energy >= kFireAt ? 1.0 : 0.0;
}

void Game::reshuffle(State& s, int p) const {
  const size_t draw = static_cast<size_t>(loc_draw(p)), discard = static_cast<size_t>(loc_discard(p));
  for (int k = 0; k < kinds_count_; ++k) {
    s.count[draw][static_cast<size_t>(k)] = static_cast<uint8_t>(s.count[draw][static_cast<size_t>(k)] +
                                                                 s.count[discard][static_cast<size_t>(k)]);
    s.count[discard][static_cast<size_t>(k)] = 0;
  }
  s.draw_size[static_cast<size_t>(p)] = s.pile[static_cast<size_t>(p)];
  s.next_known[static_cast<size_t>(p)] = -1;  // a shuffled pile is hidden, whatever the input said
}

// The turn ends: an empty draw pile takes the discard pile; in team mode the
// partner plays next.
void Game::end_turn(State& s) const {
  const int p = s.turn;
  if (s.draw_size[static_cast<size_t>(p)] == 0 && s.pile[static_cast<size_t>(p)] > 0) reshuffle(s, p);
  if (players_ == 2) s.turn = static_cast<uint8_t>(1 - p);
  start_turn(s);
}

// Before a reveal: a player with no batteries to draw passes; if nobody can
// draw, the game is lost. A known draw order reveals at once (no chance).
void Game::start_turn(State& s) const {
  if (s.revealed >= 0 || s.live_aliens == 0) return;
  int p = s.turn;
  if (s.pile[static_cast<size_t>(p)] == 0) {
    if (players_ == 2 && s.pile[static_cast<size_t>(1 - p)] > 0) {
      p = 1 - p;
      s.turn = static_cast<uint8_t>(p);
    } else {
      s.lost = true;
      return;
    }
  }
  const size_t pi = static_cast<size_t>(p);
  if (s.draw_size[pi] == 0) reshuffle(s, p);
  if (s.next_known[pi] >= 0) {
    const int kind = known_order_[pi][static_cast<size_t>(s.next_known[pi])];
    ++s.next_known[pi];
    s = reveal(s, kind);
  }
}

State Game::reveal(const State& s, int kind) const {
  State c = s;
  const size_t p = c.turn;
  --c.count[static_cast<size_t>(loc_draw(c.turn))][static_cast<size_t>(kind)];
  --c.draw_size[p];
  --c.pile[p];
  c.revealed = static_cast<int8_t>(kind);
  return c;
}

// Strongest battery first: a big reveal is the one most likely to force a
// wasted shot, so a search asking "won for certain?" meets a losing outcome
// sooner (a third fewer nodes on the solo decks we measured).
void Game::chance_children(const State& s, std::vector<Child>& out) const {
  const auto& draw = s.count[static_cast<size_t>(loc_draw(s.turn))];
  const double n = s.draw_size[s.turn];
  for (int k = kinds_count_ - 1; k >= 0; --k) {
    const int c = draw[static_cast<size_t>(k)];
    if (c == 0) continue;
    Child child;
    child.state = reveal(s, k);
    child.key = key(child.state);
    child.probability = c / n;
    child.reveal = static_cast<int8_t>(k);
    out.push_back(child);
  }
}

State Game::apply(const State& s, const Move& m) const {
  State c = s;
  const int p = c.turn, t = c.revealed;
  const size_t pi = static_cast<size_t>(p);
  c.revealed = -1;
  if (m.give) {
    --c.exchanges[pi];
    if (c.draw_size[pi] == 0 && c.pile[pi] > 0) reshuffle(c, p);
    c.turn = static_cast<uint8_t>(1 - p);
    c.revealed = static_cast<int8_t>(t);  // face up on the partner's draw pile: their next reveal
    return c;
  }
  const size_t sl = static_cast<size_t>(slot(p, m.weapon));
  auto& on = c.count[static_cast<size_t>(loc_weapon(p, m.weapon))];
  ++on[static_cast<size_t>(t)];
  c.energy[sl] = static_cast<uint8_t>(c.energy[sl] + kinds_[static_cast<size_t>(t)].energy);
  c.crosshairs[sl] = static_cast<uint8_t>(c.crosshairs[sl] + kinds_[static_cast<size_t>(t)].crosshairs);
  if (c.energy[sl] >= kFireAt) {
    const size_t a = static_cast<size_t>(m.target);
    c.hits[a] = static_cast<uint8_t>(c.hits[a] + hits_from(m.target, c.hits[a], (c.energy[sl] - kFireAt) * c.crosshairs[sl]));
    const bool won = c.hits[a] >= 4 && --c.live_aliens == 0;  // at once: nothing is destroyed
    auto& discard = c.count[static_cast<size_t>(loc_discard(p))];
    if (!won) {
      --on[static_cast<size_t>(m.destroy)];
      ++c.count[static_cast<size_t>(loc_destroyed(p))][static_cast<size_t>(m.destroy)];
    }
    for (int k = 0; k < kinds_count_; ++k) {
      const size_t ki = static_cast<size_t>(k);
      discard[ki] = static_cast<uint8_t>(discard[ki] + on[ki]);
      c.pile[pi] = static_cast<uint8_t>(c.pile[pi] + on[ki]);
      on[ki] = 0;
    }
    c.energy[sl] = 0;
    c.crosshairs[sl] = 0;
    if (won) return c;
  }
  end_turn(c);
  return c;
}

// Move order for the search: winning and hitting shots first, then charges
// that bring a weapon closest to firing; gifts last. Destroying a weak
// battery is tried before a strong one.
int Game::order_score(const State& s, const Move& m) const {
  if (m.give) return -1000;
  const int p = s.turn;
  const size_t sl = static_cast<size_t>(slot(p, m.weapon));
  const Battery& b = kinds_[static_cast<size_t>(s.revealed)];
  const int energy = s.energy[sl] + b.energy;
  if (energy < kFireAt) return energy;
  if (m.destroy < 0) return 100000;
  const int h = hits_from(m.target, s.hits[static_cast<size_t>(m.target)], (energy - kFireAt) * (s.crosshairs[sl] + b.crosshairs));
  const Battery& gone = kinds_[static_cast<size_t>(m.destroy)];
  return 1000 * h + 100 * (s.hits[static_cast<size_t>(m.target)] + h >= 4) - 10 * gone.energy - gone.crosshairs;
}

std::vector<Move> Game::legal_moves(const State& s) const {
  std::vector<Move> moves;
  for_each_legal_move(s, [&](const Move& m) { moves.push_back(m); });
  return moves;
}

Move Game::move_from_spec(const State& s, const MoveSpec& m) const {
  if (kind(s) != NodeKind::kDecision)
    throw InvalidInput("move: no battery is revealed here, so there is no choice to make");
  const int p = s.turn;
  if (m.give) {
    if (players_ != 2) throw InvalidInput("move: giving a battery is a team-mode move");
    if (s.exchanges[static_cast<size_t>(p)] == 0)
      throw InvalidInput("move: player " + std::to_string(p) + " has no energy exchanges left");
    return Move{true, -1, -1, -1};
  }
  if (m.weapon < 0 || m.weapon >= weapons(p))
    throw InvalidInput("move.weapon: must be 0.." + std::to_string(weapons(p) - 1) + ", got " + std::to_string(m.weapon));
  const size_t sl = static_cast<size_t>(slot(p, m.weapon));
  const Battery& b = kinds_[static_cast<size_t>(s.revealed)];
  const int energy = s.energy[sl] + b.energy;
  if (energy < kFireAt) {
    if (m.target >= 0 || m.destroy)
      throw InvalidInput("move: weapon " + std::to_string(m.weapon) + " reaches " + std::to_string(energy) +
                         " energy and does not fire, so target and destroy must be null");
    return Move{false, static_cast<int8_t>(m.weapon), -1, -1};
  }
  int target = -1;
  for (int a = 0; a < aliens_; ++a)
    if (alien_input_[static_cast<size_t>(a)] == m.target) target = a;
  if (target < 0)
    throw InvalidInput("move.target: weapon " + std::to_string(m.weapon) + " fires, so target must be an alien index 0.." +
                       std::to_string(aliens_ - 1));
  if (s.hits[static_cast<size_t>(target)] >= 4)
    throw InvalidInput("move.target: alien " + std::to_string(m.target) + " is already destroyed");
  Move move{false, static_cast<int8_t>(m.weapon), static_cast<int8_t>(target), -1};
  const int damage = (energy - kFireAt) * (s.crosshairs[sl] + b.crosshairs);
  const bool wins = s.live_aliens == 1 && s.hits[static_cast<size_t>(target)] + hits_from(target, s.hits[static_cast<size_t>(target)], damage) >= 4;
  if (!m.destroy) {
    if (wins) return move;
    throw InvalidInput("move.destroy: weapon " + std::to_string(m.weapon) + " fires, so a battery on it must be destroyed");
  }
  const int k = kind_of(*m.destroy);
  const auto& on = s.count[static_cast<size_t>(loc_weapon(p, m.weapon))];
  if (k < 0 || (on[static_cast<size_t>(k)] == 0 && k != s.revealed))
    throw InvalidInput("move.destroy: no battery " + battery_text(*m.destroy) + " on weapon " + std::to_string(m.weapon));
  // The winning shot destroys nothing; a move that still names a battery on
  // the weapon (the spec's move shape has one for every shot) means the same.
  if (!wins) move.destroy = static_cast<int8_t>(k);
  return move;
}

MoveSpec Game::move_spec(const Move& m) const {
  MoveSpec out;
  out.give = m.give;
  out.weapon = m.weapon;
  out.target = m.target >= 0 ? alien_input_[static_cast<size_t>(m.target)] : -1;
  if (m.destroy >= 0) out.destroy = kinds_[static_cast<size_t>(m.destroy)];
  return out;
}

Game Game::part_game(int p) const {
  PositionSpec spec;
  for (int a = 0; a < aliens_; ++a) spec.aliens.push_back(AlienSpec{strengths_[static_cast<size_t>(a)], 0});
  PlayerSpec player;
  player.weapons.resize(static_cast<size_t>(weapons(p)));
  for (int k = 0; k < kinds_count_; ++k)
    for (int n = 0; n < totals_[static_cast<size_t>(k)]; ++n) player.draw.push_back(kinds_[static_cast<size_t>(k)]);
  spec.players.push_back(player);
  return Game(spec);
}

std::optional<State> Game::part_state(const State& s, int p, uint32_t aliens) const {
  const size_t pi = static_cast<size_t>(p);
  if (s.next_known[pi] >= 0) return std::nullopt;
  State t;
  std::array<int, kMaxKinds> out_of_play = totals_;
  auto take = [&](int from, int to) {
    for (int k = 0; k < kinds_count_; ++k) {
      const size_t ki = static_cast<size_t>(k);
      t.count[static_cast<size_t>(to)][ki] = s.count[static_cast<size_t>(from)][ki];
      out_of_play[ki] -= s.count[static_cast<size_t>(from)][ki];
    }
  };
  take(loc_draw(p), loc_draw(0));
  take(loc_discard(p), loc_discard(0));
  for (int w = 0; w < weapons(p); ++w) {
    take(loc_weapon(p, w), loc_weapon(0, w));
    t.energy[static_cast<size_t>(w)] = s.energy[static_cast<size_t>(slot(p, w))];
    t.crosshairs[static_cast<size_t>(w)] = s.crosshairs[static_cast<size_t>(slot(p, w))];
  }
  if (s.turn == p && s.revealed >= 0) {
    t.revealed = s.revealed;
    --out_of_play[static_cast<size_t>(s.revealed)];
  }
  for (int k = 0; k < kinds_count_; ++k)
    t.count[static_cast<size_t>(loc_destroyed(0))][static_cast<size_t>(k)] = static_cast<uint8_t>(out_of_play[static_cast<size_t>(k)]);
  t.pile[0] = s.pile[pi];
  t.draw_size[0] = s.draw_size[pi];
  t.next_known.fill(-1);
  for (int a = 0; a < aliens_; ++a) {
    const size_t ai = static_cast<size_t>(a);
    t.hits[ai] = aliens >> a & 1 ? s.hits[ai] : 4;
    if (t.hits[ai] < 4) ++t.live_aliens;
  }
  // As the solo game would stand before its next reveal.
  if (t.live_aliens > 0 && t.revealed < 0) {
    if (t.pile[0] == 0) t.lost = true;
    else if (t.draw_size[0] == 0) reshuffle(t, 0);
  }
  return t;
}

PositionSpec Game::to_spec(const State& s) const {
  PositionSpec out;
  out.team = players_ == 2;
  out.turn = s.turn;
  if (s.revealed >= 0) out.revealed = kinds_[static_cast<size_t>(s.revealed)];
  out.aliens.resize(static_cast<size_t>(aliens_));
  for (int a = 0; a < aliens_; ++a) {
    AlienSpec& al = out.aliens[static_cast<size_t>(alien_input_[static_cast<size_t>(a)])];
    al.strengths = strengths_[static_cast<size_t>(a)];
    al.hits = s.hits[static_cast<size_t>(a)];
  }
  auto list = [&](int loc) {
    std::vector<Battery> pile;
    for (int k = 0; k < kinds_count_; ++k)
      for (int n = s.count[static_cast<size_t>(loc)][static_cast<size_t>(k)]; n > 0; --n)
        pile.push_back(kinds_[static_cast<size_t>(k)]);
    return pile;
  };
  for (int p = 0; p < players_; ++p) {
    const size_t pi = static_cast<size_t>(p);
    PlayerSpec ps;
    for (int w = 0; w < weapons(p); ++w) ps.weapons.push_back(list(loc_weapon(p, w)));
    ps.discard = list(loc_discard(p));
    ps.destroyed = list(loc_destroyed(p));
    ps.exchanges = s.exchanges[pi];
    ps.order_known = s.next_known[pi] >= 0;
    if (ps.order_known) {
      for (size_t i = static_cast<size_t>(s.next_known[pi]); i < known_order_[pi].size(); ++i)
        ps.draw.push_back(kinds_[static_cast<size_t>(known_order_[pi][i])]);
    } else {
      ps.draw = list(loc_draw(p));
    }
    out.players.push_back(ps);
  }
  return out;
}

}  // namespace sj::fire
