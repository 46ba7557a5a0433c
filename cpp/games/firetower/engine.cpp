// The turn, as a stack of pending tasks (spec sections 5, 7-10): each task
// runs until it needs a decision or a chance outcome, and the state then
// waits with the task on top. A step (an effect, its hawks, its checks) is
// a StepEnd task under the effect's own tasks; a Firestorm drawn while a
// step is open waits in `storms_waiting` for the FlushStorms task under
// the outermost step (spec 15.2).
#include <cstring>
#include <stdexcept>

#include "games/firetower/game.hpp"

namespace sj::firetower {

namespace {

int total(const std::array<uint8_t, kMaxKinds>& counts) {
  int n = 0;
  for (uint8_t c : counts) n += c;
  return n;
}

constexpr uint8_t kFull = 1;

}  // namespace

const char* need_name(Need n) {
  switch (n) {
    case Need::kSetupHawk: return "setup_hawk";
    case Need::kInfernoPlace: return "inferno_place";
    case Need::kWind: return "wind";
    case Need::kAction: return "action";
    case Need::kEnd: return "end";
    case Need::kHawk: return "hawk";
    case Need::kEnemyBucket: return "enemy_bucket";
    case Need::kStormReroll: return "storm_reroll";
    case Need::kStormDiscard: return "storm_discard";
    case Need::kLightBreeze: return "light_breeze";
    case Need::kHeavyWind: return "heavy_wind";
    case Need::kPick: return "pick";
    case Need::kInfernoDraw: return "inferno";
    case Need::kDraw: return "draw";
    case Need::kDie: return "die";
    case Need::kNothing: return "none";
  }
  return "none";
}

std::vector<Move>& Engine::scratch() const {
  thread_local std::vector<Move> moves;
  return moves;
}

void Engine::push(State& s, Task t, uint8_t stage, uint8_t a, uint8_t b) const {
  if (s.depth >= kMaxStack) throw std::logic_error("firetower: task stack overflow");
  s.stack[s.depth++] = Frame{t, stage, a, b};
}

void Engine::finish(State& s, Status st) const {
  s.status = st;
  if (st == Status::kWin) s.score = static_cast<uint8_t>(9 - (s.gems & regions().area[kNW]).count());
  s.depth = 0;
  s.need = Need::kNothing;
}

// A step: its FlushStorms under its StepEnd, so that Firestorms drawn
// during it resolve once no step is open.
void Engine::begin_step(State& s) const {
  push(s, Task::kFlushStorms);
  push(s, Task::kStepEnd);
  ++s.steps_open;
}

void Engine::place_gem(State& s, int sq) const {
  s.gems.set(sq);
  if (s.hawks.test(sq)) s.pending.set(sq);  // the hawk is activated; it acts after the step's effect
}

bool Engine::can_draw(const State& s) const { return total(s.draw) > 0 || total(s.discard) > 0; }

void Engine::draw_card(State& s, uint8_t kind, bool aside) const {
  --s.draw[kind];
  if (s.known) --s.known;
  if (kind == rules_.firestorm) {  // set aside; the draw still needs a card
    ++s.storms_waiting;
    return;
  }
  if (aside) {
    ++s.aside[kind];
  } else {
    ++s.hand[kind];
    ++s.hand_count;
  }
}

void Engine::discard_from_hand(State& s, uint8_t kind, int n) const {
  s.hand[kind] = static_cast<uint8_t>(s.hand[kind] - n);
  s.discard[kind] = static_cast<uint8_t>(s.discard[kind] + n);
  s.hand_count = static_cast<uint8_t>(s.hand_count - n);
}

bool Engine::wind_in_hand(const State& s) const {
  for (size_t k = 0; k < rules_.cards.size(); ++k)
    if (s.hand[k] && rules_.cards[k].type == CardType::kWind) return true;
  return false;
}

// ------------------------------------------------------------ running

void Engine::advance(State& s) const { run(s); }

void Engine::run(State& s) const {
  std::vector<Move>& moves = scratch();
  std::vector<HawkFamily> families;
  while (!s.over()) {
    if (s.depth == 0) throw std::logic_error("firetower: no task left in an ongoing game");
    if (step(s)) continue;
    if (!s.at_decision()) return;
    if (surely_several(s)) return;
    legal_moves(s, moves, &families);
    uint64_t count = moves.size();
    for (const HawkFamily& f : families) count += f.count;
    if (count >= 2) return;
    if (count == 0) {  // nothing can be done here: the decision is skipped
      --s.depth;
      continue;
    }
    const Move only = moves.empty() ? families[0].unrank(0) : moves[0];
    do_move(s, only);  // one legal move is played without asking (spec 5.1)
  }
  s.need = Need::kNothing;
}

// Runs the top task one stage; false when it waits (s.need says for what).
bool Engine::step(State& s) const {
  Frame& f = s.stack[s.depth - 1];
  const Regions& reg = regions();
  switch (f.task) {
    case Task::kSetupHawk: s.need = Need::kSetupHawk; return false;
    case Task::kStartWind:
    case Task::kCardRoll: s.need = Need::kDie; return false;
    case Task::kInfernoDraw: {
      if (total(s.inferno) == 0) {  // a penalty draw from an empty deck: all the cards, the round ends after
        for (int k : rules_.inferno) ++s.inferno[static_cast<size_t>(k)];
        s.inferno_discards = 0;
        s.inferno_known = 0;
        s.inferno_ordered = false;
        s.round_ends = true;
      }
      s.need = Need::kInfernoDraw;
      return false;
    }
    case Task::kInfernoPlace: {
      if (s.penalty) {  // a penalty draw that cannot be placed loses at once (15.6)
        const CardKind& k = rules_.cards[s.revealed];
        if (k.type == CardType::kFire) {
          std::vector<Move>& moves = scratch();
          inferno_moves(s, moves);
          if (moves.empty()) {
            finish(s, Status::kLoss);
            return true;
          }
        }
      }
      s.need = Need::kInfernoPlace;
      return false;
    }
    case Task::kWind:
      if ((fire(s).step(s.wind) & placeable(s)).none()) {
        --s.depth;  // no square downwind of fire: the wind step is skipped
        return true;
      }
      s.need = Need::kWind;
      return false;
    case Task::kAction: s.need = Need::kAction; return false;
    case Task::kEnd: {
      // The Bucket has a line exactly when a gem stands in the own area.
      if (s.player_bucket != kBucketUnused || (s.gems & reg.area[kNW]).none()) {
        --s.depth;
        return true;
      }
      s.need = Need::kEnd;
      return false;
    }
    case Task::kTurnEnd: {
      if (total(s.inferno) == 0 || s.round_ends) {  // the round ends: the Inferno deck is rebuilt
        s.inferno = {};
        for (int k : rules_.inferno) ++s.inferno[static_cast<size_t>(k)];
        s.inferno_discards = 0;
        s.inferno_known = 0;
        s.inferno_ordered = false;
        s.round_ends = false;
        ++s.round;
      }
      if (s.turn >= s.turn_limit) {
        finish(s, Status::kTimeout);
        return true;
      }
      ++s.turn;
      --s.depth;
      push_turn(s);
      return true;
    }
    case Task::kRefill:
    case Task::kDraw:
    case Task::kDrawAside: {
      const bool satisfied = f.task == Task::kRefill ? s.hand_count >= s.hand_size() : f.a == 0;
      if (satisfied || !can_draw(s)) {
        --s.depth;
        if (s.storms_waiting && s.steps_open == 0) push(s, Task::kFlushStorms);
        return true;
      }
      if (total(s.draw) == 0) {  // the discard pile becomes the draw pile, in unknown order
        s.draw = s.discard;
        s.discard = {};
        s.known = 0;
        s.draw_ordered = false;
      }
      s.need = Need::kDraw;
      return false;
    }
    case Task::kFlushStorms:
      if (s.steps_open == 0 && s.storms_waiting) {
        --s.storms_waiting;
        push(s, Task::kStorm, 0, kFull);
      } else {
        --s.depth;
      }
      return true;
    case Task::kStepEnd: return step_end(s, f);
    case Task::kStorm: return storm(s, f);
    case Task::kLightBreeze: s.need = Need::kLightBreeze; return false;
    case Task::kHeavyWind: {
      if (f.a > 0) {  // the run stops by itself once no wind card has a square
        bool any = false;
        for (size_t k = 0; k < rules_.cards.size() && !any; ++k)
          if (s.hand[k] && rules_.cards[k].type == CardType::kWind &&
              (fire(s).step(rules_.cards[k].gem) & placeable(s)).any())
            any = true;
        if (!any) {
          --s.depth;
          return true;
        }
      }
      s.need = Need::kHeavyWind;
      return false;
    }
    case Task::kPick: {
      if (total(s.aside) == 0) {
        --s.depth;
        return true;
      }
      s.need = Need::kPick;
      return false;
    }
  }
  return true;
}

bool Engine::step_end(State& s, Frame& f) const {
  const Regions& reg = regions();
  switch (f.stage) {
    case 0:  // the hawks activated by the step
      if (s.pending.any()) {
        s.need = Need::kHawk;
        return false;
      }
      f.stage = 1;
      return true;
    case 1: {  // checks 1-2: the own back corner, then burned towers
      if (s.gems.test(kBackCorner[kNW])) {
        finish(s, Status::kLoss);
        return true;
      }
      uint8_t newly = 0;
      for (int t = kNE; t <= kSE; ++t) {
        const uint8_t bit = static_cast<uint8_t>(1 << t);
        if ((s.burned & bit) || !s.gems.test(kBackCorner[t])) continue;
        s.burned |= bit;
        newly |= bit;
        if (s.player_bucket == kBucketNone && !s.bucket_taken && !(s.enemy_buckets_used & bit)) {
          s.player_bucket = kBucketUnused;  // Levels 6-7: the burned tower's Bucket is taken
          s.bucket_taken = true;
        }
      }
      if (s.burned == ((1 << kNE) | (1 << kSW) | (1 << kSE))) {
        finish(s, Status::kWin);
        return true;
      }
      f.a = newly;
      f.stage = 2;
      return true;
    }
    case 2:
    case 3:
    case 4: {  // check 3: the enemies' Buckets, NE, SW, SE
      const int t = f.stage - 1;
      const uint8_t bit = static_cast<uint8_t>(1 << t);
      if ((s.burned & bit) || (s.enemy_buckets_used & bit) || (s.gems & reg.area[t]).none()) {
        ++f.stage;
        return true;
      }
      f.b = static_cast<uint8_t>(t);
      std::vector<Move>& moves = scratch();
      s.need = Need::kEnemyBucket;
      legal_moves(s, moves);
      if (moves.size() > 1) return false;  // a tie between lines with different results: the player chooses
      for (int i = 0; i < moves[0].nsq; ++i) s.gems.clear(moves[0].sq[static_cast<size_t>(i)]);
      s.enemy_buckets_used |= bit;
      ++f.stage;
      return true;
    }
    case 5: {  // check 4: each newly burned tower's partial Firestorm, then one card
      const uint8_t newly = f.a;
      f.stage = 6;
      for (int t = kSE; t >= kNE; --t)
        if (newly >> t & 1) {
          push(s, Task::kDraw, 0, 1);
          push(s, Task::kStorm, 0, 0);
        }
      return true;
    }
    default:  // the step is over
      --s.steps_open;
      --s.depth;
      return true;
  }
}

// A Firestorm's stages (spec section 8); a = kFull for the card's storm,
// b = its reroll used.
bool Engine::storm(State& s, Frame& f) const {
  switch (f.stage) {
    case 0:
      ++s.steps_open;
      f.stage = 1;
      return true;
    case 1:  // the storm's direction
    case 3:  // ... rolled again
    case 5:  // the new wind
    case 7:  // ... rolled again
      s.need = Need::kDie;
      return false;
    case 2:
    case 6:
      if (!f.b && wind_in_hand(s)) {
        s.need = Need::kStormReroll;
        return false;
      }
      f.stage = static_cast<uint8_t>(f.stage + 2);
      return true;
    case 4: {  // every square downwind of fire, all at once from the board before
      const Bits targets = fire(s).step(s.storm_dir) & placeable(s);
      targets.each([&](int sq) { place_gem(s, sq); });
      f.stage = 5;
      return true;
    }
    case 8:
      if (f.a == kFull) {
        s.need = Need::kStormDiscard;
        return false;
      }
      f.stage = 9;
      return true;
    default:  // the storm's hawks and checks
      if (f.a == kFull) ++s.discard[static_cast<size_t>(rules_.firestorm)];
      f = Frame{Task::kStepEnd};
      return true;
  }
}

// ------------------------------------------------------------ input

void Engine::apply(State& s, const Move& m) const {
  do_move(s, m);
  run(s);
}

void Engine::apply_chance(State& s, uint8_t v) const {
  Frame& f = s.stack[s.depth - 1];
  switch (f.task) {
    case Task::kStartWind:
    case Task::kCardRoll:
      s.wind = v;
      --s.depth;
      break;
    case Task::kInfernoDraw:
      --s.inferno[v];
      if (s.inferno_known) --s.inferno_known;
      s.revealed = v;
      s.penalty = f.a != 0;
      --s.depth;
      break;
    case Task::kRefill:
    case Task::kDraw:
    case Task::kDrawAside:
      draw_card(s, v, f.task == Task::kDrawAside);
      if (v != rules_.firestorm) {
        if (f.task != Task::kRefill) --f.a;
        // A Firestorm drawn outside a step resolves right after its replacement.
        if (s.storms_waiting && s.steps_open == 0) push(s, Task::kFlushStorms);
      }
      break;
    case Task::kStorm:
      if (f.stage == 1 || f.stage == 3) {
        s.storm_dir = v;
      } else {
        s.wind = v;
      }
      if (f.stage == 3 || f.stage == 7) {  // a reroll: its card is replaced at once
        f.stage = static_cast<uint8_t>(f.stage + 1);
        push(s, Task::kDraw, 0, 1);
      } else {
        f.stage = static_cast<uint8_t>(f.stage + 1);
      }
      break;
    default: throw std::logic_error("firetower: a chance outcome where none is expected");
  }
  s.need = Need::kNothing;
  run(s);
}

void Engine::outcomes(const State& s, std::vector<Outcome>& out) const {
  out.clear();
  if (!s.at_chance()) return;
  const Frame& f = s.stack[s.depth - 1];
  if (s.need == Need::kInfernoDraw) {
    if (s.inferno_known) {
      out.push_back({s.inferno_order[s.inferno_known - 1], 1});
      return;
    }
    for (size_t k = 0; k < rules_.cards.size(); ++k)
      if (s.inferno[k]) out.push_back({static_cast<uint8_t>(k), s.inferno[k]});
    return;
  }
  if (s.need == Need::kDraw) {
    if (s.known) {
      out.push_back({s.order[s.known - 1], 1});
      return;
    }
    for (size_t k = 0; k < rules_.cards.size(); ++k)
      if (s.draw[k]) out.push_back({static_cast<uint8_t>(k), s.draw[k]});
    return;
  }
  int allowed = allowed_winds(s);
  if (f.task == Task::kCardRoll && s.wind < 4) allowed &= ~(1 << s.wind);  // "roll again if the same"
  for (int d = kN; d <= kW; ++d)
    if ((allowed >> d & 1) && rules_.die[static_cast<size_t>(d)]) out.push_back({static_cast<uint8_t>(d), rules_.die[static_cast<size_t>(d)]});
}

// ------------------------------------------------------------ moves

void Engine::do_move(State& s, const Move& m) const {
  const Regions& reg = regions();
  Frame& f = s.stack[s.depth - 1];
  s.need = Need::kNothing;
  switch (m.type) {
    case MoveType::kSetupHawk:
      s.hawks.set(m.sq[0]);
      --s.depth;
      return;
    case MoveType::kBucket:  // its own step; the decision it was taken at comes back
      begin_step(s);
      for (int i = 0; i < m.nsq; ++i) s.gems.clear(m.sq[static_cast<size_t>(i)]);
      s.player_bucket = kBucketUsed;
      return;
    case MoveType::kInferno: {
      --s.depth;
      const uint8_t card = s.revealed;
      s.inferno_discard[s.inferno_discards++] = card;
      s.revealed = kNull;
      s.penalty = false;
      begin_step(s);
      const CardKind& k = rules_.cards[card];
      if (k.effect == Effect::kExplosion) {
        const int c = m.sq[0];
        s.gems.clear(c);
        s.breaks.set(c);
        for (int dr = -1; dr <= 1; ++dr)
          for (int dc = -1; dc <= 1; ++dc) {
            const int r = row_of(c) + dr, cc = col_of(c) + dc;
            if ((dr || dc) && on_board(r, cc) && reg.quadrant[kNW].test(square_at(r, cc)) &&
                placeable(s).test(square_at(r, cc)))
              place_gem(s, square_at(r, cc));
          }
      } else if (k.type == CardType::kWind) {
        inferno_storm(s, first_dir(k.dirs));
      } else {
        for (int i = 0; i < m.nsq; ++i) place_gem(s, m.sq[static_cast<size_t>(i)]);
      }
      return;
    }
    case MoveType::kPenalty:
      --s.depth;
      s.inferno_discard[s.inferno_discards++] = s.revealed;
      s.revealed = kNull;
      push(s, Task::kInfernoPlace);
      push(s, Task::kInfernoDraw, 0, 1);
      begin_step(s);
      inferno_storm(s, m.arg);
      return;
    case MoveType::kWindGem:
      --s.depth;
      begin_step(s);
      place_gem(s, m.sq[0]);
      return;
    case MoveType::kEnd: --s.depth; return;
    case MoveType::kHawk: {
      const int h = m.sq[0];
      s.gems.clear(h);
      s.hawks.clear(h);
      s.pending.clear(h);
      if (m.nsq == 2) place_gem(s, m.sq[1]);
      return;
    }
    case MoveType::kEnemyBucket:
      for (int i = 0; i < m.nsq; ++i) s.gems.clear(m.sq[static_cast<size_t>(i)]);
      s.enemy_buckets_used |= static_cast<uint8_t>(1 << m.arg);
      ++f.stage;
      return;
    case MoveType::kKeep:
      f.stage = static_cast<uint8_t>(f.stage + 2);
      return;
    case MoveType::kReroll:
      discard_from_hand(s, m.card);
      f.b = 1;
      ++f.stage;
      return;
    case MoveType::kStormDiscard:
      for (int i = 0; i < m.ncards; ++i) discard_from_hand(s, m.cards[static_cast<size_t>(i)]);
      f.stage = 9;
      push(s, Task::kRefill);
      return;
    case MoveType::kLightBreeze:
      --s.depth;
      if (m.card != kNull) {
        discard_from_hand(s, m.card);
        place_gem(s, m.sq[0]);
      }
      return;
    case MoveType::kHeavyWind:
      if (m.card == kNull) {
        --s.depth;
        return;
      }
      discard_from_hand(s, m.card);
      place_gem(s, m.sq[0]);
      ++f.a;
      return;
    case MoveType::kPick: {
      const bool patrol = f.a == kPatrol;
      --s.depth;
      if (m.card != kNull) {
        --s.aside[m.card];
        ++s.discard[m.card];
      }
      if (patrol && m.keep != kNull) {
        --s.aside[m.keep];
        ++s.hand[m.keep];
        ++s.hand_count;
      }
      for (size_t k = 0; k < rules_.cards.size(); ++k) {  // the rest are discarded
        s.discard[k] = static_cast<uint8_t>(s.discard[k] + s.aside[k]);
        s.aside[k] = 0;
      }
      if (m.card != kNull) play_effect(s, m, false);
      return;
    }
    default: break;
  }
  // The turn's action: one step.
  --s.depth;
  begin_step(s);
  switch (m.type) {
    case MoveType::kPlay:
      discard_from_hand(s, m.card, m.option == kDouble ? 2 : 1);
      play_effect(s, m, true);
      return;
    case MoveType::kDiscard:
      for (int i = 0; i < m.ncards; ++i) discard_from_hand(s, m.cards[static_cast<size_t>(i)]);
      return;
    case MoveType::kReckless:
      for (int i = 0; i < m.ncards; ++i) discard_from_hand(s, m.cards[static_cast<size_t>(i)]);
      for (int i = 0; i < m.nsq; ++i) place_gem(s, m.sq[static_cast<size_t>(i)]);
      return;
    case MoveType::kSpecialty:
      if (m.card == kHeavyWinds) {
        s.heavy_winds_back = true;
        push(s, Task::kHeavyWind);
      } else if (m.card == kLookout) {
        s.lookout_back = true;
        push(s, Task::kPick, 0, kLookout);
        push(s, Task::kDrawAside, 0, 3);
      } else {
        discard_from_hand(s, m.cards[0]);
        push(s, Task::kPick, 0, kPatrol);
        push(s, Task::kDrawAside, 0, 2);
      }
      return;
    default: throw std::logic_error("firetower: a move of a kind the engine does not know");
  }
}

int Engine::first_dir(uint8_t dirs) const {
  for (int d = kN; d <= kW; ++d)
    if (dirs >> d & 1) return d;
  return kN;
}

void Engine::inferno_storm(State& s, int dir) const {
  const Bits targets = fire(s).step(dir) & placeable(s) & regions().quadrant[kNW];
  targets.each([&](int sq) { place_gem(s, sq); });
}

// A card's effect on the board; `as_action`: played as the turn's action
// (a wind card then opens Light Breeze, when that side is up).
void Engine::play_effect(State& s, const Move& m, bool as_action) const {
  const Regions& reg = regions();
  const CardKind& k = rules_.cards[m.card];
  switch (k.effect) {
    case Effect::kExplosion: {
      const int c = m.sq[0];
      const Bits place = placeable(s);
      s.gems.clear(c);
      s.breaks.set(c);
      for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc) {
          const int r = row_of(c) + dr, cc = col_of(c) + dc;
          if ((dr || dc) && on_board(r, cc) && place.test(square_at(r, cc))) place_gem(s, square_at(r, cc));
        }
      return;
    }
    case Effect::kEmber:
      s.gems.clear(m.sq[0]);
      place_gem(s, m.sq[1]);
      return;
    case Effect::kRollingFirebrand: {
      int ends[2];
      rolling_ends(s, m.sq[0], m.sq[1], m.arg, ends);
      s.gems.clear(m.sq[0]);
      s.gems.clear(m.sq[1]);
      place_gem(s, ends[0]);
      place_gem(s, ends[1]);
      return;
    }
    case Effect::kWind:
      if (as_action && s.heavy_winds_back) push(s, Task::kLightBreeze);
      if (m.option == kSet) s.wind = m.arg;
      else if (m.option == kRoll) push(s, Task::kCardRoll);
      else place_gem(s, m.sq[0]);
      return;
    case Effect::kDeReforest:
      if (m.option == kAdd) s.breaks.set(m.sq[0]);
      else s.breaks.clear(m.sq[0]);
      return;
    case Effect::kDozerLine:
    case Effect::kScratchLine:
      s.breaks.set(m.sq[0]);
      s.breaks.set(m.sq[1]);
      return;
    case Effect::kBackburn:
      s.gems.clear(m.sq[0]);
      s.breaks.set(m.sq[0]);
      return;
    case Effect::kSmokejumper:
    case Effect::kAirDrop:
    case Effect::kFireEngine:
    case Effect::kHelitack:
      for (int i = 0; i < m.nsq; ++i) s.gems.clear(m.sq[static_cast<size_t>(i)]);
      return;
    case Effect::kHawks:
      s.hawks = s.hawks.minus(reg.quadrant[kNW]);  // every own hawk may move: the move gives where they end
      for (int i = 0; i < m.ntake; ++i) s.hawks.clear(m.sq[static_cast<size_t>(m.nsq + i)]);
      for (int i = 0; i < m.nsq; ++i) s.hawks.set(m.sq[static_cast<size_t>(i)]);
      return;
    case Effect::kFirestorm: return;
    default:  // the fire patterns: a gem on each square
      for (int i = 0; i < m.nsq; ++i) place_gem(s, m.sq[static_cast<size_t>(i)]);
      return;
  }
}

void Engine::push_turn(State& s) const {
  push(s, Task::kTurnEnd);
  push(s, Task::kEnd);
  push(s, Task::kRefill);
  push(s, Task::kAction);
  push(s, Task::kWind);
  push(s, Task::kInfernoPlace);
  push(s, Task::kInfernoDraw);
}

}  // namespace sj::firetower
