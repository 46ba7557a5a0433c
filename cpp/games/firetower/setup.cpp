#include "core/rng.hpp"
#include "games/firetower/game.hpp"
#include "games/firetower/io.hpp"

namespace sj::firetower {

State new_game(const Rules& rules, int level, uint64_t seed, bool order_known, int turn_limit) {
  const LevelData& ld = rules.levels[static_cast<size_t>(level)];
  State s;
  s.level = static_cast<uint8_t>(level);
  s.hand_base = static_cast<uint8_t>(ld.hand);
  s.turn_limit = static_cast<uint16_t>(turn_limit);
  s.order_known_option = order_known;
  for (int sq : ld.breaks) s.breaks.set(sq);
  for (int sq : ld.hawks) s.hawks.set(sq);
  s.player_bucket = ld.player_bucket ? kBucketUnused : kBucketNone;
  Rng rng(seed);
  thread_local std::vector<uint8_t> pile, inferno;  // reused: a batch of playouts starts a game each time
  pile.clear();
  for (size_t k = 0; k < rules.cards.size(); ++k)
    if (static_cast<int>(k) != rules.firestorm)
      for (int i = 0; i < rules.deck[k]; ++i) pile.push_back(static_cast<uint8_t>(k));
  rng.shuffle(pile);
  for (int i = 0; i < ld.hand && !pile.empty(); ++i) {
    ++s.hand[pile.back()];
    ++s.hand_count;
    pile.pop_back();
  }
  for (int i = 0; i < rules.deck[static_cast<size_t>(rules.firestorm)]; ++i)
    pile.insert(pile.begin() + static_cast<long>(rng.below(pile.size() + 1)), static_cast<uint8_t>(rules.firestorm));
  for (uint8_t k : pile) ++s.draw[k];
  inferno.assign(rules.inferno.begin(), rules.inferno.end());
  for (uint8_t k : inferno) ++s.inferno[k];
  if (order_known) {  // the top is the back of `pile`
    s.known = static_cast<uint8_t>(pile.size());
    s.draw_ordered = s.inferno_ordered = true;
    std::copy(pile.begin(), pile.end(), s.order.begin());
    rng.shuffle(inferno);
    s.inferno_known = static_cast<uint8_t>(inferno.size());
    std::copy(inferno.begin(), inferno.end(), s.inferno_order.begin());
  }
  const Engine engine(rules);
  engine.start_turn(s);
  s.stack[s.depth++] = Frame{Task::kStartWind};
  s.stack[s.depth++] = Frame{Task::kSetupHawk};
  s.need = Need::kSetupHawk;
  return s;
}

uint8_t sample_outcome(const std::vector<Outcome>& outcomes, Rng& rng) {
  uint64_t sum = 0;
  for (const Outcome& o : outcomes) sum += o.weight;
  uint64_t x = rng.below(sum);
  for (const Outcome& o : outcomes) {
    if (x < o.weight) return o.value;
    x -= o.weight;
  }
  return outcomes.back().value;
}

void sample_to_decision(const Engine& engine, State& s, Rng& rng, std::vector<std::string>* events) {
  std::vector<Outcome> outcomes;
  while (s.at_chance()) {
    engine.outcomes(s, outcomes);
    const uint8_t v = sample_outcome(outcomes, rng);
    if (events) events->push_back(chance_json(s, v, engine.rules()));
    engine.apply_chance(s, v);
  }
}

}  // namespace sj::firetower
