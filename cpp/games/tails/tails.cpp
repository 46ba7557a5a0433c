// Tails on Fire: positions, the hunt's rules, the Rogue's script, the end
// of a round and the deal.
#include "games/tails/tails.hpp"

#include <algorithm>
#include <numeric>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace sj::tails {
namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw InvalidInput("position." + where + ": " + what);
}

std::string card_name(int c) { return c == kTrick ? "\"+1\"" : std::to_string(c); }

void check_card(int c, const std::string& where) {
  if (!((c >= 1 && c <= 9) || c == kTrick)) fail(where, "a card is 1..9 or \"+1\", got " + std::to_string(c));
}

void check_fire(const FireCard& f, const std::string& where) {
  if (f.start < 1 || f.start > 9) fail(where + ".start", "must be 1..9, got " + std::to_string(f.start));
  if (f.flames < 0) fail(where + ".flames", "must be >= 0, got " + std::to_string(f.flames));
}

bool fire_less(const FireCard& a, const FireCard& b) {
  return a.start != b.start ? a.start < b.start : a.flames < b.flames;
}

uint16_t bits_of(const std::vector<int>& cards) {
  uint16_t b = 0;
  for (int c : cards) b = static_cast<uint16_t>(b | (1u << c));
  return b;
}

std::vector<int> cards_of(uint16_t bits) {
  std::vector<int> out;
  for (int c = 1; c <= kTrick; ++c)
    if (bits & (1u << c)) out.push_back(c);
  return out;
}

}  // namespace

int flames_of(const PlayerSpec& p) {
  int total = 0;
  for (const StackSpec& s : p.stacks)
    for (const FireCard& f : s.fires) total += f.flames;
  return total;
}

void validate(const Position& p) {
  const int n = static_cast<int>(p.players.size());
  if (n < 2 || n > kMaxPlayers) fail("players", "2 to 6 players, got " + std::to_string(n));
  if (p.iguana.empty()) fail("iguana", "the iguana pile is empty");
  for (size_t i = 0; i < p.iguana.size(); ++i) check_fire(p.iguana[i], "iguana." + std::to_string(i));
  if (p.first < 0 || p.first >= n) fail("first", "no seat " + std::to_string(p.first));
  if (p.choose) {
    if (p.hero < 0 || p.hero >= n) fail("hero", "no seat " + std::to_string(p.hero));
    if (!p.discard.empty()) fail("discard", "a choose position has no discard pile");
  } else {
    if (p.turn == kRogue ? !p.rogue.present : (p.turn < 0 || p.turn >= n))
      fail("turn", p.turn == kRogue ? "there is no Rogue" : "no seat " + std::to_string(p.turn));
    if (p.lap_given && (p.lap < 0 || p.lap > 8)) fail("lap", "must be 0..8, got " + std::to_string(p.lap));
    if (p.lap_given && !p.discard.empty()) fail("lap", "a lap is phase 1's; the discard pile is not empty");
  }
  // Each owner's cards, each listed once.
  for (int i = 0; i < n; ++i) {
    const PlayerSpec& pl = p.players[i];
    const std::string at = "players." + std::to_string(i);
    bool seen[kTrick + 1] = {};
    auto mark = [&](int c, const std::string& where) {
      check_card(c, where);
      if (seen[c]) fail(where, "card " + card_name(c) + " of seat " + std::to_string(i) + " is listed twice");
      seen[c] = true;
    };
    for (size_t k = 0; k < pl.hand.size(); ++k) mark(pl.hand[k], at + ".hand." + std::to_string(k));
    for (size_t k = 0; k < pl.den.size(); ++k) mark(pl.den[k], at + ".den." + std::to_string(k));
    for (size_t k = 0; k < pl.exhausted.size(); ++k) mark(pl.exhausted[k], at + ".exhausted." + std::to_string(k));
    if (pl.bonfire != 0) {
      if (pl.bonfire == kTrick) fail(at + ".bonfire", "a bonfire holds an opossum 1..9, not \"+1\"");
      mark(pl.bonfire, at + ".bonfire");
    }
    for (size_t k = 0; k < pl.stacks.size(); ++k) {
      const std::string sat = at + ".stacks." + std::to_string(k);
      mark(pl.stacks[k].top, sat + ".top");
      if (pl.stacks[k].fires.empty()) fail(sat + ".fire", "a fire stack holds at least one fire card");
      for (size_t f = 0; f < pl.stacks[k].fires.size(); ++f)
        check_fire(pl.stacks[k].fires[f], sat + ".fire." + std::to_string(f));
    }
    for (size_t k = 0; k < p.discard.size(); ++k)
      if (p.discard[k].owner == i) mark(p.discard[k].card, "discard." + std::to_string(k) + ".card");
  }
  // The discard pile follows the play rules.
  bool rogue_seen[10] = {};
  auto rogue_card = [&](int c, const std::string& where) {
    if (c < 1 || c > 9) fail(where, "the Rogue's cards are 1..9, got " + card_name(c));
    if (rogue_seen[c]) fail(where, "the Rogue's card " + std::to_string(c) + " is listed twice");
    rogue_seen[c] = true;
  };
  int value = 0;
  bool trick_top = false;
  for (size_t k = 0; k < p.discard.size(); ++k) {
    const PileCard& pc = p.discard[k];
    const std::string at = "discard." + std::to_string(k);
    if (pc.owner == kRogue ? !p.rogue.present : (pc.owner < 0 || pc.owner >= n))
      fail(at + ".owner", pc.owner == kRogue ? "there is no Rogue" : "no seat " + std::to_string(pc.owner));
    check_card(pc.card, at + ".card");
    if (pc.owner == kRogue) {
      if (pc.card == kTrick) fail(at + ".card", "the Rogue has no trickster");
      rogue_card(pc.card, at + ".card");
    }
    if (k == 0) {
      if (pc.card == kTrick) fail(at + ".card", "the first card played is a numbered opossum");
      value = pc.card;
    } else if (pc.card == kTrick) {
      if (trick_top) fail(at + ".card", "a trickster is never played on a trickster");
      value = succ(value);
    } else {
      if (pc.card != succ(value))
        fail(at + ".card", "card " + std::to_string(pc.card) + " is not one above " + std::to_string(value));
      value = pc.card;
    }
    trick_top = pc.card == kTrick;
  }
  if (p.rogue.present) {
    for (size_t k = 0; k < p.rogue.deck.size(); ++k) rogue_card(p.rogue.deck[k], "rogue.deck." + std::to_string(k));
    for (size_t k = 0; k < p.rogue.reserve.size(); ++k)
      rogue_card(p.rogue.reserve[k], "rogue.reserve." + std::to_string(k));
  }
  // Phase 2 has no starting number in force: a start_number given there is not read.
  if (!p.choose && p.start_number != 0 && p.discard.empty()) {
    const int lap = p.lap;
    const int number = (p.iguana[0].start - 1 + lap) % 9 + 1;
    if (p.start_number != number)
      fail("start_number", "is " + std::to_string(number) + " at lap " + std::to_string(lap) + ", not " +
                                std::to_string(p.start_number));
  }
}

Position normalized(Position p) {
  for (PlayerSpec& pl : p.players) {
    std::sort(pl.hand.begin(), pl.hand.end());
    std::sort(pl.den.begin(), pl.den.end());
    std::sort(pl.exhausted.begin(), pl.exhausted.end());
    for (StackSpec& s : pl.stacks) std::sort(s.fires.begin(), s.fires.end(), fire_less);
    std::sort(pl.stacks.begin(), pl.stacks.end(), [](const StackSpec& a, const StackSpec& b) { return a.top < b.top; });
  }
  if (p.rogue.present && !p.rogue.known) std::sort(p.rogue.deck.begin(), p.rogue.deck.end());
  return p;
}

// ------------------------------------------------------------ the hunt

Hunt::Hunt(const Position& p) {
  validate(p);
  if (p.choose) fail("phase", "a hunt position is needed here, not a choose position");
  n_ = static_cast<int>(p.players.size());
  rogue_ = p.rogue.present;
  known_ = p.rogue.known;
  first_ = p.first;
  start_ = p.iguana[0].start;
  State& s = initial_;
  for (int i = 0; i < n_; ++i) s.hand[i] = bits_of(p.players[i].hand);
  for (const PileCard& pc : p.discard) play(s, pc.owner, pc.card);
  s.turn = static_cast<uint8_t>(p.turn);
  s.lap = static_cast<uint8_t>(p.discard.empty() ? p.lap : 0);
  if (rogue_) {
    std::vector<int> deck = p.rogue.deck;
    if (!known_) std::sort(deck.begin(), deck.end());
    // validate() allows nine distinct rogue cards at most; the bound says so to the compiler.
    const size_t deck_n = std::min<size_t>(deck.size(), 9), reserve_n = std::min<size_t>(p.rogue.reserve.size(), 9);
    s.deck_n = static_cast<uint8_t>(deck_n);
    for (size_t k = 0; k < deck_n; ++k) s.deck[k] = static_cast<uint8_t>(deck[k]);
    s.reserve_n = static_cast<uint8_t>(reserve_n);
    for (size_t k = 0; k < reserve_n; ++k) s.reserve[k] = static_cast<uint8_t>(p.rogue.reserve[k]);
  }
  if (s.top_owner != kNoOwner && s.top_owner == s.turn) s.over = Over::kWon;
  // Flames after every possible end.
  for (int i = 0; i < n_; ++i) base_[i] = flames_of(p.players[i]);
  for (int w = 0; w <= kRogue; ++w) {
    if (w >= n_ && w != kRogue) continue;
    for (int x = 1; x <= 9; ++x) {
      int64_t* f = flames_after_[w][x];
      std::copy(base_, base_ + kMaxPlayers, f);
      for (int j = 0; j < n_; ++j) {
        if (j == w) continue;
        for (const StackSpec& st : p.players[j].stacks) {
          if (st.top != x) continue;
          int64_t robbed = 0;
          for (const FireCard& fc : st.fires) robbed += fc.flames;
          f[j] -= robbed;
          if (w != kRogue) f[w] += robbed;
        }
      }
      if (w != kRogue) f[w] += p.iguana[0].flames;
    }
  }
  // Every end, as the flames it leaves and its winner: each win (a superset
  // of those reachable, which only makes one_end_at_most_ rarer) and none.
  struct End {
    const int64_t* flames;
    int winner;
  };
  std::vector<End> ends{{base_, kNoOwner}};
  for (int w = 0; w <= kRogue; ++w)
    if (w < n_ || w == kRogue)
      for (int x = 1; x <= 9; ++x) ends.push_back({flames_after_[w][x], w});
  for (int q = 0; q < n_; ++q) {
    const End* first = nullptr;
    int64_t least = ends[0].flames[q], most = least;
    for (const End& e : ends) {
      least = std::min(least, e.flames[q]);
      most = std::max(most, e.flames[q]);
    }
    least_[q] = least;
    one_end_at_most_[q] = true;
    for (const End& e : ends) {
      if (e.flames[q] != most) continue;
      if (!first) first = &e;
      else if (e.winner != first->winner || !std::equal(e.flames, e.flames + n_, first->flames)) one_end_at_most_[q] = false;
    }
    most_[q] = most * kDen;
  }
}

bool Hunt::forced(const State& s) const {
  if (s.turn == kRogue) return !rogue_chance(s);
  Move m[3];
  return moves(s, m) == 1;
}

bool Hunt::playable(const State& s, int card) const {
  if (s.top_owner == kNoOwner) return card == start_number(s);
  return card == succ(s.top_value);
}

int Hunt::moves(const State& s, Move out[3]) const {
  if (s.over != Over::kNo || s.turn == kRogue) return 0;
  int count = 0;
  out[count++] = 0;
  const uint16_t hand = s.hand[s.turn];
  const int number = s.top_owner == kNoOwner ? start_number(s) : succ(s.top_value);
  if (hand & (1u << number)) out[count++] = number;
  if (s.top_owner != kNoOwner && !s.top_trick && (hand & (1u << kTrick))) out[count++] = kTrick;
  return count;
}

std::vector<Move> Hunt::moves(const State& s) const {
  Move m[3];
  const int count = moves(s, m);
  return std::vector<Move>(m, m + count);
}

bool Hunt::legal(const State& s, Move m, std::string* why) const {
  if (s.over != Over::kNo) {
    *why = "the round is over";
    return false;
  }
  if (s.turn == kRogue) {
    *why = "it is the Rogue's turn";
    return false;
  }
  for (Move k : moves(s))
    if (k == m) return true;
  const uint16_t hand = s.hand[s.turn];
  if (m < 1 || m > kTrick) *why = "no such card";
  else if (!(hand & (1u << m))) *why = "seat " + std::to_string(s.turn) + " does not hold " + card_name(m);
  else if (m == kTrick)
    *why = s.top_owner == kNoOwner ? "the trickster is never the first opossum" : "a trickster is never played on a trickster";
  else if (s.top_owner == kNoOwner)
    *why = "the starting number is " + std::to_string(start_number(s));
  else
    *why = "the card to play is " + std::to_string(succ(s.top_value));
  return false;
}

void Hunt::play(State& s, int owner, int card) const {
  s.top_value = static_cast<uint8_t>(card == kTrick ? succ(s.top_value) : card);
  s.top_trick = card == kTrick;
  s.top_owner = static_cast<uint8_t>(owner);
}

void Hunt::next_turn(State& s) const {
  const int last = (first_ + n_ - 1) % n_;
  int t;
  if (s.turn == kRogue) t = first_;
  else if (s.turn == last) t = rogue_ ? kRogue : first_;
  else t = (s.turn + 1) % n_;
  if (t == first_ && s.top_owner == kNoOwner) {
    if (s.lap >= 8) {
      s.turn = static_cast<uint8_t>(t);
      s.over = Over::kNoWinner;
      return;
    }
    ++s.lap;
  }
  s.turn = static_cast<uint8_t>(t);
  if (s.top_owner != kNoOwner && s.top_owner == t) s.over = Over::kWon;
}

State Hunt::apply(const State& s, Move m, StepReport* report) const {
  State t = s;
  if (report) *report = {s.turn, m, 0};
  if (m != 0) {
    t.hand[s.turn] = static_cast<uint16_t>(t.hand[s.turn] & ~(1u << m));
    play(t, s.turn, m);
  }
  next_turn(t);
  return t;
}

bool Hunt::rogue_chance(const State& s) const {
  if (s.over != Over::kNo || s.turn != kRogue || known_ || s.deck_n < 2) return false;
  return !(s.reserve_n && playable(s, s.reserve[s.reserve_n - 1]));
}

State Hunt::rogue_step(const State& s, int draw_index, StepReport* report) const {
  State t = s;
  StepReport r{kRogue, 0, 0};
  if (t.reserve_n && playable(t, t.reserve[t.reserve_n - 1])) {
    r.played = t.reserve[--t.reserve_n];
    t.reserve[t.reserve_n] = 0;
    play(t, kRogue, r.played);
  } else if (t.deck_n) {
    const int c = t.deck[draw_index];
    r.drawn = c;
    for (int k = draw_index; k + 1 < t.deck_n; ++k) t.deck[k] = t.deck[k + 1];
    t.deck[--t.deck_n] = 0;
    if (playable(t, c)) {
      r.played = c;
      play(t, kRogue, c);
    } else {
      t.reserve[t.reserve_n++] = static_cast<uint8_t>(c);
    }
  }
  if (report) *report = r;
  next_turn(t);
  return t;
}

Value Hunt::terminal(const State& s) const {
  Value v;
  if (s.over == Over::kWon) {
    const int64_t* f = flames_after_[s.top_owner][s.top_value];
    for (int i = 0; i < n_; ++i) v.flames[i] = f[i] * kDen;
    v.win[s.top_owner] = kDen;
  } else {
    for (int i = 0; i < n_; ++i) v.flames[i] = base_[i] * kDen;
    v.win[kNoOwner] = kDen;
  }
  return v;
}

void Hunt::flames_range(int seat, double* low, double* high) const {
  *low = static_cast<double>(least_[seat]);
  *high = static_cast<double>(most_[seat] / kDen);
}

uint16_t Hunt::live_cards(const State& s) const {
  if (s.top_owner == kNoOwner) return 0xffff;  // phase 1: every number's lap may still come
  // The top rises one step at a time, by the next number (someone must hold
  // it) or by a trickster (not on a trickster): walk the values the top can
  // still take, taking any trickster as at hand, and stop at the first that
  // nobody can play. Holding the number leaves the most open, so it is
  // taken first.
  uint16_t held = 0;
  for (int i = 0; i < n_; ++i) held |= s.hand[i];
  for (int d = 0; d < s.deck_n; ++d) held |= static_cast<uint16_t>(1u << s.deck[d]);
  for (int r = 0; r < s.reserve_n; ++r) held |= static_cast<uint16_t>(1u << s.reserve[r]);
  const bool tricks = held & (1u << kTrick);
  uint16_t live = 1u << kTrick;
  int value = s.top_value;
  bool on_trick = s.top_trick;
  for (int step = 0; step < 9; ++step) {
    value = succ(value);
    live |= static_cast<uint16_t>(1u << value);
    if (held & (1u << value)) on_trick = false;
    else if (tricks && !on_trick) on_trick = true;
    else break;
  }
  return live;
}

Key128 Hunt::key(const State& s) const {
  Key128 k;
  // A card that can never be played again this round changes no value, so
  // states that differ only in such cards share an entry: they leave the
  // hands; in the Rogue's deck only their number counts (drawn, any of them
  // goes to the reserve for good); and the reserve counts only above its
  // topmost such card, which stays on top of everything under it.
  const uint16_t live = live_cards(s);
  for (int i = 0; i < kMaxPlayers; ++i) k.lo |= static_cast<uint64_t>((s.hand[i] & live) >> 1) << (10 * i);
  k.lo |= static_cast<uint64_t>(s.lap) << 60;
  uint64_t hi = s.top_owner | (static_cast<uint64_t>(s.top_value) << 3) | (static_cast<uint64_t>(s.top_trick) << 7) |
                (static_cast<uint64_t>(s.turn) << 8);
  uint64_t deck = 0, dead_in_deck = 0;
  for (int d = 0; d < s.deck_n; ++d) {
    if (live & (1u << s.deck[d])) deck |= 1ull << (s.deck[d] - 1);
    else ++dead_in_deck;
  }
  hi |= deck << 11 | dead_in_deck << 56;
  int from = s.reserve_n;  // the cards kept: reserve[from..reserve_n)
  while (from > 0 && (live & (1u << s.reserve[from - 1]))) --from;
  for (int r = from; r < s.reserve_n; ++r) hi |= static_cast<uint64_t>(s.reserve[r]) << (20 + 4 * (r - from));
  k.hi = hi | (1ull << 63);
  return k;
}

// ------------------------------------------------------------ replay, rounds

Position write_position(const Position& base, const Hunt& hunt, const State& s, const std::vector<PileCard>& pile) {
  Position p = base;
  for (int i = 0; i < hunt.players(); ++i) p.players[i].hand = cards_of(s.hand[i]);
  p.discard = pile;
  p.turn = s.turn;
  p.lap = s.lap;
  p.lap_given = pile.empty();
  p.start_number = 0;
  if (p.rogue.present) {
    p.rogue.deck.assign(s.deck, s.deck + s.deck_n);
    p.rogue.reserve.assign(s.reserve, s.reserve + s.reserve_n);
  }
  return normalized(p);
}

State settle(const Hunt& hunt, State s, std::vector<PileCard>* pile, std::vector<StepReport>* steps) {
  while (s.over == Over::kNo && s.turn == kRogue && !hunt.rogue_chance(s)) {
    StepReport r;
    s = hunt.rogue_step(s, 0, &r);
    if (r.played && pile) pile->push_back({kRogue, r.played});
    if (steps) steps->push_back(r);
  }
  return s;
}

RoundEnd end_round(const Position& p, const State& s, const std::vector<PileCard>& pile) {
  RoundEnd e;
  e.ended = s.over != Over::kNo;
  if (!e.ended) return e;
  const int n = static_cast<int>(p.players.size());
  e.winner = s.over == Over::kWon ? s.top_owner : kNoOwner;
  const int x = s.top_value;
  if (e.winner != kNoOwner) {
    e.winning_card = pile.back().card;
    e.winning_value = x;
  }
  Position nx;
  nx.choose = true;
  nx.hero = p.choose ? p.hero : 0;
  nx.first = (e.winner != kNoOwner && e.winner != kRogue) ? e.winner : p.first;
  nx.iguana.assign(p.iguana.begin() + 1, p.iguana.end());
  std::vector<FireCard> won{p.iguana[0]};
  for (int i = 0; i < n; ++i) {
    const PlayerSpec& was = p.players[i];
    PlayerSpec pl;
    pl.hand = cards_of(s.hand[i]);
    pl.hand.insert(pl.hand.end(), was.den.begin(), was.den.end());
    pl.hand.insert(pl.hand.end(), was.exhausted.begin(), was.exhausted.end());
    for (size_t k = 0; k < pile.size(); ++k)
      if (pile[k].owner == i && !(e.winner == i && k + 1 == pile.size())) pl.exhausted.push_back(pile[k].card);
    pl.bonfire = was.bonfire;
    for (const StackSpec& st : was.stacks) {
      if (e.winner != kNoOwner && e.winner != i && st.top == x) {
        pl.hand.push_back(st.top);  // loose: back to hand
        won.insert(won.end(), st.fires.begin(), st.fires.end());
      } else {
        pl.stacks.push_back(st);
      }
    }
    nx.players.push_back(pl);
  }
  if (e.winner != kNoOwner && e.winner != kRogue) nx.players[e.winner].stacks.push_back({e.winning_card, won});
  if (p.rogue.present) {
    nx.rogue.present = true;
    nx.rogue.known = false;
    // "The Rogue's nine cards are all shuffled into a new deck": all nine,
    // even when the position listed fewer of them.
    nx.rogue.deck = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  }
  e.next = normalized(nx);
  for (const PlayerSpec& pl : e.next.players) e.final_flames.push_back(flames_of(pl));
  e.game_over = e.next.iguana.empty();
  if (e.game_over) {
    const int top = *std::max_element(e.final_flames.begin(), e.final_flames.end());
    for (int i = 0; i < n; ++i)
      if (e.final_flames[i] == top) e.winners.push_back(i);
  }
  return e;
}

ReplayResult replay(const Position& p, const std::vector<Move>& line, const std::vector<int>& draws) {
  const Hunt hunt(p);
  ReplayResult out;
  State s = hunt.initial();
  std::vector<PileCard> pile = p.discard;
  size_t next_draw = 0;
  // The Rogue's turns up to the next human turn; false when a hidden draw
  // is needed that `draws` does not give.
  auto run_rogue = [&]() {
    while (s.over == Over::kNo && s.turn == kRogue) {
      int index = 0;
      const bool draws_card = !(s.reserve_n && hunt.playable(s, s.reserve[s.reserve_n - 1])) && s.deck_n > 0;
      if (draws_card && !hunt.known_order() && s.deck_n > 1) {
        if (next_draw < draws.size()) {
          const int c = draws[next_draw];
          const uint8_t* at = std::find(s.deck, s.deck + s.deck_n, c);
          if (at == s.deck + s.deck_n) {
            out.error = "rogue_draws[" + std::to_string(next_draw) + "]: card " + std::to_string(c) +
                        " is not in the Rogue's deck";
            return false;
          }
          index = static_cast<int>(at - s.deck);
          ++next_draw;
        } else {
          out.needs_draw = true;
          return false;
        }
      }
      StepReport r;
      s = hunt.rogue_step(s, index, &r);
      if (r.played) pile.push_back({kRogue, r.played});
      out.steps.push_back(r);
    }
    return true;
  };
  bool ok = run_rogue();
  for (size_t k = 0; ok && k < line.size(); ++k) {
    std::string why;
    if (!hunt.legal(s, line[k], &why)) {
      out.error = "line[" + std::to_string(k) + "]: " + why;
      break;
    }
    StepReport r;
    s = hunt.apply(s, line[k], &r);
    if (r.played) pile.push_back({r.owner, r.played});
    out.steps.push_back(r);
    out.moves_played.push_back(line[k]);
    ok = run_rogue();
    if (!ok && out.needs_draw && k + 1 < line.size())
      out.error = "rogue_draws: the Rogue draws from a hidden deck of " + std::to_string(s.deck_n) +
                  " cards after line[" + std::to_string(k) + "]; give the card drawn";
  }
  if (!ok && out.needs_draw && line.empty() == false && out.error.empty() && out.moves_played.size() < line.size())
    out.error = "rogue_draws: the Rogue draws from a hidden deck; give the card drawn";
  out.state = s;
  out.position = write_position(p, hunt, s, pile);
  out.round = end_round(p, s, pile);
  return out;
}

// ------------------------------------------------------------ set-up and choices

Position deal(uint64_t seed, int players, bool rogue, bool known_rogue) {
  if (players < 2 || players > kMaxPlayers) throw InvalidInput("players: 2 to 6, got " + std::to_string(players));
  Rng rng(seed);
  Position p;
  p.choose = true;
  std::vector<int> numbers{1, 2, 3, 4, 5, 6, 7, 8, 9};
  rng.shuffle(numbers);
  for (int i = 0; i < players; ++i) {
    PlayerSpec pl;
    pl.bonfire = numbers[i];
    for (int c = 1; c <= kTrick; ++c)
      if (c != pl.bonfire) pl.hand.push_back(c);
    p.players.push_back(pl);
  }
  std::vector<int> flames{2, 2, 2, 3, 3, 3, 4, 4, 4};
  rng.shuffle(flames);
  for (int s = 1; s <= 9; ++s) p.iguana.push_back({s, flames[s - 1]});
  rng.shuffle(p.iguana);
  if (rogue) {
    p.rogue.present = true;
    p.rogue.known = known_rogue;
    p.rogue.deck = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    rng.shuffle(p.rogue.deck);
  }
  return normalized(p);
}

std::vector<std::vector<int>> choices_of(const std::vector<int>& hand) {
  std::vector<int> h = hand;
  std::sort(h.begin(), h.end());
  std::vector<std::vector<int>> out;
  if (h.size() <= 3) {
    out.push_back(h);
    return out;
  }
  const size_t m = h.size();
  for (size_t a = 0; a < m; ++a)
    for (size_t b = a + 1; b < m; ++b)
      for (size_t c = b + 1; c < m; ++c) out.push_back({h[a], h[b], h[c]});
  return out;
}

Position hunt_from_choice(const Position& choose, const std::vector<std::vector<int>>& chosen) {
  Position p = choose;
  p.choose = false;
  for (size_t i = 0; i < p.players.size(); ++i) {
    PlayerSpec& pl = p.players[i];
    std::vector<int> den;
    for (int c : choose.players[i].hand)
      if (std::find(chosen[i].begin(), chosen[i].end(), c) == chosen[i].end()) den.push_back(c);
    pl.den.insert(pl.den.end(), den.begin(), den.end());
    pl.hand = chosen[i];
  }
  p.turn = p.first;
  p.lap = 0;
  p.lap_given = true;
  p.discard.clear();
  p.rogue.reserve.clear();
  return normalized(p);
}

}  // namespace sj::tails
